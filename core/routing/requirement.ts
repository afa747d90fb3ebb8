/** Requirements are compiled as Symfony compiles them (`s`): a `.` matches any character, a decoded `%0A` too. */
export const REQUIREMENT_FLAGS = 's';

/** The requirement of a placeholder that has none: one path segment. */
export const DEFAULT_REQUIREMENT = '[^/]+';

/** Symfony's normalisation: a leading `^` and a trailing unescaped `$` are implied, so dropped. */
export function sanitizeRequirement(requirement: string): string {
  let regex = requirement;
  if (regex.startsWith('^')) regex = regex.slice(1);
  if (regex.endsWith('$') && !regex.endsWith('\\$')) regex = regex.slice(0, -1);
  return regex;
}

/** Why `requirement` cannot be used as a placeholder's regular expression, or null. */
export function requirementProblem(requirement: string): string | null {
  try {
    new RegExp(requirement);
    new RegExp(`^(?:${requirement})$`);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * True when the requirement can never consume a `/` (so a parameter using it stays within one
 * segment). Conservative: anything it cannot prove (`.`, `\D`, `\S`, `\W`, back-references,
 * escapes it does not know) counts as "may cross segments".
 */
export function staysInSegment(requirement: string): boolean {
  const n = requirement.length;
  let i = 0;
  while (i < n) {
    const c = requirement[i];
    if (c === '.' || c === '/') return false;
    if (c === '\\') {
      const code = escapeCode(requirement, i);
      if (code === null || code === 0x2f) return false;
      i += escapeLength(requirement, i);
      continue;
    }
    if (c === '[') {
      const end = classEnd(requirement, i);
      if (end < 0 || !classExcludesSlash(requirement.slice(i + 1, end))) return false;
      i = end + 1;
      continue;
    }
    i += 1;
  }
  return true;
}

/** The char code an escape stands for; -1 for a class or an assertion that cannot match `/`; null when unknown. */
function escapeCode(text: string, at: number): number | null {
  const e = text[at + 1];
  if (e === undefined) return null;
  if ('dswbBntrfv0'.includes(e)) return -1;
  if (e === 'x')
    return /^[0-9a-fA-F]{2}$/.test(text.slice(at + 2, at + 4)) ? parseInt(text.slice(at + 2, at + 4), 16) : null;
  if (e === 'u')
    return /^[0-9a-fA-F]{4}$/.test(text.slice(at + 2, at + 6)) ? parseInt(text.slice(at + 2, at + 6), 16) : null;
  if (/[A-Za-z0-9]/.test(e)) return null;
  return e.charCodeAt(0);
}

function escapeLength(text: string, at: number): number {
  const e = text[at + 1];
  return e === 'x' ? 4 : e === 'u' ? 6 : 2;
}

/** The index of the `]` closing the class opened at `open` (JavaScript syntax: `[]` is empty). */
function classEnd(text: string, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === ']') return i;
  }
  return -1;
}

function classExcludesSlash(body: string): boolean {
  const negated = body.startsWith('^');
  const items = negated ? body.slice(1) : body;
  let containsSlash = false;
  let unknown = false;
  let i = 0;
  while (i < items.length) {
    const [low, next] = classAtom(items, i);
    let high = low;
    let after = next;
    if (items[next] === '-' && next + 1 < items.length) {
      [high, after] = classAtom(items, next + 1);
    }
    if (low === null || high === null) unknown = true;
    else if (low === -1 || high === -1) unknown ||= after !== next;
    else if (low <= 0x2f && 0x2f <= high) containsSlash = true;
    i = after;
  }
  return negated ? containsSlash : !containsSlash && !unknown;
}

/** One class member: its char code (-1 for a class escape like `\d`, null when unknown) and the index after it. */
function classAtom(text: string, at: number): [number | null, number] {
  if (text[at] !== '\\') return [text.charCodeAt(at), at + 1];
  const e = text[at + 1];
  if (e === 'b') return [0x08, at + 2];
  if (e === 'd' || e === 's' || e === 'w') return [-1, at + 2];
  return [escapeCode(text, at), at + escapeLength(text, at)];
}
