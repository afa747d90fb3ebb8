import { escapeHtml } from './escape.js';

/** The editors `--editor` knows by name, as Symfony's `framework.ide` does: URL templates with %f (file) and %l (line). */
export const EDITORS: Readonly<Record<string, string>> = {
  vscode: 'vscode://file/%f:%l',
  cursor: 'cursor://file/%f:%l',
  idea: 'idea://open?file=%f&line=%l',
  phpstorm: 'phpstorm://open?file=%f&line=%l',
  sublime: 'subl://open?url=file://%f&line=%l',
  textmate: 'txmt://open?url=file://%f&line=%l',
  emacs: 'emacs://open?url=file://%f&line=%l',
  atom: 'atom://core/open/file?filename=%f&line=%l',
};

/** Where the frames of the app's files open: a template and the root their relative paths start from. */
export interface EditorLinks {
  template: string;
  root: string;
}

/** A scheme a page must never link to, whatever the user configured. */
const SCRIPT_SCHEME = /^\s*(javascript|vbscript|data):/i;

/**
 * The template for an `--editor` value: a known name, or a URL template with a scheme and `%f`;
 * null for anything else (an unknown name, or a script URL).
 */
export function editorTemplate(value: string): string | null {
  if (Object.hasOwn(EDITORS, value)) return EDITORS[value];
  if (!value.includes('%f') || SCRIPT_SCHEME.test(value) || !/^[a-z][a-z0-9+.-]*:/i.test(value)) return null;
  return value;
}

/**
 * The link for `file` (absolute) at `line`: each path segment percent-encoded, `/` and a drive's
 * `:` kept. After a single slash (`vscode://file/%f`) an absolute path's own slash is dropped,
 * so `/src/a.ts` gives `vscode://file/src/a.ts`; after `file://` it stays (`file:///src/a.ts`).
 */
export function editorUrl(template: string, file: string, line: number | null): string {
  const path = file
    .replace(/\\/g, '/')
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/%3A/gi, ':'))
    .join('/');
  const afterSlash = path.startsWith('/') ? path : `/${path}`;
  // Replaced with functions: a `$&` in a file name is text, not a replacement pattern.
  return template
    .replace(/(?<!\/)\/%f/g, () => afterSlash)
    .replace(/%f/g, () => path)
    .replace(/%l/g, () => String(line ?? 1));
}

/** The absolute file of an app frame, whose file is relative to the app root. */
export function absoluteFile(root: string, file: string): string {
  return /^([a-z]:)?[\\/]/i.test(file) ? file : `${root.replace(/[\\/]+$/, '')}/${file}`;
}

/** " Open in editor" after a place in the app (`file` absolute, or relative to the app root); "" without an editor or a file. */
export function editorLinkHtml(
  editor: EditorLinks | null | undefined,
  file: string | null,
  line: number | null,
): string {
  if (!editor || file == null) return '';
  const href = editorUrl(editor.template, absoluteFile(editor.root, file), line);
  return ` <a class="editor" href="${escapeHtml(href)}">Open in editor</a>`;
}
