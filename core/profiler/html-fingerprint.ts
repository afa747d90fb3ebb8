import {
  FNV_OFFSET,
  hex,
  isAnySpace,
  isLetter,
  isSpace,
  isWordAt,
  mixText,
  mixValue,
  step,
} from './fingerprint-hash.js';
import {
  CHECKPOINT_EVERY,
  CheckpointRecorder,
  earlierPage,
  forgetPage,
  MIN_REMEMBERED,
  type PageCheckpoints,
} from './page-checkpoints.js';
import type { BodyStructure } from './profile.js';

const RAW_TEXT_END: Record<string, RegExp> = { script: /<\/script/gi, style: /<\/style/gi };

/**
 * An HTML body's structure (body-fingerprint.ts): its start and end tags with their ids and
 * classes. A page like one met before is read only where it differs from it (page-checkpoints.ts);
 * a page with none like it is read through and remembered. Each page is read once: a remembered
 * page that two pages in a row were mostly unlike is forgotten, to make room for the next.
 */
export function htmlFingerprint(html: string, token: string | null): BodyStructure {
  if (html.length < MIN_REMEMBERED) return scan(html, token, null, null).structure;
  const earlier = earlierPage(html);
  if (earlier !== null) {
    const resumed = scan(html, token, earlier, null);
    earlier.unlike = resumed.read > resumed.skipped ? earlier.unlike + 1 : 0;
    if (earlier.unlike >= 2) forgetPage(earlier);
    return resumed.structure;
  }
  const recorder = new CheckpointRecorder(html, token);
  const { structure } = scan(html, token, null, recorder);
  recorder.remember();
  return structure;
}

/**
 * The scan: one turn of the loop per "<" (a tag, a comment, a "<" in text). `earlier`: a page whose
 * blocks this one may jump over, from a turn where the scan's state (hash, nodes) is one of its
 * checkpoints' and the text that follows is that block's; `recorder`: keeps this scan's checkpoints.
 * `read`, `skipped`: turns taken and turns jumped over.
 */
function scan(
  html: string,
  token: string | null,
  earlier: PageCheckpoints | null,
  recorder: CheckpointRecorder | null,
) {
  const next = new NextFinders(html);
  let hash = FNV_OFFSET;
  let nodes = 0;
  let i = 0;
  let read = 0;
  let skipped = 0;
  for (;;) {
    if (earlier !== null) {
      for (
        let k = earlier.at(hash, nodes), shift = i - (k === -1 ? 0 : earlier.position(k));
        k !== -1 && earlier.sameBlock(k, html, i, token);
        k++
      ) {
        i = earlier.position(k + 1) + shift;
        hash = earlier.hash(k + 1);
        nodes = earlier.nodes(k + 1);
        skipped += CHECKPOINT_EVERY;
      }
    }
    recorder?.turn(read, i, hash, nodes);
    read++;
    if ((i = html.indexOf('<', i)) === -1) break;
    if (html.charCodeAt(i + 1) === 33 /* ! */) {
      // comment, doctype
      const end = html.startsWith('<!--', i) ? html.indexOf('-->', i + 4) : html.indexOf('>', i);
      if (end === -1) break;
      i = end + 1;
      continue;
    }
    const closing = html.charCodeAt(i + 1) === 47; /* / */
    const start = closing ? i + 2 : i + 1;
    if (!isLetter(html.charCodeAt(start))) {
      i = start;
      continue;
    } // a "<" in text
    const end = html.indexOf('>', start); // a ">" in a quoted attribute value ends the tag early: still deterministic
    if (end === -1) break;
    // The name, A-Z as a-z, hashed as it is read (no slice: this is the hot loop).
    if (closing) hash = step(hash, 47);
    let nameEnd = start;
    for (
      let c = html.charCodeAt(nameEnd);
      nameEnd === start || (nameEnd < end && !isSpace(c) && c !== 47);
      c = html.charCodeAt(++nameEnd)
    ) {
      hash = step(hash, c >= 65 && c <= 90 ? c + 32 : c);
    }
    hash = step(hash, 10);
    i = end + 1;
    if (closing) continue;
    nodes++;
    if (end > nameEnd + 3) hash = mixIdAndClasses(hash, html, nameEnd, end, next, token, recorder);
    const raw =
      nameEnd - start === 6 && isWordAt(html, start, 'script')
        ? 'script'
        : nameEnd - start === 5 && isWordAt(html, start, 'style')
          ? 'style'
          : null;
    if (raw !== null) {
      // skip the script's or style's text, up to its end tag
      const rawEnd = RAW_TEXT_END[raw]!;
      rawEnd.lastIndex = i;
      const m = rawEnd.exec(html);
      if (!m) break;
      i = m.index;
    }
  }
  return { structure: { kind: 'html', nodes, hash: hex(hash) } satisfies BodyStructure, read, skipped };
}

