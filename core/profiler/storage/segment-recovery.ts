import { formatRecordLine, formatSealLine, summarize, type IndexedRecord } from './index-line.js';
import { scanRecords, type ScannedRecord } from './record-codec.js';
import { logPath, readRangeSync, writeFileAtomicSync } from './store-files.js';

export interface Recovery {
  /** every profile of the segment, by offset and slot: the indexed ones that fit, then those found besides */
  records: IndexedRecord[];
  /** profiles of intact records the index did not list */
  recovered: number;
  /** bytes that hold no intact record (a half-written tail, damage) */
  skipped: number;
  /** index lines dropped because they point outside the segment or into another record */
  misplaced: number;
}

/**
 * Accounts for every byte of a segment's log up to `logSize`: the indexed
 * records are trusted where they fit (the profiles of a block share its offset
 * and length), and an intact block gives back the profiles the index lost; the
 * gaps between them are scanned for intact records.
 */
export function recoverSegment(
  dir: string,
  base: string,
  logSize: number,
  indexed: readonly IndexedRecord[],
): Recovery {
  const sorted = [...indexed].sort((a, b) => a.offset - b.offset || a.slot - b.slot);
  const records: IndexedRecord[] = [];
  const result: Recovery = { records, recovered: 0, skipped: 0, misplaced: 0 };
  const path = logPath(dir, base);
  const add = (found: { records: ScannedRecord[]; skipped: number }, listed: ReadonlySet<string>) => {
    for (const r of found.records) {
      if (listed.has(`${r.slot}:${r.profile.token}`)) continue;
      records.push({ summary: summarize(r.profile), offset: r.offset, length: r.length, slot: r.slot });
      result.recovered++;
    }
    result.skipped += found.skipped;
  };
  const scan = (from: number, to: number) =>
    to > from ? scanRecords(readRangeSync(path, from, to - from), from) : { records: [], skipped: 0 };
  let at = 0;
  for (let i = 0; i < sorted.length; ) {
    const first = sorted[i];
    let end = i + 1;
    while (end < sorted.length && sorted[end].offset === first.offset && sorted[end].length === first.length) end++;
    const block = sorted.slice(i, end);
    i = end;
    if (first.offset < at || first.offset + first.length > logSize) {
      result.misplaced += block.length;
      continue;
    }
    add(scan(at, first.offset), new Set());
    const slots = new Set<number>();
    for (const record of block) {
      if (slots.has(record.slot)) result.misplaced++;
      else records.push(record);
      slots.add(record.slot);
    }
    // A damaged block keeps its index lines: reading its profiles says what is wrong.
    const found = scan(first.offset, first.offset + first.length);
    if (found.skipped === 0) add(found, new Set(block.map((r) => `${r.slot}:${r.summary.token}`)));
    at = first.offset + first.length;
  }
  add(scan(at, logSize), new Set());
  records.sort((a, b) => a.offset - b.offset || a.slot - b.slot);
  return result;
}

/** Replaces the segment's index with `records` and a seal: nobody appends to it any more. */
export function rewriteIndex(dir: string, base: string, records: readonly IndexedRecord[], logSize: number): number {
  const text =
    records.map((r) => formatRecordLine(r.summary, r.offset, r.length, r.slot)).join('') + formatSealLine(logSize);
  writeFileAtomicSync(dir, `${base}.idx`, text);
  return Buffer.byteLength(text);
}
