/** The canonical helper lives with the renderers; core keeps this import path. */
export { escapeHtml } from '../../render/escape.js';
