/**
 * Where the HTML fingerprint's scan of a page stood every few tags (html-fingerprint.ts), kept for
 * the next pages: the debug 404 page, answered again and again, differs from one request to the
 * next only in its token and times, which the fingerprint does not read. A later page that holds
 * the same text as a block between two checkpoints, from a point where its scan is in the same
 * state, reaches the end of the block in the same state: the scan jumps over it.
 */

/** Loop turns of the scan (tags, comments) from one checkpoint to the next. */
export const CHECKPOINT_EVERY = 16;
/** How far past a loop turn's end the scan may have read to take it (`</script` is 8 characters). */
const LOOKAHEAD = 8;
/** Pages shorter than this are scanned through: a few tags cost less than remembering them. */
export const MIN_REMEMBERED = 4096;
const MAX_PAGES = 8;
const HEAD = 64;

export class PageCheckpoints {
  /** pages in a row that were mostly unlike this one (read more than jumped over) */
  unlike = 0;
  readonly #positions: number[];
  readonly #hashes: number[];
  readonly #nodes: number[];
  /** blocks[k]: the text from checkpoint k to checkpoint k + 1 and LOOKAHEAD characters more */
  readonly #blocks: string[] = [];
  /** the ids and classes read in block k, one after another */
  readonly #values: string[];
  /** whether an id or class of block k holds the page's own token (hashed without it) */
  readonly #tokenIn: boolean[] = [];
  /** the first checkpoint of each state's hash */
  readonly #byHash = new Map<number, number>();
  /** the page's token when a block holding it may be met again with another token (isPlainToken) */
  readonly #token: string | null;
  /** block k cut at the page's token, when it holds it; made when first asked */
  readonly #pieces: (string[] | null | undefined)[] = [];

  constructor(
    readonly head: string,
    readonly length: number,
    html: string,
    token: string | null,
    positions: number[],
    hashes: number[],
    nodes: number[],
    values: string[],
  ) {
    this.#positions = positions;
    this.#hashes = hashes;
    this.#nodes = nodes;
    this.#values = values;
    this.#token = token !== null && isPlainToken(token) ? token : null;
    for (let k = 0; k + 1 < positions.length; k++) {
      this.#blocks.push(html.substring(positions[k]!, positions[k + 1]! + LOOKAHEAD));
      this.#tokenIn.push(Boolean(token) && values[k]!.includes(token!));
    }
    for (let k = positions.length - 1; k >= 0; k--) this.#byHash.set(hashes[k]!, k);
  }

  /** The checkpoint whose scan was in this state, or -1. */
  at(hash: number, nodes: number): number {
    const k = this.#byHash.get(hash);
    return k !== undefined && this.#nodes[k] === nodes ? k : -1;
  }

  /**
   * Whether `html` holds block k at `at`: the same text, neither page's token in its ids and
   * classes; or the same text but for the token, each page's own in the same places (sameButToken).
   */
  sameBlock(k: number, html: string, at: number, token: string | null): boolean {
    const block = this.#blocks[k];
    if (block === undefined || html.length < at + block.length) return false;
    const text = html.substring(at, at + block.length);
    if (text === block) return !this.#tokenIn[k] && !(token && this.#values[k]!.includes(token));
    return this.#sameButToken(k, text, token);
  }

  /**
   * Whether `text` is block k with the page's token replaced by `token` (of the same length), none
   * of them in a tag's name. The scan then reads both alike: a plain token (isPlainToken) holds no
   * character it looks for ("<", ">", "=", quotes, spaces, "id", "class", "</script", "</style"
   * across it), and in an id or class each page's token is dropped alike.
   */
  #sameButToken(k: number, text: string, token: string | null): boolean {
    const own = this.#token;
    if (own === null || token === null || token.length !== own.length || token === own || !isPlainToken(token))
      return false;
    let pieces = this.#pieces[k];
    if (pieces === undefined) {
      const block = this.#blocks[k]!;
      this.#pieces[k] = pieces = block.includes(own) && !inTagName(block.split(own)) ? block.split(own) : null;
    }
    if (pieces === null) return false;
    const theirs = text.split(token);
    if (theirs.length !== pieces.length) return false;
    for (let p = 0; p < pieces.length; p++) if (theirs[p] !== pieces[p]) return false;
    return true;
  }

  position(k: number): number {
    return this.#positions[k]!;
  }
  hash(k: number): number {
    return this.#hashes[k]!;
  }
  nodes(k: number): number {
    return this.#nodes[k]!;
  }
}

/** A token the scan reads as any other letters: lower-case hexadecimal (appkernel's), two characters or more. */
function isPlainToken(token: string): boolean {
  return /^[0-9a-f]{2,64}$/.test(token);
}

/**
 * Whether a token between these pieces of a block may stand in a tag's name (or right after "<" or
 * "</"), where the scan reads it: each piece before a token is read back to a space, "/", ">" or
 * "<"; one read back to its start cannot tell, and counts as in a name.
 */
function inTagName(pieces: readonly string[]): boolean {
  for (let p = 0; p + 1 < pieces.length; p++) {
    const piece = pieces[p]!;
    let at = piece.length - 1;
    for (
      let c = piece.charCodeAt(at);
      at >= 0 && !(c === 32 || (c >= 9 && c <= 13) || c === 47 || c === 62 || c === 60);
      c = piece.charCodeAt(--at)
    );
    if (at < 0) return true;
    const stop = piece.charCodeAt(at);
    if (stop === 60 || (stop === 47 && (at === 0 || piece.charCodeAt(at - 1) === 60))) return true;
  }
  return false;
}

/** Collects a scan's checkpoints as it goes. */
export class CheckpointRecorder {
  readonly #positions: number[] = [];
  readonly #hashes: number[] = [];
  readonly #nodes: number[] = [];
  readonly #values: string[] = [];
  #blockValues = '';

  constructor(
    private readonly html: string,
    private readonly token: string | null,
  ) {}

  /** The scan at the top of its loop turn `turn`, at `at` in the page, in this state. */
  turn(turn: number, at: number, hash: number, nodes: number): void {
    if (turn % CHECKPOINT_EVERY !== 0 || at + LOOKAHEAD > this.html.length) return;
    if (this.#positions.length > 0) this.#values.push(this.#blockValues);
    this.#blockValues = '';
    this.#positions.push(at);
    this.#hashes.push(hash);
    this.#nodes.push(nodes);
  }

  /** An id or a class the scan read, html[from, to). */
  value(from: number, to: number): void {
    this.#blockValues += `${this.html.slice(from, to)}\n`;
  }

  /** Keeps the page's checkpoints for the pages to come (the last few pages remembered). */
  remember(): void {
    const { html } = this;
    pages.unshift(
      new PageCheckpoints(
        html.substring(0, HEAD),
        html.length,
        html,
        this.token,
        this.#positions,
        this.#hashes,
        this.#nodes,
        this.#values,
      ),
    );
    if (pages.length > MAX_PAGES) pages.pop();
  }
}

const pages: PageCheckpoints[] = [];

export function forgetPage(page: PageCheckpoints): void {
  const at = pages.indexOf(page);
  if (at !== -1) pages.splice(at, 1);
}

/** The remembered page most like `html`: the same first characters, the nearest length; null when none. */
export function earlierPage(html: string): PageCheckpoints | null {
  const head = html.substring(0, HEAD);
  let best: PageCheckpoints | null = null;
  for (const page of pages) {
    if (
      page.head === head &&
      (best === null || Math.abs(page.length - html.length) < Math.abs(best.length - html.length))
    )
      best = page;
  }
  return best;
}
