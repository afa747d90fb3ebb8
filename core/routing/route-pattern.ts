/** A path pattern split into literal text and placeholders, inline requirements and defaults lifted out. */
export interface ParsedPattern {
  /** the pattern without inline requirements and defaults: `/posts/{id}` */
  path: string;
  pieces: readonly PatternPiece[];
  requirements: Record<string, string>;
  defaults: Record<string, string>;
}

export type PatternPiece = { kind: 'text'; text: string } | { kind: 'variable'; name: string };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** An identifier; `__proto__` is refused, as it cannot be a plain object's key. */
export function isPlaceholderName(name: string): boolean {
  return NAME.test(name) && name !== '__proto__';
}

/**
 * Parses `{name}`, `{name<regex>}`, `{name?default}` and `{name<regex>?default}`. An inline
 * regex ends at the first `>` followed by `}` or `?` (as in Symfony), so `{id<\d{4}>}` works.
 * Returns the problem as a sentence when the pattern is malformed.
 */
export function parsePattern(pattern: string): ParsedPattern | string {
  if (!pattern.startsWith('/')) return `the path must start with "/" ("${pattern}" given)`;
  const pieces: PatternPiece[] = [];
  const requirements: Record<string, string> = {};
  const defaults: Record<string, string> = {};
  const seen = new Set<string>();
  let path = '';
  let text = '';
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '}') return `unbalanced braces in "${pattern}": the "}" at offset ${i} has no opening "{"`;
    if (c !== '{') {
      text += c;
      i += 1;
      continue;
    }
    const placeholder = readPlaceholder(pattern, i);
    if (typeof placeholder === 'string') return placeholder;
    const { name, requirement, defaultValue, end } = placeholder;
    if (name === '') return `a placeholder in "${pattern}" has an empty name (offset ${i})`;
    if (!isPlaceholderName(name)) {
      return `"{${name}}" in "${pattern}" is not a valid placeholder name (letters, digits and "_", not starting with a digit)`;
    }
    if (seen.has(name)) return `the placeholder "{${name}}" appears more than once in "${pattern}"`;
    seen.add(name);
    if (text !== '') pieces.push({ kind: 'text', text });
    pieces.push({ kind: 'variable', name });
    if (requirement !== undefined) requirements[name] = requirement;
    if (defaultValue !== undefined) defaults[name] = defaultValue;
    path += `${text}{${name}}`;
    text = '';
    i = end;
  }
  if (text !== '') pieces.push({ kind: 'text', text });
  return { path: path + text, pieces, requirements, defaults };
}

interface Placeholder {
  name: string;
  requirement?: string;
  defaultValue?: string;
  end: number;
}

function readPlaceholder(pattern: string, open: number): Placeholder | string {
  const unclosed = `unbalanced braces in "${pattern}": the "{" at offset ${open} is never closed`;
  let j = open + 1;
  while (j < pattern.length && !'<?}{'.includes(pattern[j])) j += 1;
  const name = pattern.slice(open + 1, j);
  if (j >= pattern.length || pattern[j] === '{') return unclosed;
  let requirement: string | undefined;
  if (pattern[j] === '<') {
    const close = requirementEnd(pattern, j);
    if (close < 0) {
      return pattern.indexOf('}', j) < 0
        ? unclosed
        : `the inline requirement of "{${name}}" in "${pattern}" is not closed by ">"`;
    }
    requirement = pattern.slice(j + 1, close);
    j = close + 1;
  }
  let defaultValue: string | undefined;
  if (pattern[j] === '?') {
    const close = pattern.indexOf('}', j);
    if (close < 0) return unclosed;
    defaultValue = pattern.slice(j + 1, close);
    if (defaultValue.includes('{')) return unclosed;
    j = close;
  }
  if (pattern[j] !== '}') return unclosed;
  return { name, requirement, defaultValue, end: j + 1 };
}

/** The `>` that closes the inline requirement opened at `open`: the first one followed by `}` or by `?...}`. */
function requirementEnd(pattern: string, open: number): number {
  for (let k = pattern.indexOf('>', open + 1); k >= 0; k = pattern.indexOf('>', k + 1)) {
    const next = pattern[k + 1];
    if (next === '}') return k;
    if (next === '?' && pattern.indexOf('}', k + 2) >= 0) return k;
  }
  return -1;
}
