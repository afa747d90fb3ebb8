/** ANSI styling for terminal text: applied only when the caller asked for colour. */
export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'blue' | 'cyan' | 'magenta';

const CODES: Record<Style, readonly [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  blue: [34, 39],
  cyan: [36, 39],
  magenta: [35, 39],
};

export function paint(text: string, style: Style, color: boolean): string {
  if (!color || text === '') return text;
  const [open, close] = CODES[style];
  return `\x1b[${open}m${text}\x1b[${close}m`;
}

const LEVEL_STYLE: Record<string, Style> = {
  DEBUG: 'dim',
  INFO: 'green',
  NOTICE: 'blue',
  WARNING: 'yellow',
  ERROR: 'red',
  CRITICAL: 'red',
  ALERT: 'red',
  EMERGENCY: 'red',
};

/** The colour of a log level, the same in `profiles show` and in `app serve`'s output; null for an unknown level. */
export function levelStyle(level: string): Style | null {
  return LEVEL_STYLE[level] ?? null;
}

/** The colour of a status class, as on the search page: 2xx green, 3xx blue, 4xx yellow, 5xx red. */
export function statusStyle(status: number): Style {
  if (status >= 500) return 'red';
  if (status >= 400) return 'yellow';
  if (status >= 300) return 'blue';
  return 'green';
}