/**
 * Hashes `#id` and `.classes` of a start tag's attributes, html[from, to), the other attributes not:
 * what /[\s"'](id|class)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi finds there, one match after
 * the other, each value as mixValue() hashes it, read in place (no slice, no match objects: this
 * runs for every start tag of every page profiled). Every match has an "=" after its name: the
 * "=" is found natively, and the name and the quote or space before it are read back from there.
 */
function mixIdAndClasses(
  hash: number,
  html: string,
  from: number,
  to: number,
  next: NextFinders,
  token: string | null,
  recorder: CheckpointRecorder | null,
): number {
  let p = from; // where the next match may start (the one before ends there)
  for (let eq = next.equals(from); eq < to; eq = next.equals(eq + 1)) {
    let nameEnd = eq;
    while (nameEnd > p && isAnySpace(html.charCodeAt(nameEnd - 1))) nameEnd--;
    const id = nameEnd - 3 >= p && isWordAt(html, nameEnd - 2, 'id') && isQuoteOrSpace(html.charCodeAt(nameEnd - 3));
    if (
      !id &&
      !(nameEnd - 6 >= p && isWordAt(html, nameEnd - 5, 'class') && isQuoteOrSpace(html.charCodeAt(nameEnd - 6)))
    )
      continue;
    let q = eq + 1;
    while (q < to && isAnySpace(html.charCodeAt(q))) q++;
    if (q >= to) continue;
    const quote = html.charCodeAt(q);
    let valueStart: number;
    let valueEnd: number;
    if (quote === 34 || quote === 39) {
      valueStart = q + 1;
      valueEnd = quote === 34 ? next.doubleQuote(valueStart) : next.singleQuote(valueStart);
      if (valueEnd >= to) continue; // not closed within the tag
      p = valueEnd + 1;
    } else {
      valueStart = q;
      valueEnd = q;
      for (
        let v = quote;
        valueEnd < to && !(v === 34 || v === 39 || v === 62 || isAnySpace(v));
        v = html.charCodeAt(++valueEnd)
      );
      p = valueEnd;
    }
    hash = step(hash, id ? 35 /* # */ : 46 /* . */);
    hash =
      token && holds(html, valueStart, valueEnd, token)
        ? mixValue(hash, html.slice(valueStart, valueEnd), token)
        : mixText(hash, html, valueStart, valueEnd);
    recorder?.value(valueStart, valueEnd);
    if (p > eq + 1) eq = p - 1; // an "=" inside the value starts no match
  }
  return hash;
}

/** Whether html[from, to) holds `token`: read in place, values are short (a search could run far past the tag). */
function holds(html: string, from: number, to: number, token: string): boolean {
  const first = token.charCodeAt(0);
  for (let at = from; at + token.length <= to; at++) {
    if (html.charCodeAt(at) !== first) continue;
    let k = 1;
    while (k < token.length && html.charCodeAt(at + k) === token.charCodeAt(k)) k++;
    if (k === token.length) return true;
  }
  return false;
}

function isQuoteOrSpace(code: number): boolean {
  return code === 34 || code === 39 || isAnySpace(code);
}

/**
 * The next "=" or quote at or after a position, asked at increasing positions through the
 * page: each found natively and kept until passed, so that the page is searched for each once
 * (a search that ran past a tag is not repeated for the tags after it). Infinity when there is none.
 */
class NextFinders {
  readonly #html: string;
  #equals = -1;
  #doubleQuote = -1;
  #singleQuote = -1;

  constructor(html: string) {
    this.#html = html;
  }

  equals(from: number): number {
    return this.#equals >= from ? this.#equals : (this.#equals = this.#find('=', from));
  }

  doubleQuote(from: number): number {
    return this.#doubleQuote >= from ? this.#doubleQuote : (this.#doubleQuote = this.#find('"', from));
  }

  singleQuote(from: number): number {
    return this.#singleQuote >= from ? this.#singleQuote : (this.#singleQuote = this.#find("'", from));
  }

  #find(text: string, from: number): number {
    const at = this.#html.indexOf(text, from);
    return at === -1 ? Infinity : at;
  }
}
