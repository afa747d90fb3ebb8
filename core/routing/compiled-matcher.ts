import type { MatchFailure, Matcher, MatchResult } from './matcher.js';
import { MethodNotAllowedError, ResourceNotFoundError } from '../errors.js';
import { lookupWith } from './match-flow.js';
import { ENCODED_SLASH } from './match-path.js';
import { declaredMethods, type Route } from './route.js';
import type { RouteCollection } from './route-collection.js';
import { segmentLayout } from './segment-layout.js';
import { NONE, SegmentTrie, type TrieNode } from './segment-trie.js';
import { StaticTable } from './static-table.js';
import { walkTrie, type TrieSearch } from './trie-walk.js';

/** The routes as they are now, compiled for fast lookups; answers exactly like LinearMatcher. */
export function compileMatcher(routes: RouteCollection): Matcher {
  return new CompiledMatcher(routes.all());
}

/**
 * Static paths: one Map lookup gives the whole answer. Other paths: a segment trie, plus a
 * regex scan of the few routes the trie cannot hold (see segment-layout.ts); both keep the
 * lowest matching route index, so the first route in definition order wins.
 */
class CompiledMatcher implements Matcher {
  readonly #routes: readonly Route[];
  readonly #statics: StaticTable;
  readonly #trie: TrieSearch;
  readonly #regexRoutes: { index: number; route: Route }[] = [];
  /** method id (0: a method no route declares) -> route index -> 1 when the route allows it */
  readonly #accepts: Uint8Array[];
  readonly #methodIds = new Map<string, number>();
  /** the usual methods' rows, found by comparing the method instead of asking #methodIds */
  readonly #acceptsGet: Uint8Array;
  readonly #acceptsPost: Uint8Array;
  readonly #acceptsPut: Uint8Array;
  readonly #acceptsDelete: Uint8Array;
  readonly #acceptsPatch: Uint8Array;
  /** some route may match a path ending in `/` */
  readonly #slashEnds: boolean;

  constructor(routes: readonly Route[]) {
    this.#routes = [...routes];
    this.#statics = new StaticTable(this.#routes);
    const trie = new SegmentTrie();
    this.#routes.forEach((route, index) => {
      if (route.staticPath !== null) return;
      const expansions = segmentLayout(route);
      if (expansions === null) this.#regexRoutes.push({ index, route });
      else for (const expansion of expansions) trie.insert(index, route, expansion);
    });
    this.#trie = walkTrie(trie, this.#routes);
    this.#slashEnds =
      this.#regexRoutes.length > 0 || this.#routes.some((r) => r.staticPath?.endsWith('/')) || endsWithSlash(trie.root);
    const methods = new Set(['GET', 'HEAD', ...this.#routes.flatMap((r) => r.methods)]);
    this.#accepts = [Uint8Array.from(this.#routes, (r) => (r.methods.length === 0 ? 1 : 0))];
    for (const method of methods) {
      this.#methodIds.set(method, this.#accepts.length);
      this.#accepts.push(Uint8Array.from(this.#routes, (r) => (r.allows(method) ? 1 : 0)));
    }
    this.#acceptsGet = this.#acceptsOf('GET');
    this.#acceptsPost = this.#acceptsOf('POST');
    this.#acceptsPut = this.#acceptsOf('PUT');
    this.#acceptsDelete = this.#acceptsOf('DELETE');
    this.#acceptsPatch = this.#acceptsOf('PATCH');
  }

  match(method: string, path: string): MatchResult {
    const result = this.lookup(method, path);
    if (result.type === 'not-found') throw new ResourceNotFoundError(result.path);
    if (result.type === 'method-not-allowed') throw new MethodNotAllowedError(result.path, result.allowed);
    return result;
  }

  lookup(method: string, path: string): MatchResult | MatchFailure {
    return lookupWith(this.#find, method, path, this.#slashEnds);
  }

  readonly #find = (method: string, matchPath: string, hasPercent: boolean): MatchResult | readonly string[] | null => {
    const accepts =
      method === 'GET'
        ? this.#acceptsGet
        : method === 'POST'
          ? this.#acceptsPost
          : method === 'PUT'
            ? this.#acceptsPut
            : method === 'DELETE'
              ? this.#acceptsDelete
              : method === 'PATCH'
                ? this.#acceptsPatch
                : this.#acceptsOf(method);
    const entry = this.#statics.get(matchPath);
    if (entry === undefined) return this.#findDynamic(accepts, matchPath, hasPercent);
    for (const c of entry.candidates) {
      if (accepts[c.index] === 1)
        return {
          type: 'match',
          route: c.route.name,
          controller: c.route.controller,
          params: c.hasParams ? { ...c.params } : {},
        };
    }
    return entry.allowed;
  };

  /** `method` -> route index -> 1 when the route allows it (row 0 for a method no route declares) */
  #acceptsOf(method: string): Uint8Array {
    return this.#accepts[this.#methodIds.get(method) ?? 0];
  }

  #findDynamic(accepts: Uint8Array, matchPath: string, hasPercent: boolean): MatchResult | readonly string[] | null {
    const best = this.#trie.search(matchPath, accepts, hasPercent, hasPercent && matchPath.includes(ENCODED_SLASH));
    let regexMatched: number[] | null = null;
    for (let i = 0; i < this.#regexRoutes.length && this.#regexRoutes[i].index < best; i++) {
      const { index, route } = this.#regexRoutes[i];
      if (!matchPath.startsWith(route.staticPrefix)) continue;
      const params = route.match(matchPath);
      if (params === null) continue;
      if (accepts[index] === 1) return { type: 'match', route: route.name, controller: route.controller, params };
      (regexMatched ??= []).push(index);
    }
    if (best !== NONE) return this.#trie.result();
    if (regexMatched === null) return this.#trie.allowed();
    return declaredMethods(
      [...this.#trie.matched(), ...regexMatched].sort((a, b) => a - b).map((i) => this.#routes[i]),
    );
  }
}

/**
 * A path ending in `/` ends with an empty segment: only an empty static segment, a tested
 * placeholder or a rest placeholder can take it (an `any` segment is never empty).
 */
function endsWithSlash(node: TrieNode): boolean {
  if (node.tested.length > 0 || node.rest.length > 0 || node.statics.has('')) return true;
  for (const child of node.statics.values()) if (endsWithSlash(child)) return true;
  return node.any !== null && endsWithSlash(node.any);
}
