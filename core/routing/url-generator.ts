import { InvalidParameterError, MissingParametersError, RouteNotFoundError } from '../errors.js';
import type { RouteCollection } from './route-collection.js';

export type UrlParameters = Record<string, string | number | undefined>;

export interface GenerateOptions {
  /** prefix the base URL given to the constructor */
  absolute?: boolean;
}

/** Characters a path segment may hold as they are (RFC 3986 pchar), besides `/`. */
const PATH_SAFE = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/gu;
/** The same for route texts, which are in match-path form: a `%` there already starts an escape. */
const TEXT_SAFE = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu;

/** Builds URLs from route names, the reverse of matching: generate() then match() gives the parameters back. */
export class UrlGenerator {
  readonly #baseUrl: string;

  /** `baseUrl`: scheme, host and port for absolute URLs, e.g. `http://127.0.0.1:8000` */
  constructor(
    private readonly routes: RouteCollection,
    baseUrl = '',
  ) {
    this.#baseUrl = baseUrl.replace(/\/+$/, '');
  }

  /**
   * Fills the placeholders (percent-encoded; a `/` stays when the requirement accepts it),
   * leaves out trailing optional placeholders whose value is their default, and appends the
   * other parameters as the query string.
   *
   * @throws RouteNotFoundError for an unknown route name
   * @throws MissingParametersError when placeholders without default are not given
   * @throws InvalidParameterError when a value does not satisfy its requirement
   */
  generate(name: string, params: UrlParameters = {}, options: GenerateOptions = {}): string {
    const route = this.routes.get(name);
    if (route === undefined) throw new RouteNotFoundError(name);
    const given = new Map<string, string>();
    for (const [key, value] of Object.entries(params)) if (value !== undefined) given.set(key, String(value));
    const value = (key: string) => given.get(key) ?? route.defaultOf(key);
    const missing = route.variables.filter((v) => value(v) === undefined);
    if (missing.length > 0) throw new MissingParametersError(name, missing);

    let path = '';
    let optional = true;
    for (let i = route.tokens.length - 1; i >= 0; i--) {
      const token = route.tokens[i];
      if (token.kind === 'text') {
        path = encode(token.text, TEXT_SAFE) + path;
        optional = false;
        continue;
      }
      const v = value(token.name)!;
      if (optional && i >= route.firstOptional && v === route.defaultOf(token.name)) continue;
      if (!token.anchored.test(v)) throw new InvalidParameterError(name, token.name, token.requirement, v);
      path = token.prefix + encode(v, PATH_SAFE) + path;
      optional = false;
    }
    path = escapeDotSegments(path === '' ? '/' : path);

    const query = [...given]
      .filter(([key, v]) => !route.variables.includes(key) && v !== route.defaultOf(key))
      .map(([key, v]) => `${encode(key, QUERY_SAFE)}=${encode(v, QUERY_SAFE)}`);
    const url = query.length > 0 ? `${path}?${query.join('&')}` : path;
    if (!options.absolute) return url;
    if (this.#baseUrl === '')
      throw new TypeError(`Cannot generate an absolute URL for route "${name}": the UrlGenerator has no base URL.`);
    return this.#baseUrl + url;
  }
}

const QUERY_SAFE = /[^A-Za-z0-9\-._~]/gu;

/** Percent-encodes (UTF-8) every char `unsafe` matches; a lone surrogate becomes U+FFFD. */
function encode(text: string, unsafe: RegExp): string {
  return text.replace(unsafe, (ch) => {
    const wellFormed = ch.length === 1 && ch >= '\ud800' && ch <= '\udfff' ? '\ufffd' : ch;
    return encodeURIComponent(wellFormed).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  });
}

/** `.` and `..` segments would be resolved away by clients (as Symfony notes): encode them. */
function escapeDotSegments(path: string): string {
  return path
    .split('/')
    .map((segment) => (segment === '.' ? '%2E' : segment === '..' ? '%2E%2E' : segment))
    .join('/');
}
