import type { Profile, ProfileSummary } from '../profile.js';
import { isValidToken } from '../token.js';

/**
 * A segment's `.idx` holds one JSON array per line:
 *   ["3f2a1c",404,"127.0.0.1","GET","http://127.0.0.1:8000/robots.txt",1760000000123,4.217,20480,1712,3,null]
 *   (token, status, ip, method, url, time, duration rounded to the µs, record offset, record length,
 *   the profile's slot in that record's block, the matched route's name or null; lines written
 *   before blocks have no slot: 0; lines written before routes were indexed have no route: null)
 * and, last, once the writer is done with the segment:
 *   ["seal",1234567]   (the .log's size then: every byte up to it is accounted for)
 */
export interface IndexedRecord {
  summary: ProfileSummary;
  offset: number;
  length: number;
  slot: number;
}

export interface ParsedIndex {
  records: IndexedRecord[];
  /** the seal's log size, null while the segment is open */
  sealedAt: number | null;
  /** 1-based numbers of lines that are not index lines */
  garbled: number[];
}

export function summarize(profile: Profile): ProfileSummary {
  const { token, status, ip, method, url, time, duration } = profile;
  return { token, status, ip, method, url, time, duration, route: profile.collectors?.request?.route ?? null };
}

/**
 * The line JSON.stringify gives of the record's array, written field by field: an IP, a method, a
 * URL and a route name come again and again, so their quoted forms are kept (bounded).
 */
export function formatRecordLine(summary: ProfileSummary, offset: number, length: number, slot: number): string {
  const { token, status, ip, method, url, time, duration } = summary;
  const route = summary.route ?? null;
  return (
    `[${JSON.stringify(token) ?? 'null'},${number(status)},${quoted(ip)},${quoted(method)},${quoted(url)},${number(time)},` +
    `${number(Math.round(duration * 1000) / 1000)},${number(offset)},${number(length)},${number(slot)},${route === null ? 'null' : quoted(route)}]\n`
  );
}

const quotedTexts = new Map<string, string>();
const MAX_QUOTED = 4096;

/** As JSON.stringify writes an array's element that should be a string (null for what it leaves out). */
function quoted(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value) ?? 'null';
  let text = quotedTexts.get(value);
  if (text === undefined) {
    if (quotedTexts.size >= MAX_QUOTED) quotedTexts.clear();
    quotedTexts.set(value, (text = JSON.stringify(value)));
  }
  return text;
}

/** As JSON.stringify writes an array's element that should be a number. */
function number(value: unknown): string {
  return typeof value === 'number'
    ? Number.isFinite(value)
      ? String(value)
      : 'null'
    : (JSON.stringify(value) ?? 'null');
}

export function formatSealLine(logSize: number): string {
  return `${JSON.stringify(['seal', logSize])}\n`;
}

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isRouteName = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';

/** `text` holds whole lines only; `firstLine` numbers them in warnings. */
export function parseIndexLines(text: string, firstLine = 1): ParsedIndex {
  const parsed: ParsedIndex = { records: [], sealedAt: null, garbled: [] };
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    let row: unknown;
    try {
      row = JSON.parse(lines[i]);
    } catch {
      parsed.garbled.push(firstLine + i);
      continue;
    }
    if (!Array.isArray(row)) {
      parsed.garbled.push(firstLine + i);
    } else if (row.length === 2 && row[0] === 'seal' && isCount(row[1])) {
      parsed.sealedAt = row[1];
    } else if (
      (row.length === 9 || (row.length >= 10 && row.length <= 11 && isCount(row[9]))) &&
      isRouteName(row[10]) &&
      typeof row[0] === 'string' &&
      isValidToken(row[0]) &&
      Number.isInteger(row[1]) &&
      typeof row[2] === 'string' &&
      typeof row[3] === 'string' &&
      typeof row[4] === 'string' &&
      Number.isFinite(row[5]) &&
      Number.isFinite(row[6]) &&
      isCount(row[7]) &&
      isCount(row[8])
    ) {
      const [token, status, ip, method, url, time, duration, offset, length] = row as [
        string,
        number,
        string,
        string,
        string,
        number,
        number,
        number,
        number,
      ];
      const route = (row[10] as string | null | undefined) ?? null;
      parsed.records.push({
        summary: { token, status, ip, method, url, time, duration, route },
        offset,
        length,
        slot: (row[9] as number | undefined) ?? 0,
      });
    } else {
      parsed.garbled.push(firstLine + i);
    }
  }
  return parsed;
}
