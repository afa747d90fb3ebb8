import { load, type CheerioAPI } from 'cheerio';
import * as assert from 'uvu/assert';
import { foreignScripts } from '../helpers/toolbar-assets.js';

export function texts($: CheerioAPI, selector: string): string[] {
  return $(selector)
    .map((_, el) => $(el).text().trim())
    .get();
}

/** Index of `needle` in the page's text, -1 when absent. */
export function textIndex(html: string, needle: string): number {
  return load(html).root().text().indexOf(needle);
}

/**
 * The page has no element or attribute a payload could have injected: no
 * script but the toolbar's own, no img, no on* handler, no javascript: URL in href, src or action.
 */
export function assertNoInjection(html: string, where: string): void {
  const $ = load(html);
  assert.is(foreignScripts($), 0, `${where}: a <script> element`);
  assert.is($('img, svg, iframe').length, 0, `${where}: an injected element`);
  $('*').each((_, el) => {
    for (const [name, value] of Object.entries((el as unknown as { attribs: Record<string, string> }).attribs ?? {})) {
      assert.not.ok(
        name.startsWith('on'),
        `${where}: attribute ${name} on <${(el as unknown as { name: string }).name}>`,
      );
      if (['href', 'src', 'action', 'formaction'].includes(name)) {
        assert.not.match(value.replace(/[\s\u0000-\u001f]/g, ''), /^javascript:/i, `${where}: ${name}="${value}"`);
      }
    }
  });
}
