import type { ErrorRenderer } from '../core/kernel/error-renderer.js';
import { renderErrorPage, renderProductionErrorPage } from './error-page.js';

/** The HTML error pages, as the kernel's error listener is handed them. */
export const htmlErrorRenderer: ErrorRenderer = { debugPage: renderErrorPage, productionPage: renderProductionErrorPage };
