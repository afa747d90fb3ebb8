import { decodeParameter, ENCODED_SLASH } from './match-path.js';
import type { MatchResult } from './matcher.js';
import { declaredMethods, type Route } from './route.js';
import type { Expansion, SegmentSpec } from './segment-layout.js';
import { NONE, type SegmentTrie, type Terminal, type TrieNode } from './segment-trie.js';

/** A trie search: one at a time, its state kept between calls. */
export interface TrieSearch {
  /**
   * The lowest index of a route matching `path` (match-path form) and allowed by `accepts`, or
   * NONE. `hasPercent`: the path holds a `%` (so values need decoding); `encodedSlash`: a `%2F`.
   */
  search(path: string, accepts: Uint8Array, hasPercent: boolean, encodedSlash: boolean): number;
  /** The winner as a 'match' result, after a search that found one. */
  result(): MatchResult;
  /**
   * After a search that found none: the declared methods of the routes that matched the path
   * (route order, no duplicates), or null when no route did.
   */
  allowed(): readonly string[] | null;
  /** After a search that found none: the indices of the routes that matched the path but not the method. */
  matched(): Int32Array;
}

/**
 * The trie walked by one small loop, the same for every table: a lookup costs what the path's
 * segments cost, whatever the table's size. Per node, a static child is picked by the
 * segment's first char and compared in place (no slicing, no string hashing), as are a few
 * siblings sharing a first char (`commits`, `comments`); when more share it (`/v1` ... `/v10`),
 * the segment's end is found with indexOf and only the siblings of that length and last char
 * are compared. A child is entered only if it holds a route index lower than the best so far.
 */
export function walkTrie(trie: SegmentTrie, routes: readonly Route[]): TrieSearch {
  return new TrieWalk(trie, routes);
}

class StaticEdge {
  readonly length: number;
  constructor(
    readonly text: string,
    readonly node: WalkNode,
  ) {
    this.length = text.length;
  }
}

/** The static-child table's slot for a first char: one per ASCII char, one for all others. */
function slotOf(first: number): number {
  return first < 128 ? first : 128;
}

/**
 * Up to this many static children sharing a first char are compared in place, each checked for
 * a slash (or the path's end) after its text; more are first narrowed by the segment's end.
 */
const FEW_ALIKE = 4;

/** The static children whose first chars share a slot. */
class StaticBucket {
  /** a few: each compared in place, without looking for the segment's end */
  readonly few: readonly StaticEdge[] | null;
  /** more: by alikeSlot() of their length and last char */
  readonly alike: (readonly StaticEdge[] | null)[];
  readonly mask: number;

  constructor(edges: readonly StaticEdge[]) {
    const few = edges.length <= FEW_ALIKE;
    this.few = few ? edges : null;
    let size = 2;
    while (size < edges.length * 2) size *= 2;
    this.mask = size - 1;
    const alike: (StaticEdge[] | null)[] = new Array<StaticEdge[] | null>(few ? 0 : size).fill(null);
    if (!few)
      for (const edge of edges)
        (alike[alikeSlot(edge.length, edge.text.charCodeAt(edge.length - 1), this.mask)] ??= []).push(edge);
    this.alike = alike;
  }
}

function alikeSlot(length: number, last: number, mask: number): number {
  return (length * 31 + last) & mask;
}

class ScannedEdge {
  /** null: any non-empty segment; else a sticky regex tested at the segment start */
  constructor(
    readonly regex: RegExp | null,
    readonly groups: boolean,
    readonly node: WalkNode,
  ) {}
}

class RestEdge {
  constructor(
    readonly regex: RegExp,
    readonly anchored: RegExp,
    readonly node: WalkNode,
  ) {}
}

/** Builds a winner's parameters from the segment positions of the current branch. */
type ParamsBuilder = (path: string, starts: Int32Array, ends: Int32Array, percent: boolean) => Record<string, string>;

class WalkTerminal {
  constructor(
    readonly index: number,
    readonly route: Route,
    readonly params: ParamsBuilder,
  ) {}
}

