/**
 * `params` are fully percent-decoded and include the route's defaults. A redirect is the
 * GET/HEAD trailing-slash case: `path` is the slash-toggled path, as sent, to answer with a 301.
 */
export type MatchResult =
  | { type: 'match'; route: string; controller: string; params: Record<string, string> }
  | { type: 'redirect'; route: string; controller: string; path: string; params: Record<string, string> };

/** Why no route answers; the data of the errors match() throws. */
export type MatchFailure =
  | { type: 'not-found'; path: string }
  | { type: 'method-not-allowed'; path: string; allowed: readonly string[] };

/** Finds the route for a request; every implementation answers exactly like LinearMatcher. */
export interface Matcher {
  /**
   * `path` is the request path as sent (percent-encoding kept, no query string); `method` is
   * compared upper-cased. The first route in definition order that matches path and method wins.
   *
   * @throws MethodNotAllowedError when routes match the path but none allows the method;
   *   `allowed` lists their declared methods, in route order, without duplicates.
   * @throws ResourceNotFoundError when no route matches the path. For GET and HEAD its `path` is
   *   the slash-toggled retry path (`/robots.txt` fails as `/robots.txt/`), for other methods the
   *   path unchanged. A retry that only meets a method mismatch is still a not-found.
   */
  match(method: string, path: string): MatchResult;
  /** The same decision as match(), with the failure returned instead of thrown. Never throws. */
  lookup(method: string, path: string): MatchResult | MatchFailure;
}
