import { DEFAULT_REQUIREMENT, REQUIREMENT_FLAGS } from './requirement.js';
import { escapeRegex } from './route-compiler.js';
import type { Route, RouteVariableToken } from './route.js';

/** How one path segment of a route is matched. */
export type SegmentSpec =
  | { kind: 'static'; text: string }
  /** one whole-segment placeholder with the default requirement: any non-empty segment */
  | { kind: 'any' }
  /** a sticky regex tested at the segment start; `groups` when placeholders share the segment with text */
  | { kind: 'tested'; regex: RegExp; groups: boolean }
  /** a last placeholder that may span segments (`/files/{path<.+>}`): a sticky regex for the rest of the path */
  | { kind: 'rest'; regex: RegExp; token: RouteVariableToken };

/** Where a placeholder's value is, in variable order. */
export type Placement =
  | { kind: 'segment'; segment: number }
  | { kind: 'group'; segment: number; name: string }
  | { kind: 'absent' };

/** One way a route can match: a fixed number of segments. */
export interface Expansion {
  segments: SegmentSpec[];
  placements: Placement[];
}

type Item =
  | { kind: 'separator' }
  | { kind: 'text'; text: string }
  | { kind: 'variable'; token: RouteVariableToken; optional: boolean }
  | { kind: 'rest'; token: RouteVariableToken };

/**
 * A route as whole segments, one expansion per length of its optional tail
 * (`/a/{b?1}` is `/a` or `/a/{b}`), or null when segment-wise matching could differ from the
 * route's regex: a requirement that may consume `/` anywhere but in a last `/{placeholder}`,
 * or an optional placeholder whose separator is not `/`. Such routes are matched with their regex.
 */
export function segmentLayout(route: Route): Expansion[] | null {
  const tokens = route.tokens;
  const f = route.firstOptional;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.kind !== 'variable') continue;
    if (!token.inSegment && !(isRest(tokens, i) && !(i === 0 && f === 0))) return null;
    if (i >= f && token.prefix !== '/') return null;
  }
  const tailStart = f === 0 ? 1 : f;
  const expansions: Expansion[] = [];
  for (let end = tailStart; end <= tokens.length; end++) {
    const items: Item[] = [];
    for (let i = 0; i < end; i++) items.push(...itemsOf(tokens[i], i === 0 && f === 0, isRest(tokens, i)));
    expansions.push(expansionOf(route, items));
  }
  return expansions;
}

/** The last token, a `/{placeholder}` whose requirement may consume `/`: it takes the rest of the path. */
function isRest(tokens: Route['tokens'], i: number): boolean {
  const token = tokens[i];
  return i === tokens.length - 1 && token.kind === 'variable' && token.prefix === '/' && !token.inSegment;
}

function itemsOf(token: Route['tokens'][number], optional: boolean, rest: boolean): Item[] {
  if (rest && token.kind === 'variable') return [{ kind: 'separator' }, { kind: 'rest', token }];
  if (token.kind === 'text') {
    const items: Item[] = [];
    token.text.split('/').forEach((text, i) => {
      if (i > 0) items.push({ kind: 'separator' });
      if (text !== '') items.push({ kind: 'text', text });
    });
    return items;
  }
  const prefix: Item[] =
    token.prefix === '/' ? [{ kind: 'separator' }] : token.prefix === '' ? [] : [{ kind: 'text', text: token.prefix }];
  return [...prefix, { kind: 'variable', token, optional }];
}

function expansionOf(route: Route, items: readonly Item[]): Expansion {
  const groups: Item[][] = [];
  for (const item of items) {
    if (item.kind === 'separator') groups.push([]);
    else groups[groups.length - 1].push(item);
  }
  const placements = new Map<string, Placement>();
  const segments = groups.map((group, segment) => {
    if (group.length === 1 && group[0].kind === 'rest') {
      placements.set(group[0].token.name, { kind: 'segment', segment });
      return {
        kind: 'rest',
        regex: new RegExp(`(?:${group[0].token.requirement})$`, `${REQUIREMENT_FLAGS}y`),
        token: group[0].token,
      } as const;
    }
    const variables = group.filter((item) => item.kind === 'variable');
    if (variables.length === 0)
      return { kind: 'static', text: group.map((item) => (item.kind === 'text' ? item.text : '')).join('') } as const;
    const only = group.length === 1 && group[0].kind === 'variable' && !group[0].optional ? group[0].token : null;
    if (only !== null) {
      placements.set(only.name, { kind: 'segment', segment });
      return only.requirement === DEFAULT_REQUIREMENT
        ? ({ kind: 'any' } as const)
        : ({ kind: 'tested', regex: sticky(only.requirement), groups: false } as const);
    }
    for (const item of variables)
      if (item.kind === 'variable') placements.set(item.token.name, { kind: 'group', segment, name: item.token.name });
    return { kind: 'tested', regex: sticky(group.map(regexOf).join('')), groups: true } as const;
  });
  return { segments, placements: route.variables.map((name) => placements.get(name) ?? { kind: 'absent' }) };
}

function regexOf(item: Item): string {
  if (item.kind === 'text') return escapeRegex(item.text);
  if (item.kind === 'variable') return `(?<${item.token.name}>${item.token.requirement})${item.optional ? '?' : ''}`;
  return '';
}

/** Tested with lastIndex at the segment start; the lookahead pins its end to the segment end. */
function sticky(body: string): RegExp {
  return new RegExp(`(?:${body})(?=/|$)`, `${REQUIREMENT_FLAGS}y`);
}
