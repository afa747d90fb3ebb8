import type { Route } from './route.js';
import type { Expansion, SegmentSpec } from './segment-layout.js';

/** No route found: larger than any route index. */
export const NONE = 0x3fffffff;

export interface Terminal {
  index: number;
  route: Route;
  expansion: Expansion;
}
export interface TestedEdge {
  regex: RegExp;
  groups: boolean;
  node: TrieNode;
}
export interface RestEdge {
  regex: RegExp;
  anchored: RegExp;
  node: TrieNode;
}

/** A node after some segments; its children are keyed by how the next segment is matched. */
export class TrieNode {
  readonly statics = new Map<string, TrieNode>();
  any: TrieNode | null = null;
  readonly tested: TestedEdge[] = [];
  readonly rest: RestEdge[] = [];
  /** routes whose expansion ends here, by route index */
  readonly terminals: Terminal[] = [];
  /** the lowest route index in this subtree, to skip subtrees that cannot beat the best so far */
  minIndex = NONE;
}

/** The route expansions laid out segment by segment (see segment-layout.ts). */
export class SegmentTrie {
  readonly root = new TrieNode();
  /** the most segments of any expansion */
  depth = 0;

  insert(index: number, route: Route, expansion: Expansion): void {
    let node = this.root;
    node.minIndex = Math.min(node.minIndex, index);
    for (const spec of expansion.segments) {
      node = child(node, spec);
      node.minIndex = Math.min(node.minIndex, index);
    }
    node.terminals.push({ index, route, expansion });
    node.terminals.sort((a, b) => a.index - b.index);
    this.depth = Math.max(this.depth, expansion.segments.length);
  }
}

function child(node: TrieNode, spec: SegmentSpec): TrieNode {
  if (spec.kind === 'static') {
    let next = node.statics.get(spec.text);
    if (next === undefined) node.statics.set(spec.text, (next = new TrieNode()));
    return next;
  }
  if (spec.kind === 'any') return (node.any ??= new TrieNode());
  if (spec.kind === 'rest') {
    let rest = node.rest.find((e) => e.regex.source === spec.regex.source);
    if (rest === undefined)
      node.rest.push((rest = { regex: spec.regex, anchored: spec.token.anchored, node: new TrieNode() }));
    return rest.node;
  }
  let edge = node.tested.find((e) => e.regex.source === spec.regex.source);
  if (edge === undefined) node.tested.push((edge = { regex: spec.regex, groups: spec.groups, node: new TrieNode() }));
  return edge.node;
}
