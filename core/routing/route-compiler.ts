import { RouteDefinitionError } from '../errors.js';
import { toMatchPath } from './match-path.js';
import {
  DEFAULT_REQUIREMENT,
  REQUIREMENT_FLAGS,
  requirementProblem,
  sanitizeRequirement,
  staysInSegment,
} from './requirement.js';
import { Route, type RouteDefinition, type RouteToken } from './route.js';
import { isPlaceholderName, parsePattern, type PatternPiece } from './route-pattern.js';

/** Symfony's separators: one of these just before a placeholder becomes its prefix. */
const SEPARATORS = '/,;.:-_~+*=@|';
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Validates a definition and compiles it; every problem is a RouteDefinitionError naming the route. */
export function compileRoute(name: string, definition: RouteDefinition): Route {
  const fail = (problem: string): never => {
    throw new RouteDefinitionError(name, problem);
  };
  if (typeof definition.path !== 'string') fail('the path must be a string');
  const parsed = parsePattern(definition.path);
  if (typeof parsed === 'string') return fail(parsed);
  const requirements = merge('requirement', parsed.requirements, definition.requirements ?? {}, fail);
  for (const [key, regex] of Object.entries(requirements)) {
    if (!isPlaceholderName(key)) fail(`the requirement key "${key}" is not a valid placeholder name`);
    requirements[key] = sanitizeRequirement(regex);
    if (requirements[key] === '') fail(`the requirement for "{${key}}" is empty`);
    const problem = requirementProblem(requirements[key]);
    if (problem !== null)
      fail(`the requirement for "{${key}}" ("${regex}") is not a valid regular expression: ${problem}`);
  }
  const defaults = merge('default', parsed.defaults, definition.defaults ?? {}, fail);
  const methods: string[] = [];
  for (const method of definition.methods ?? []) {
    if (typeof method !== 'string' || !METHOD.test(method)) fail(`"${String(method)}" is not a valid HTTP method`);
    if (!methods.includes(method.toUpperCase())) methods.push(method.toUpperCase());
  }
  const tokens = tokenize(parsed.pieces, requirements);
  const firstOptional = optionalTailStart(tokens, defaults);
  let regex: RegExp;
  try {
    regex = new RegExp(`^${tokens.map((_, i) => tokenRegex(tokens, i, firstOptional)).join('')}$`, REQUIREMENT_FLAGS);
  } catch (error) {
    return fail(
      `the requirements of "${parsed.path}" do not combine into one regular expression: ${(error as Error).message}`,
    );
  }
  return new Route(
    name,
    { path: parsed.path, methods, requirements, defaults, tokens, firstOptional, regex },
    definition.controller,
  );
}

function merge(
  what: string,
  inline: Record<string, string>,
  given: Record<string, string>,
  fail: (problem: string) => never,
): Record<string, string> {
  const merged: Record<string, string> = { ...inline };
  for (const [key, value] of Object.entries(given)) {
    if (key === '__proto__') fail(`"__proto__" cannot name a ${what}`);
    if (typeof value !== 'string') fail(`the ${what} for "${key}" must be a string`);
    if (Object.hasOwn(inline, key) && inline[key] !== value) {
      fail(`the ${what} for "{${key}}" is given twice: "${inline[key]}" inline and "${value}" in ${what}s`);
    }
    merged[key] = value;
  }
  return merged;
}

function tokenize(pieces: readonly PatternPiece[], requirements: Record<string, string>): RouteToken[] {
  const tokens: RouteToken[] = [];
  let text = '';
  for (const piece of pieces) {
    if (piece.kind === 'text') {
      text = toMatchPath(piece.text);
      continue;
    }
    const last = text.slice(-1);
    const prefix = last !== '' && SEPARATORS.includes(last) ? last : '';
    if (text.length > prefix.length) tokens.push({ kind: 'text', text: text.slice(0, text.length - prefix.length) });
    text = '';
    const requirement = Object.hasOwn(requirements, piece.name) ? requirements[piece.name] : DEFAULT_REQUIREMENT;
    tokens.push({
      kind: 'variable',
      name: piece.name,
      prefix,
      requirement,
      inSegment: staysInSegment(requirement),
      anchored: new RegExp(`^(?:${requirement})$`, REQUIREMENT_FLAGS),
    });
  }
  if (text !== '') tokens.push({ kind: 'text', text });
  return tokens;
}

/** Trailing placeholders with a default are optional (Symfony); the first token of that tail. */
function optionalTailStart(tokens: readonly RouteToken[], defaults: Record<string, string>): number {
  let first = tokens.length;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const token = tokens[i];
    if (token.kind !== 'variable' || !Object.hasOwn(defaults, token.name)) break;
    first = i;
  }
  return first;
}

/**
 * Symfony's nesting: `/a/{b?1}/{c?2}` gives `^/a(?:/(?<b>..)(?:/(?<c>..))?)?$`. When the whole
 * path is optional its first separator stays: `/{page?1}` gives `^/(?<page>..)?$`.
 */
function tokenRegex(tokens: readonly RouteToken[], index: number, firstOptional: number): string {
  const token = tokens[index];
  if (token.kind === 'text') return escapeRegex(token.text);
  const group = `(?<${token.name}>${token.requirement})`;
  if (index === 0 && firstOptional === 0) return `${escapeRegex(token.prefix)}${group}?`;
  let regex = `${escapeRegex(token.prefix)}${group}`;
  if (index >= firstOptional) {
    regex = `(?:${regex}`;
    if (index === tokens.length - 1)
      regex += ')?'.repeat(tokens.length - firstOptional - (firstOptional === 0 ? 1 : 0));
  }
  return regex;
}

export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}
