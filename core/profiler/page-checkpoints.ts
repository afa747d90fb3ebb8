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
  readonly #positions: number[];
  readonly #hashes: number[];
  readonly #nodes: number[];
  /** blocks[k]: the text from checkpoint k to checkpoint k + 1 and LOOKAHEAD characters more */
  readonly #blocks: string[] = [];
  /** whether block k holds the page's own token (a value holding it was hashed without it) */
  readonly #tokenIn: boolean[] = [];
  /** the first checkpoint of each state's hash */
  readonly #byHash = new Map<number, number>();

  constructor(readonly head: string, readonly length: number, html: string, token: string | null,
    positions: number[], hashes: number[], nodes: number[]) {
    this.#positions = positions;
    this.#hashes = hashes;
    this.#nodes = nodes;
    let found = -1; // the token's first place from the last search's start on (Infinity: none)
    for (let k = 0; k + 1 < positions.length; k++) {
      const from = positions[k]!;
      const to = positions[k + 1]! + LOOKAHEAD;
      this.#blocks.push(html.substring(from, to));
      if (token) {
        const start = Math.max(0, from - token.length + 1);
        if (found < start) {
          const at = html.indexOf(token, start);
          found = at === -1 ? Infinity : at;
        }
      }
      this.#tokenIn.push(Boolean(token) && found < to);
    }
    for (let k = positions.length - 1; k >= 0; k--) this.#byHash.set(hashes[k]!, k);
  }

  /** The checkpoint whose scan was in this state, or -1. */
  at(hash: number, nodes: number): number {
    const k = this.#byHash.get(hash);
    return k !== undefined && this.#nodes[k] === nodes ? k : -1;
  }

  /** Whether `html` holds block k at `at` (without `token` in it: `tokenAt` is where the token is next found from `at`). */
  sameBlock(k: number, html: string, at: number, tokenAt: number): boolean {
    const block = this.#blocks[k];
    if (block === undefined || this.#tokenIn[k] || tokenAt < at + block.length) return false;
    return html.length >= at + block.length && html.substring(at, at + block.length) === block;
  }

  position(k: number): number { return this.#positions[k]!; }
  hash(k: number): number { return this.#hashes[k]!; }
  nodes(k: number): number { return this.#nodes[k]!; }
}

/** Collects a scan's checkpoints as it goes. */
export class CheckpointRecorder {
  readonly #positions: number[] = [];
  readonly #hashes: number[] = [];
  readonly #nodes: number[] = [];

  constructor(private readonly html: string, private readonly token: string | null) {}

  /** The scan at the top of its loop turn `turn`, at `at` in the page, in this state. */
  turn(turn: number, at: number, hash: number, nodes: number): void {
    if (turn % CHECKPOINT_EVERY !== 0 || at + LOOKAHEAD > this.html.length) return;
    this.#positions.push(at);
    this.#hashes.push(hash);
    this.#nodes.push(nodes);
  }

  /** Keeps the page's checkpoints for the pages to come (the last few pages remembered). */
  remember(): void {
    const { html } = this;
    pages.unshift(new PageCheckpoints(html.substring(0, HEAD), html.length, html, this.token, this.#positions, this.#hashes, this.#nodes));
    if (pages.length > MAX_PAGES) pages.pop();
  }
}

const pages: PageCheckpoints[] = [];

/** The remembered page most like `html`: the same first characters, the nearest length; null when none. */
export function earlierPage(html: string): PageCheckpoints | null {
  const head = html.substring(0, HEAD);
  let best: PageCheckpoints | null = null;
  for (const page of pages) {
    if (page.head === head && (best === null || Math.abs(page.length - html.length) < Math.abs(best.length - html.length))) best = page;
  }
  return best;
}
