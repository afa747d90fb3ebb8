import { asciiHtml, escapeHtml } from './escape.js';
import { STYLES } from './styles.js';

export interface LayoutData {
  /** plain text; escaped here */
  title: string;
  /** HTML, already escaped by its renderer */
  body: string;
  /** the stylesheet; default: the pages' full one */
  styles?: string;
}

/** A complete, self-contained page: inline CSS, no external assets, no JavaScript. */
export function renderLayout({ title, body, styles = STYLES }: LayoutData): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex,nofollow">
<link rel="icon" href="data:,">
<title>${asciiHtml(escapeHtml(title))}</title>
<style>${styles}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
