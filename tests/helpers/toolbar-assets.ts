import type { CheerioAPI } from 'cheerio';
import { TOOLBAR_SCRIPT } from '../../web-profiler/views/toolbar-script.js';
import { TOOLBAR_STYLES } from '../../web-profiler/views/toolbar-styles.js';

/**
 * The page's <script> and body <style> elements that are not the toolbar's own: the toolbar's are
 * children of #appkernel-toolbar whose text is exactly the constant shipped (so a payload that
 * smuggled its own script or style in there would still be counted).
 */
export function foreignScripts($: CheerioAPI): number {
  return $('script').filter((_, el) => !($(el).parent().is('#appkernel-toolbar') && $(el).text() === TOOLBAR_SCRIPT)).length;
}

export function foreignBodyStyles($: CheerioAPI): number {
  return $('style:not(head style)').filter((_, el) => !($(el).parent().is('#appkernel-toolbar') && $(el).text() === TOOLBAR_STYLES)).length;
}
