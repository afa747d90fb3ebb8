import type { CheerioAPI } from 'cheerio';
import { TOOLBAR_OBSERVER_SCRIPT } from '../../web-profiler/views/toolbar-observer-script.js';
import { TOOLBAR_SCRIPT } from '../../web-profiler/views/toolbar-script.js';
import { TOOLBAR_STYLES } from '../../web-profiler/views/toolbar-styles.js';

/**
 * The page's <script> and body <style> elements that are not the toolbar's own: the toolbar's are
 * children of #appkernel-toolbar whose text is exactly the constant shipped (so a payload that
 * smuggled its own script or style in there would still be counted), the toolbar's observer
 * (#appkernel-toolbar-observer, exactly its constant), and the search page's
 * live-search script, an empty element naming the same-origin file.
 */
export function foreignScripts($: CheerioAPI): number {
  return $('script').filter(
    (_, el) =>
      !($(el).parent().is('#appkernel-toolbar') && $(el).text() === TOOLBAR_SCRIPT) &&
      !($(el).is('#appkernel-toolbar-observer') && $(el).text() === TOOLBAR_OBSERVER_SCRIPT) &&
      !($(el).is(`script[src="${LIVE_SEARCH_SCRIPT}"]`) && $(el).text() === ''),
  ).length;
}

/** The search page's one script: a same-origin file (its CSP allows 'self' only). */
export const LIVE_SEARCH_SCRIPT = '/_profiler/live-search.js';

export function foreignBodyStyles($: CheerioAPI): number {
  return $('style:not(head style)').filter(
    (_, el) => !($(el).parent().is('#appkernel-toolbar') && $(el).text() === TOOLBAR_STYLES),
  ).length;
}
