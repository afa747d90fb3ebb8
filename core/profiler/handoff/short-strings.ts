/**
 * The short strings a reader met, by their UTF-8 bytes: most strings of a record come again in
 * every record (header names and values, methods, route and listener names), and finding one here
 * costs less than decoding it again; the string given back is the same one, whose hash lookups
 * downstream (memos by text) then do not compute again. A slot holds the last string whose bytes
 * hashed to it.
 */
export const MAX_SHORT_STRING = 64;
const SLOTS = 4096;
const slotBytes: (Uint8Array | undefined)[] = new Array(SLOTS);
const slotTexts: string[] = new Array(SLOTS);

/** the slot knownString() looked in last: keepString() fills it */
let lastSlot = 0;

/** The string kept for `bytes[start, start + length)` (length up to MAX_SHORT_STRING), if any; else give it to keepString() once decoded. */
export function knownString(bytes: Uint8Array, start: number, length: number): string | undefined {
  let hash = 0x811c9dc5 ^ length;
  for (let i = start, end = start + length; i < end; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
  const slot = (lastSlot = (hash ^ (hash >>> 16)) & (SLOTS - 1));
  const known = slotBytes[slot];
  return known !== undefined && known.length === length && sameBytes(known, bytes, start) ? slotTexts[slot] : undefined;
}

/** Keeps `text`, the string of the bytes knownString() was just asked about. */
export function keepString(bytes: Uint8Array, start: number, length: number, text: string): string {
  slotBytes[lastSlot] = bytes.slice(start, start + length);
  slotTexts[lastSlot] = text;
  return text;
}

function sameBytes(known: Uint8Array, bytes: Uint8Array, start: number): boolean {
  for (let i = 0; i < known.length; i++) if (known[i] !== bytes[start + i]) return false;
  return true;
}