class WalkNode {
  readonly minIndex: number;
  readonly terminals: readonly WalkTerminal[];
  /** the terminals' declared methods: the 405's allowed list when only this node matched */
  readonly allowed: readonly string[];
  /** the non-empty static children by slotOf() their first char; null when there are none */
  readonly statics: (StaticBucket | null)[] | null;
  /** the empty segment (a trailing or doubled slash) */
  readonly empty: WalkNode | null;
  readonly scanned: readonly ScannedEdge[];
  readonly scannedMin: number;
  readonly rest: readonly RestEdge[];
  /** only static children: after them, nothing is left to try */
  readonly staticsOnly: boolean;
  /** the only placeholder child, when it takes any segment and no rest child follows it */
  readonly loneAny: WalkNode | null;

  constructor(node: TrieNode) {
    this.minIndex = node.minIndex;
    this.terminals = node.terminals.map(terminalOf);
    this.allowed = Object.freeze(declaredMethods(node.terminals.map((t) => t.route)));
    const statics: StaticEdge[] = [];
    let empty: WalkNode | null = null;
    for (const [text, child] of node.statics) {
      if (text === '') empty = new WalkNode(child);
      else statics.push(new StaticEdge(text, new WalkNode(child)));
    }
    this.statics = statics.length === 0 ? null : staticTable(statics);
    this.empty = empty;
    const scanned: ScannedEdge[] = [];
    if (node.any !== null) scanned.push(new ScannedEdge(null, false, new WalkNode(node.any)));
    for (const edge of node.tested) scanned.push(new ScannedEdge(edge.regex, edge.groups, new WalkNode(edge.node)));
    this.scanned = scanned;
    this.scannedMin = Math.min(NONE, ...scanned.map((e) => e.node.minIndex));
    this.rest = node.rest.map((edge) => new RestEdge(edge.regex, edge.anchored, new WalkNode(edge.node)));
    this.staticsOnly = empty === null && scanned.length === 0 && this.rest.length === 0;
    this.loneAny = scanned.length === 1 && scanned[0].regex === null && this.rest.length === 0 ? scanned[0].node : null;
  }
}

function staticTable(statics: readonly StaticEdge[]): (StaticBucket | null)[] {
  const bySlot: (StaticEdge[] | undefined)[] = [];
  for (const edge of statics) (bySlot[slotOf(edge.text.charCodeAt(0))] ??= []).push(edge);
  return Array.from({ length: 129 }, (_, slot) => (bySlot[slot] === undefined ? null : new StaticBucket(bySlot[slot])));
}

function terminalOf({ index, route, expansion }: Terminal): WalkTerminal {
  return new WalkTerminal(index, route, paramsBuilder(route, expansion));
}

/**
 * One small function per route, its parameter names written out (as find-my-way does): the
 * same assignments, in the same order, as Route.params(), without a megamorphic keyed store.
 * The generated text holds only numbers and JSON string literals; regexes are passed in.
 * (Needs code generation from strings, which Node allows unless started with
 * --disallow-code-generation-from-strings.)
 */
function paramsBuilder(route: Route, expansion: Expansion): ParamsBuilder {
  const regexes: RegExp[] = [];
  const groups = new Map<number, string>();
  const lines = expansion.placements.map((placement, i) => {
    const name = JSON.stringify(route.variables[i]);
    const fallback = JSON.stringify(route.defaultOf(route.variables[i]) ?? '');
    if (placement.kind === 'absent') return `p[${name}] = ${fallback};`;
    const at = placement.segment;
    if (placement.kind === 'segment') return `v = path.slice(S[${at}], E[${at}]); p[${name}] = pct ? dec(v) : v;`;
    if (!groups.has(at)) {
      const spec = expansion.segments[at] as Extract<SegmentSpec, { kind: 'tested' }>;
      groups.set(at, `const g${at} = groupsAt(R[${regexes.push(spec.regex) - 1}], path, S[${at}]);`);
    }
    return `v = g${at}[${JSON.stringify(placement.name)}]; p[${name}] = v === undefined ? ${fallback} : dec(v);`;
  });
  for (const [key, value] of Object.entries(route.defaults)) {
    if (!route.variables.includes(key)) lines.push(`p[${JSON.stringify(key)}] = ${JSON.stringify(value)};`);
  }
  const body = `"use strict";\nreturn function (path, S, E, pct) {\nlet v;\n${[...groups.values()].join('\n')}\nconst p = {};\n${lines.join('\n')}\nreturn p;\n};`;
  return new Function('dec', 'groupsAt', 'R', body)(decodeParameter, groupsAt, regexes) as ParamsBuilder;
}

