/**
 * A date or date-time as the pages and the CLI show them: in UTC unless the text
 * names its zone (`2026-11-22T14:00` is 14:00 UTC). NaN when it is not a date.
 */
export function parseUtcTime(value: string): number {
  const text = value.trim();
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
}
