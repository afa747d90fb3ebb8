import { decodeParameter, ENCODED_SLASH } from './match-path.js';
import type { MatchResult } from './matcher.js';
import { declaredMethods, type Route } from './route.js';
import type { SegmentSpec } from './segment-layout.js';
import { NONE, type SegmentTrie, type Terminal, type TrieNode } from './segment-trie.js';

/** A trie compiled to JavaScript: one search at a time, its state kept between calls. */
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
 * Past this many characters, a node's biggest subtrees move into functions of their own: V8
 * does not optimise very large functions (on the GitHub table 2000 to 6000 are equally fast).
 */
const SPLIT_AT = 4000;

/** Static texts up to this length are compared char by char inline; longer ones by `same`. */
const INLINE_COMPARE = 3;

/**
 * Turns the trie into straight-line code, faster than walking it: static children
 * are picked by a switch on their first char and compared by char codes (no slicing, no
 * hashing; see `equals`), a placeholder segment's end is found with indexOf, and a subtree is entered only
 * if it holds a route index lower than the best so far. The winner's parameters are built as
 * an object literal per route. The generated text holds only numbers and JSON string
 * literals; regexes are passed in, never written out. (Needs code generation from strings,
 * which Node allows unless started with --disallow-code-generation-from-strings.)
 */
export function compileTrieSearch(trie: SegmentTrie, routes: readonly Route[]): TrieSearch {
  const writer = new Writer();
  const root = writer.node(trie.root, 0, '0');
  const source = `"use strict";
let res = null, acc = null, pct = false, enc = false, mc = 0, mn = -1;
function same(path, at, from, to) {
  for (let i = from; i < to; i++, at++) if (path.charCodeAt(at) !== T[i]) return false;
  return true;
}
function val(path, start, end) {
  const value = path.slice(start, end);
  return pct ? dec(value) : value;
}
${writer.functions.join('\n')}
return {
  search(path, accepts, hasPercent, encodedSlash) {
    let best = NONE;
    res = null; acc = accepts; pct = hasPercent; enc = encodedSlash; mc = 0; mn = -1;
    if (path.charCodeAt(0) !== 47) return NONE;
    const len = path.length;
    ${root}
    return best;
  },
  result() { return res; },
  allowed() { return mc === 0 ? null : mn >= 0 ? A[mn] : allowedOf(M.subarray(0, mc)); },
  matched() { return M.subarray(0, mc); },
};`;
  const depth = trie.depth + 1;
  const create = new Function('NONE', 'R', 'M', 'A', 'CS', 'CE', 'T', 'slashIn', 'groupsFree', 'groupsAt', 'restFree', 'dec', 'allowedOf', source);
  const positions = () => new Int32Array(depth);
  const allowedOf = (indices: Int32Array) => declaredMethods([...indices].sort((a, b) => a - b).map((i) => routes[i]));

  return create(
    NONE, writer.regexes, new Int32Array(routes.length), writer.allowed, positions(), positions(), Uint16Array.from(writer.texts),
    slashIn, groupsFree, groupsAt, restFree, decodeParameter, allowedOf,
  ) as TrieSearch;
}

class Writer {
  readonly functions: string[] = [];
  /** per node with routes: their declared methods, the 405's allowed list when only that node matched */
  readonly allowed: (readonly string[])[] = [];
  readonly regexes: RegExp[] = [];
  /** the char codes of the static segments' texts, compared by `same` */
  readonly texts: number[] = [];

  /** Code run when `node` is reached with its last segment ending at `end` (a variable, or 0 at the root). */
  node(node: TrieNode, depth: number, end: string): string {
    let arrive = node.terminals.map((t) => this.terminal(t)).join('\n');
    if (arrive !== '') {
      const id = this.allowed.push(Object.freeze(declaredMethods(node.terminals.map((t) => t.route)))) - 1;
      arrive += `\nif (best === NONE) mn = mn === -1 ? ${id} : -2;`;
    }
    const next = this.children(node, depth, end);
    if (next === '') return `if (${end} === len) {\n${arrive}\n}`;
    if (arrive === '') return `if (${end} !== len) {\n${next}\n}`;
    return `if (${end} === len) {\n${arrive}\n} else {\n${next}\n}`;
  }