/** The state of one search, in plain fields: the walk below is the hot path of every request. */
class Walk {
  path = '';
  len = 0;
  accepts: Uint8Array = new Uint8Array(0);
  percent = false;
  slash = false;
  best = NONE;
  result: MatchResult | null = null;
  /** the routes that matched the path but not the method */
  count = 0;
  /** the node whose terminals matched, when only one did; undefined: none; null: several */
  only: WalkNode | null | undefined = undefined;

  constructor(
    /** where each placeholder segment of the current branch starts and ends, by segment depth */
    readonly starts: Int32Array,
    readonly ends: Int32Array,
    readonly matched: Int32Array,
  ) {}
}

class TrieWalk implements TrieSearch {
  readonly #root: WalkNode;
  readonly #routes: readonly Route[];
  readonly #walk: Walk;

  constructor(trie: SegmentTrie, routes: readonly Route[]) {
    this.#root = new WalkNode(trie.root);
    this.#routes = routes;
    this.#walk = new Walk(
      new Int32Array(trie.depth + 1),
      new Int32Array(trie.depth + 1),
      new Int32Array(routes.length),
    );
  }

  search(path: string, accepts: Uint8Array, hasPercent: boolean, encodedSlash: boolean): number {
    const w = this.#walk;
    w.path = path;
    w.len = path.length;
    w.accepts = accepts;
    w.percent = hasPercent;
    w.slash = encodedSlash;
    w.best = NONE;
    w.result = null;
    w.count = 0;
    w.only = undefined;
    if (path.charCodeAt(0) !== 0x2f) return NONE;
    visit(w, this.#root, 0, 0);
    w.path = '';
    return w.best;
  }

  result(): MatchResult {
    return this.#walk.result!;
  }

  allowed(): readonly string[] | null {
    const w = this.#walk;
    if (w.count === 0) return null;
    if (w.only !== null && w.only !== undefined) return w.only.allowed;
    return declaredMethods([...this.matched()].sort((a, b) => a - b).map((i) => this.#routes[i]));
  }

  matched(): Int32Array {
    return this.#walk.matched.subarray(0, this.#walk.count);
  }
}

/**
 * `node` reached with its last segment ending at `end`; `depth`: the segment that starts after it.
 * A child tried last (a static child of a node with nothing else, a lone `any` placeholder) is
 * entered by looping, not by a call: most walks are one loop.
 */
function visit(w: Walk, node: WalkNode, end: number, depth: number): void {
  const len = w.len;
  const path = w.path;
  for (;;) {
    if (end === len) {
      if (node.terminals.length > 0) arrive(w, node);
      return;
    }
    const s = end + 1;
    if (s < len && node.statics !== null) {
      const edge = staticChild(node, path, s, len);
      if (edge !== null && edge.node.minIndex < w.best) {
        if (node.staticsOnly) {
          node = edge.node;
          end = s + edge.length;
          depth += 1;
          continue;
        }
        visit(w, edge.node, s + edge.length, depth + 1);
      }
    }
    if (node.staticsOnly) return;
    let e = path.indexOf('/', s);
    if (e === -1) e = len;
    if (e === s && node.empty !== null && node.empty.minIndex < w.best) visit(w, node.empty, s, depth + 1);
    if (node.loneAny !== null) {
      const child = node.loneAny;
      if (child.minIndex >= w.best || e === s || (w.slash && slashIn(path, s, e))) return;
      w.starts[depth] = s;
      w.ends[depth] = e;
      node = child;
      end = e;
      depth += 1;
      continue;
    }
    if (node.scannedMin < w.best) scan(w, node, s, e, depth);
    for (let i = 0; i < node.rest.length; i++) {
      const edge = node.rest[i];
      if (edge.node.minIndex >= w.best) continue;
      edge.regex.lastIndex = s;
      if (!edge.regex.test(path) || (w.slash && !restFree(edge.anchored, path, s))) continue;
      w.starts[depth] = s;
      w.ends[depth] = len;
      visit(w, edge.node, len, depth + 1);
    }
    return;
  }
}

/** `path` holds `text` from `s` on, its first char already compared; inline, unlike startsWith. */
function sameText(path: string, s: number, text: string): boolean {
  for (let k = 1; k < text.length; k++) if (path.charCodeAt(s + k) !== text.charCodeAt(k)) return false;
  return true;
}

/** The static child named by the segment starting at `s` (s < len), or null. */
function staticChild(node: WalkNode, path: string, s: number, len: number): StaticEdge | null {
  const bucket = node.statics![slotOf(path.charCodeAt(s))];
  if (bucket === null) return null;
  const few = bucket.few;
  if (few !== null) {
    // At most one text can end where the segment does.
    for (let i = 0; i < few.length; i++) {
      const edge = few[i];
      const after = s + edge.length;
      if (after > len || (after < len && path.charCodeAt(after) !== 0x2f)) continue;
      if (sameText(path, s, edge.text)) return edge;
    }
    return null;
  }
  // The first char matched a static text, so it is no slash: the segment is not empty.
  let e = path.indexOf('/', s);
  if (e === -1) e = len;
  const edges = bucket.alike[alikeSlot(e - s, path.charCodeAt(e - 1), bucket.mask)];
  if (edges === null) return null;
  for (let i = 0; i < edges.length; i++) {
    const edge = edges[i];
    if (edge.length === e - s && sameText(path, s, edge.text)) return edge;
  }
  return null;
}

/** The placeholder children: the segment from `s` to the next slash, at `e`. */
function scan(w: Walk, node: WalkNode, s: number, e: number, depth: number): void {
  const path = w.path;
  w.starts[depth] = s;
  w.ends[depth] = e;
  const slash = w.slash && slashIn(path, s, e);
  for (let i = 0; i < node.scanned.length; i++) {
    const edge = node.scanned[i];
    if (edge.node.minIndex >= w.best) continue;
    const regex = edge.regex;
    if (regex === null) {
      if (e === s || slash) continue;
    } else if (slash) {
      if (!edge.groups || !groupsFree(regex, path, s)) continue;
    } else {
      regex.lastIndex = s;
      if (!regex.test(path)) continue;
    }
    visit(w, edge.node, e, depth + 1);
  }
}

function arrive(w: Walk, node: WalkNode): void {
  const terminals = node.terminals;
  for (let i = 0; i < terminals.length; i++) {
    const terminal = terminals[i];
    if (terminal.index >= w.best) break;
    if (w.accepts[terminal.index] === 1) {
      w.best = terminal.index;
      const route = terminal.route;
      w.result = {
        type: 'match',
        route: route.name,
        controller: route.controller,
        params: terminal.params(w.path, w.starts, w.ends, w.percent),
      };
      break;
    }
    w.matched[w.count++] = terminal.index;
  }
  if (w.best === NONE) w.only = w.only === undefined ? node : null;
}

function slashIn(path: string, start: number, end: number): boolean {
  const at = path.indexOf(ENCODED_SLASH, start);
  return at !== -1 && at + 3 <= end;
}

/** The segment matches and none of its placeholders took an encoded slash. */
function groupsFree(regex: RegExp, path: string, start: number): boolean {
  regex.lastIndex = start;
  const m = regex.exec(path);
  if (m === null) return false;
  for (const value of Object.values(m.groups ?? {}))
    if (value !== undefined && value.includes(ENCODED_SLASH)) return false;
  return true;
}

/** The rest of the path from `start` may hold an encoded slash only if its requirement accepts it decoded. */
function restFree(anchored: RegExp, path: string, start: number): boolean {
  const value = path.slice(start);
  return !value.includes(ENCODED_SLASH) || anchored.test(decodeParameter(value));
}

function groupsAt(regex: RegExp, path: string, start: number): Record<string, string | undefined> {
  regex.lastIndex = start;
  return regex.exec(path)?.groups ?? {};
}
