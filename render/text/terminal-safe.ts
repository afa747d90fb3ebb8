/** The one terminal escaping helper lives in core/ (the dev server prints with it too); the text renderers use it from here. */
export * from '../../core/terminal-safe.js';
