import { REDACTED } from './redacted.js';
import { looksSecret } from './secret-names.js';
import { redactShapes } from './secret-shapes.js';
import type { SecretValues } from './secret-values.js';

/** The route and its parameters, as the router matched them (the parameter values decoded). */
export interface MatchedRoute {
  route: string | null;
  params: Readonly<Record<string, string>>;
}

/** Whether a route parameter of this name holds a secret: the profiler's own `{token}` names a profile, it opens nothing. */
export function isSecretRouteParam(route: string | null, name: string): boolean {
  return !route?.startsWith('_profiler') && looksSecret(name);
}

/** The route parameters with the values of the secret ones replaced ("route <name>" in `redacted`). */
export function redactRouteParams(
  matched: MatchedRoute,
  redacted: string[],
  secrets?: SecretValues,
): Record<string, string> {
  const copy: Record<string, string> = Object.create(null);
  for (const name of Object.keys(matched.params)) {
    const value = matched.params[name];
    if (value === '' || !isSecretRouteParam(matched.route, name)) {
      copy[name] = value;
      continue;
    }
    copy[name] = REDACTED;
    redacted.push(`route ${name}`);
    secrets?.add(value);
  }
  return copy;
}

/**
 * The raw path with every segment that holds the value of a secret route parameter ("/reset/{token}")
 * replaced: "/reset/[REDACTED]", and credentials of a known shape replaced.
 */
export function redactPath(path: string, matched: MatchedRoute): string {
  let values: string[] | null = null;
  for (const name of Object.keys(matched.params)) {
    const value = matched.params[name];
    if (value !== '' && isSecretRouteParam(matched.route, name)) (values ??= []).push(value);
  }
  const shaped = redactShapes(path);
  if (values === null) return shaped;
  const pieces = new Set(values.flatMap((value) => value.split('/')).filter(Boolean));
  return shaped
    .split('/')
    .map((segment) => {
      const decoded = decodePathSegment(segment);
      return pieces.has(decoded) || values.some((value) => decoded.includes(value)) ? REDACTED : segment;
    })
    .join('/');
}

function decodePathSegment(segment: string): string {
  try {
    return segment.indexOf('%') === -1 ? segment : decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
