import { formatRecordLine, formatSealLine, summarize, type IndexedRecord } from './index-line.js';
import { scanRecords } from './record-codec.js';
import { logPath, readRangeSync, writeFileAtomicSync } from './store-files.js';

export interface Recovery {
  /** every record of the segment, by offset: the indexed ones that fit, then those found in between */
  records: IndexedRecord[];
  /** intact records the index did not list */
  recovered: number;
  /** bytes that hold no intact record (a half-written tail, damage) */
  skipped: number;
  /** index lines dropped because they point outside the segment or into another record */
  misplaced: number;
}

/**
 * Accounts for every byte of a segment's log up to `logSize`: the indexed
 * records are trusted where they fit, the gaps between them are scanned for
 * intact records. Pass no `indexed` records to rebuild from the log alone.
 */
export function recoverSegment(dir: string, base: string, logSize: number, indexed: readonly IndexedRecord[]): Recovery {
  const sorted = [...indexed].sort((a, b) => a.offset - b.offset);
  const records: IndexedRecord[] = [];
  const result: Recovery = { records, recovered: 0, skipped: 0, misplaced: 0 };
  const path = logPath(dir, base);
  const scanGap = (from: number, to: number) => {
    if (to <= from) return;
    const found = scanRecords(readRangeSync(path, from, to - from), from);
    for (const record of found.records) records.push({ summary: summarize(record.profile), offset: record.offset, length: record.length });
    result.recovered += found.records.length;
    result.skipped += found.skipped;
  };
  let at = 0;
  for (const record of sorted) {
    if (record.offset < at || record.offset + record.length > logSize) {
      result.misplaced++;
      continue;
    }
    scanGap(at, record.offset);
    records.push(record);
    at = record.offset + record.length;
  }
  scanGap(at, logSize);
  records.sort((a, b) => a.offset - b.offset);
  return result;
}

/** Replaces the segment's index with `records` and a seal: nobody appends to it any more. */
export function rewriteIndex(dir: string, base: string, records: readonly IndexedRecord[], logSize: number): number {
  const text = records.map((r) => formatRecordLine(r.summary, r.offset, r.length)).join('') + formatSealLine(logSize);
  writeFileAtomicSync(dir, `${base}.idx`, text);
  return Buffer.byteLength(text);
}
