import { REDACTED } from './redacted.js';
import { credentialRanges } from './secret-formats.js';
import { memoizeText } from './text-memo.js';

/**
 * Cheap test first: a text without any of these marks holds no secret shape, and most stored values
 * (paths, content types, log messages) have none, so the shape patterns below rarely run.
 */
const MARKS =
  /bearer|basic|token|eyJ|[sprk]k_|sk-|whsec_|gh[pousr]_|github_pat_|xox[abposr]-|AKIA|ASIA|AIza|npm_|glpat-|:\/\/[^\s/@]*:[^\s/@]*@|PRIVATE KEY/i;

/**
 * Credentials recognised by their form whatever name they travel under. Each keeps its label and
 * loses the secret part: "Bearer [REDACTED]", "sk_live_[REDACTED]", a whole JWT becomes "[REDACTED]".
 */
const SHAPES: readonly [RegExp, string][] = [
  // a PEM private key, to its END line, or to the end of a text that cut it (a span name, a shortened message)
  [
    /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    REDACTED,
  ],
  [/\b(Bearer)(\s+)[A-Za-z0-9\-._~+/]+=*/gi, `$1$2${REDACTED}`],
  // "Token <credential>" (GitHub's and Django REST's scheme), not "token expired": only a value of 12 characters or more
  [/\b(Token)(\s+)(?=[A-Za-z0-9\-._~+/]*\d)[A-Za-z0-9\-._~+/]{12,}=*/g, `$1$2${REDACTED}`],
  // the password of a URL of any scheme (postgres://, redis://, amqp://, https://): "scheme://user:[REDACTED]@host"
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@?#]*:)[^\s/@?#]+@/gi, `$1${REDACTED}@`],
  [/\beyJ[A-Za-z0-9_-]{4,}\.ey[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, REDACTED],
  [
    /\b((?:sk|rk|pk)_(?:live|test)_|whsec_|gh[pousr]_|github_pat_|xox[abposr]-|npm_|glpat-)[A-Za-z0-9_-]{8,}/g,
    `$1${REDACTED}`,
  ],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, REDACTED],
  // OpenAI project, service-account and admin keys whatever their middle (the preset's rule wants "T3BlbkFJ" in it)
  [/\b(sk-(?:proj|svcacct|admin|None)-)[A-Za-z0-9_-]{20,}/g, `$1${REDACTED}`],
];

/** "Basic <base64 of user:password>": only when the base64 decodes to something with a colon, so that "Basic usage" stays. */
const BASIC = /\b(Basic)(\s+)([A-Za-z0-9+/]{4,}={0,2})/gi;

/** `text` with every credential of a known shape replaced; the same string when it holds none. */
export function redactShapes(text: string): string {
  return text.length < 8 ? text : shapesMemo(text);
}

const shapesMemo = memoizeText(replaceShapes);

function replaceShapes(text: string): string {
  let clean = text;
  if (MARKS.test(text)) {
    for (const [pattern, replacement] of SHAPES) clean = clean.replace(pattern, replacement);
    clean = clean.replace(BASIC, (whole, scheme: string, space: string, encoded: string) =>
      Buffer.from(encoded, 'base64').toString('latin1').includes(':') ? `${scheme}${space}${REDACTED}` : whole,
    );
  }
  // then the maintained rule set (secret-formats.ts), on what is left
  const ranges = credentialRanges(clean);
  for (let i = ranges.length - 1; i >= 0; i--) {
    const [start, end] = ranges[i];
    if (!clean.slice(start, end).includes(REDACTED)) clean = clean.slice(0, start) + REDACTED + clean.slice(end);
  }
  return clean;
}
