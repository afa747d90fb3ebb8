import { decodeParameter, ENCODED_SLASH } from './match-path.js';

/** What an app writes to declare a route. Inline `{id<\d+>}` and `{page?1}` are allowed in `path`. */
export interface RouteDefinition {
  path: string;
  /** allowed methods; none or empty means any. GET allows HEAD too. */
  methods?: readonly string[];
  requirements?: Record<string, string>;
  defaults?: Record<string, string>;
  controller: string;
}

/** A piece of a compiled path; texts are in match-path form (see match-path.ts). */
export type RouteToken =
  | { kind: 'text'; text: string }
  | {
      kind: 'variable';
      name: string;
      /** the separator just before the placeholder (`/`, `.`, ...), optional along with it, or '' */
      prefix: string;
      requirement: string;
      /** the requirement can never consume a `/` */
      inSegment: boolean;
      /** `^(?:requirement)$` */
      anchored: RegExp;
    };

export type RouteVariableToken = Extract<RouteToken, { kind: 'variable' }>;

export interface CompiledRoute {
  path: string;
  methods: string[];
  requirements: Record<string, string>;
  defaults: Record<string, string>;
  tokens: RouteToken[];
  firstOptional: number;
  regex: RegExp;
}

/** A route, validated and compiled; built by RouteCollection.add(). */
export class Route {
  /** placeholder names in path order */
  readonly variables: readonly string[];
  /** the whole path in match-path form when the route has no placeholder, else null */
  readonly staticPath: string | null;
  /** the text before the first placeholder, in match-path form */
  readonly staticPrefix: string;
  readonly path: string;
  readonly methods: readonly string[];
  readonly requirements: Readonly<Record<string, string>>;
  readonly defaults: Readonly<Record<string, string>>;
  readonly tokens: readonly RouteToken[];
  /** index of the first token of the optional tail; tokens.length when there is none */
  readonly firstOptional: number;
  /** matches a whole match path; one named group per placeholder */
  readonly regex: RegExp;
  readonly #extraDefaults: readonly [string, string][];

  constructor(
    readonly name: string,
    compiled: CompiledRoute,
    readonly controller: string,
  ) {
    this.path = compiled.path;
    this.methods = compiled.methods;
    this.requirements = compiled.requirements;
    this.defaults = compiled.defaults;
    this.tokens = compiled.tokens;
    this.firstOptional = compiled.firstOptional;
    this.regex = compiled.regex;
    const variables = this.tokens.filter((t): t is RouteVariableToken => t.kind === 'variable');
    this.variables = variables.map((t) => t.name);
    const firstVariable = this.tokens.findIndex((t) => t.kind === 'variable');
    const texts = (end: number) =>
      this.tokens
        .slice(0, end)
        .map((t) => (t.kind === 'text' ? t.text : ''))
        .join('');
    this.staticPath = firstVariable < 0 ? texts(this.tokens.length) : null;
    this.staticPrefix = texts(firstVariable < 0 ? this.tokens.length : firstVariable);
    this.#extraDefaults = Object.entries(this.defaults).filter(([key]) => !this.variables.includes(key));
  }

  /** The default of `key`, if the route has one (own keys only: `constructor` is no default). */
  defaultOf(key: string): string | undefined {
    return Object.hasOwn(this.defaults, key) ? this.defaults[key] : undefined;
  }

  /** GET allows HEAD; no methods allows any. `method` is upper-case. */
  allows(method: string): boolean {
    return (
      this.methods.length === 0 || this.methods.includes(method) || (method === 'HEAD' && this.methods.includes('GET'))
    );
  }

  /** The parameters when the route's path matches `matchPath` (match-path form), else null. */
  match(matchPath: string): Record<string, string> | null {
    const m = this.regex.exec(matchPath);
    if (m === null) return null;
    const values: (string | undefined)[] = [];
    for (const token of this.tokens) {
      if (token.kind !== 'variable') continue;
      const value = m.groups![token.name];
      if (value !== undefined && !this.acceptsEncodedSlash(token, value)) return null;
      values.push(value);
    }
    return this.params(values);
  }

  /**
   * A value holding an encoded slash still has to satisfy its requirement once decoded, so
   * `%2F` never fills a one-segment placeholder but may fill `{path<.+>}`.
   */
  acceptsEncodedSlash(token: RouteVariableToken, value: string): boolean {
    return value.indexOf(ENCODED_SLASH) === -1 || (!token.inSegment && token.anchored.test(decodeParameter(value)));
  }

  /** Parameters from the captured values (match-path form, undefined when absent), in variable order, then extra defaults. */
  params(values: readonly (string | undefined)[]): Record<string, string> {
    const params: Record<string, string> = {};
    for (let i = 0; i < values.length; i++) {
      const name = this.variables[i];
      const value = values[i];
      params[name] = value === undefined ? (this.defaultOf(name) ?? '') : decodeParameter(value);
    }
    for (const [key, value] of this.#extraDefaults) params[key] = value;
    return params;
  }
}

/** The declared methods of `routes`, in their order, without duplicates: a 405's allowed list. */
export function declaredMethods(routes: readonly Route[]): string[] {
  const methods: string[] = [];
  for (const route of routes) for (const method of route.methods) if (!methods.includes(method)) methods.push(method);
  return methods;
}
