/**
 * A date or date-time as the pages and the CLI show them: in UTC unless the text
 * names its zone (`2026-11-22T14:00` is 14:00 UTC). NaN when it is not a date.
 */
export function parseUtcTime(value: string): number {
  const text = value.trim();
  // ISO 8601 only: Date.parse alone reads "-1", "1", "May 3" and "2026-13-45" as some date
  if (!ISO_TIME.test(text)) return NaN;
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
  return ms >= 0 && ms <= LAST_TIME ? ms : NaN;
}

const ISO_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?:[T ]([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?)?(?:[zZ]|[+-]\d\d:?\d\d)?$/;
/** 9999-12-31T23:59:59.999Z: later dates are no profile's */
const LAST_TIME = 253_402_300_799_999;
