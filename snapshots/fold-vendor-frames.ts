import { load } from 'cheerio';

export const FOLDED_FRAMES = '  at … (vendor/internal frames)';

/**
 * appkernel's error pages and exception panels with the stack frames of code that is not the app's
 * folded: the `li.frame-vendor` and `li.frame-internal` items go, a `N vendor/internal frames`
 * summary loses its count, and in each `pre.trace` a run of frames in files other than the page's
 * app frames becomes one line. Those frames (appkernel's kernel, packages, Node) change with every
 * upgrade; the app's own frames and the shape of the trace stay. Other pages come back untouched.
 */
export function foldVendorFrames(html: string): string {
  if (!/frame-(?:vendor|internal)|class="trace"/.test(html)) return html;
  const $ = load(html);
  const appFiles = new Set(
    $('li.frame-app .file')
      .map((_, el) => $(el).text())
      .get(),
  );
  $('li.frame-vendor, li.frame-internal').remove();
  $('details > summary').each((_, el) => {
    const text = $(el).text();
    if (/^\d+ vendor\/internal frames?$/.test(text)) $(el).text('vendor/internal frames');
  });
  $('pre.trace').each((_, el) => {
    const lines: string[] = [];
    for (const line of $(el).text().split('\n')) {
      const frame = /^\s+at (?:.*?\(([^()]+?)(?::\d+){0,2}\)|.*)$/.exec(line);
      if (!frame || (frame[1] !== undefined && appFiles.has(frame[1]))) lines.push(line);
      else if (lines[lines.length - 1] !== FOLDED_FRAMES) lines.push(FOLDED_FRAMES);
    }
    $(el).text(lines.join('\n'));
  });
  return $.html();
}