  private children(node: TrieNode, depth: number, end: string): string {
    const s = `s${depth}`;
    const e = `e${depth}`;
    const mark = `CS[${depth}] = ${s}; CE[${depth}] = ${e};`;
    const slots: Slot[] = [];
    const enter = (child: TrieNode) => {
      const slot = { minIndex: child.minIndex, code: this.node(child, depth + 1, e), end: e };
      slots.push(slot);
      return slot;
    };
    const statics = [...node.statics].map(([text, child]) => ({ text, slot: enter(child) }));
    const any = node.any === null ? null : enter(node.any);
    const tested = node.tested.map((edge) => ({ edge, slot: enter(edge.node) }));
    const rests = node.rest.map((edge) => ({ edge, slot: enter(edge.node) }));
    this.fit(slots);

    const parts: string[] = [];
    const byFirst = new Map<number, string[]>();
    for (const { text, slot } of statics) {
      const after = `${s} + ${text.length}`;
      // A static segment holds no placeholder: its position is not kept.
      const branch = `if ((${after} === len || path.charCodeAt(${after}) === 47) && ${this.equals(text, s)}) {\nconst ${e} = ${after};\n${guarded(slot)}\n}`;
      if (text === '') parts.push(branch);
      else byFirst.set(text.charCodeAt(0), [...(byFirst.get(text.charCodeAt(0)) ?? []), branch]);
    }
    if (byFirst.size > 0) {
      const cases = [...byFirst].map(([first, branches]) => `case ${first}:\n${branches.join(' else ')}\nbreak;`);
      parts.push(`switch (path.charCodeAt(${s})) {\n${cases.join('\n')}\n}`);
    }
    const scanned: string[] = [];
    if (any !== null) scanned.push(`if (${e} > ${s} && (!enc || !slashIn(path, ${s}, ${e}))) {\n${guarded(any)}\n}`);
    for (const { edge, slot } of tested) {
      const r = `R[${this.regexes.push(edge.regex) - 1}]`;
      const test = `enc && slashIn(path, ${s}, ${e}) ? ${edge.groups ? `groupsFree(${r}, path, ${s})` : 'false'} : (${r}.lastIndex = ${s}, ${r}.test(path))`;
      scanned.push(`if (${test}) {\n${guarded(slot)}\n}`);
    }
    if (scanned.length > 0) {
      const lowest = Math.min(any?.minIndex ?? NONE, ...tested.map(({ slot }) => slot.minIndex));
      parts.push(`if (${lowest} < best) {\nlet ${e} = path.indexOf('/', ${s});\nif (${e} === -1) ${e} = len;\n${mark}\n${scanned.join('\n')}\n}`);
    }
    for (const { edge, slot } of rests) {
      const r = `R[${this.regexes.push(edge.regex) - 1}]`;
      const anchored = `R[${this.regexes.push(edge.anchored) - 1}]`;
      const test = `(${r}.lastIndex = ${s}, ${r}.test(path)) && (!enc || restFree(${anchored}, path, ${s}))`;
      parts.push(`if (${slot.minIndex} < best && ${test}) {\nconst ${e} = len; ${mark}\n${slot.code}\n}`);
    }
    if (parts.length === 0) return '';
    return `const ${s} = ${end} + 1;\n${parts.join('\n')}`;
  }

  /**
   * A condition: the path at `s` continues with `text` (its first char already checked by a
   * switch). Longer texts are compared by one shared loop over their char codes: unrolled, every
   * char would cost machine code, and on a big table the instruction cache misses cost more than
   * the loop.
   */
  private equals(text: string, s: string): string {
    if (text.length <= 1) return 'true';
    if (text.length <= INLINE_COMPARE) {
      return Array.from({ length: text.length - 1 }, (_, i) => `path.charCodeAt(${s} + ${i + 1}) === ${text.charCodeAt(i + 1)}`).join(' && ');
    }
    const from = this.texts.length;
    for (let i = 1; i < text.length; i++) this.texts.push(text.charCodeAt(i));
    return `same(path, ${s} + 1, ${from}, ${this.texts.length})`;
  }

  /** Moves the biggest subtrees into functions of their own until the rest fits in SPLIT_AT. */
  private fit(slots: Slot[]): void {
    let size = slots.reduce((sum, slot) => sum + slot.code.length, 0);
    for (const slot of [...slots].sort((a, b) => b.code.length - a.code.length)) {
      if (size <= SPLIT_AT) return;
      const name = `n${this.functions.length}`;
      this.functions.push(`function ${name}(path, len, ${slot.end}, best) {\n${slot.code}\nreturn best;\n}`);
      const call = `best = ${name}(path, len, ${slot.end}, best);`;
      size -= slot.code.length - call.length;
      slot.code = call;
    }
  }

  /** A route ending at this node: the new best, as a result with its parameters, if it allows the method. */
  private terminal({ index, route, expansion }: Terminal): string {
    const groups = new Map<number, string>();
    const fields = expansion.placements.map((placement, i) => {
      const name = JSON.stringify(route.variables[i]);
      const fallback = JSON.stringify(route.defaultOf(route.variables[i]) ?? '');
      if (placement.kind === 'absent') return `${name}: ${fallback}`;
      const at = placement.segment;
      if (placement.kind === 'segment') return `${name}: val(path, CS[${at}], CE[${at}])`;
      const spec = expansion.segments[at] as Extract<SegmentSpec, { kind: 'tested' }>;
      if (!groups.has(at)) groups.set(at, `const g${at} = groupsAt(R[${this.regexes.push(spec.regex) - 1}], path, CS[${at}]);`);
      const group = `g${at}[${JSON.stringify(placement.name)}]`;
      return `${name}: ${group} === undefined ? ${fallback} : pct ? dec(${group}) : ${group}`;
    });
    for (const [key, value] of Object.entries(route.defaults)) {
      if (!route.variables.includes(key)) fields.push(`${JSON.stringify(key)}: ${JSON.stringify(value)}`);
    }
    const result = `type: "match", route: ${JSON.stringify(route.name)}, controller: ${JSON.stringify(route.controller)}`;
    const win = `best = ${index}; ${[...groups.values()].join(' ')} res = { ${result}, params: { ${fields.join(', ')} } };`;
    return `if (${index} < best) { if (acc[${index}] === 1) { ${win} } else M[mc++] = ${index}; }`;
  }
}

interface Slot { minIndex: number; code: string; end: string }

/** A child's code, entered only if its subtree can beat the best route so far. */
function guarded(slot: Slot): string {
  return `if (${slot.minIndex} < best) {\n${slot.code}\n}`;
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
  for (const value of Object.values(m.groups ?? {})) if (value !== undefined && value.includes(ENCODED_SLASH)) return false;
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
