import type { ErrorRenderer } from '../core/kernel/error-renderer.js';
import type { EditorLinks } from './editor-link.js';
import { renderErrorPage, renderProductionErrorPage } from './error-page.js';

/** The HTML error pages, as the kernel's error listener is handed them. */
export const htmlErrorRenderer: ErrorRenderer = {
  debugPage: (data) => renderErrorPage(data),
  productionPage: renderProductionErrorPage,
};

/** The HTML error pages with "open in editor" links on the app's frames (`app serve --editor`). */
export function createHtmlErrorRenderer(editor: EditorLinks | null): ErrorRenderer {
  if (editor === null) return htmlErrorRenderer;
  return { debugPage: (data) => renderErrorPage(data, { editor }), productionPage: renderProductionErrorPage };
}
