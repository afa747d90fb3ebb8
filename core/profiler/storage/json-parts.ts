/**
 * Pieces for writing a panel's JSON text field by field, each giving exactly what JSON.stringify
 * gives for it: quoted names (the same few in every profile, quoted once), numbers, and the
 * checks that a value is plain data of an expected shape (otherwise the caller leaves it to
 * JSON.stringify).
 */

const quoted = new Map<string, string>();
const MAX_QUOTED = 4096;
/** longer strings are quoted each time: most are met once */
const MAX_QUOTED_LENGTH = 256;

/** A string as JSON.stringify writes it, kept for the short strings that come again (names, methods, messages). */
export function quote(text: string): string {
  if (text.length > MAX_QUOTED_LENGTH) return JSON.stringify(text);
  let json = quoted.get(text);
  if (json === undefined) {
    if (quoted.size >= MAX_QUOTED) quoted.clear();
    quoted.set(text, (json = JSON.stringify(text)));
  }
  return json;
}

/** "000" … "999", and the same without their trailing zeros ("5", "05", "005" for 500, 50, 5). */
const DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, '0'));
const TRIMMED = DIGITS.map((digits) => digits.replace(/0+$/, ''));

/**
 * A number as JSON.stringify writes it (NaN and the infinities as null). A profile's times are ms
 * to the nanosecond (spanMs: a whole number of millionths): such a number, under 10^9 ms, has at
 * most 15 significant digits, and its shortest form (what JSON writes) is then its decimal digits,
 * which are put together here from whole numbers, without the general conversion of a double.
 */
export function jsonNumber(value: number): string {
  const millionths = Math.round(value * 1e6);
  if (millionths / 1e6 !== value || millionths >= 1e15 || millionths <= -1e15)
    return Number.isFinite(value) ? String(value) : 'null';
  const magnitude = millionths < 0 ? -millionths : millionths;
  const whole = Math.floor(magnitude / 1e6);
  const fraction = magnitude - whole * 1e6;
  const sign = millionths < 0 ? '-' : '';
  if (fraction === 0) return `${sign}${whole}`;
  const high = Math.floor(fraction / 1000);
  const low = fraction - high * 1000;
  return low === 0 ? `${sign}${whole}.${TRIMMED[high]}` : `${sign}${whole}.${DIGITS[high]}${TRIMMED[low]}`;
}

/** A plain object, whose JSON is its own enumerable fields (no toJSON of a class of its own). */
export function isPlain(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** Whether `value`'s own enumerable keys are exactly `keys`, in that order (the order JSON.stringify writes them in). */
export function hasKeys(value: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const key in value) {
    if (key !== keys[i] || !Object.prototype.hasOwnProperty.call(value, key)) return false;
    i++;
  }
  return i === keys.length;
}

/** A plain array (its JSON is its items'). */
export function isPlainArray(value: unknown): value is unknown[] {
  return (
    Array.isArray(value) &&
    Object.getPrototypeOf(value) === Array.prototype &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}
