import { isIPv4, isIPv6 } from 'node:net';
import { PACKAGE_ROOT } from '../core/package-root.js';

/** Rewrites volatile values in one piece of text (a text node or an attribute value) into placeholders. */
export type Normaliser = (text: string) => string;

const HEX6 = '[0-9a-f]{6}';

/** Tokens where only a token can be: profiler and toolbar URLs, `X-Debug-Token`, or a 6-hex word right after "token". */
export const normaliseTokens: Normaliser = (text) =>
  text
    .replace(new RegExp(`(/_(?:profiler|wdt)/)${HEX6}(?![0-9A-Za-z])`, 'g'), '$1<TOKEN>')
    .replace(new RegExp(`([?&]token=)${HEX6}(?![0-9A-Za-z])`, 'g'), '$1<TOKEN>')
    .replace(new RegExp(`((?:[Tt]oken|TOKEN)["':\\s(=]{1,3})${HEX6}(?![0-9A-Za-z])`, 'g'), '$1<TOKEN>');

/** Every further occurrence of tokens found elsewhere in the page (see findTokens), as whole words. */
export function knownTokens(tokens: Iterable<string>): Normaliser {
  const list = [...new Set(tokens)].filter((t) => new RegExp(`^${HEX6}$`).test(t));
  if (list.length === 0) return (text) => text;
  const pattern = new RegExp(`(?<![0-9A-Za-z])(?:${list.join('|')})(?![0-9A-Za-z])`, 'g');
  return (text) => text.replace(pattern, '<TOKEN>');
}

/** The tokens a page names in places only a token can be: profiler and toolbar links, `X-Debug-Token`, `token=`. */
export function findTokens(text: string): Set<string> {
  const found = new Set<string>();
  const patterns = [
    new RegExp(`/_(?:profiler|wdt)/(${HEX6})(?![0-9A-Za-z])`, 'g'),
    new RegExp(`[?&](?:amp;)?token=(${HEX6})(?![0-9A-Za-z])`, 'g'),
    new RegExp(`X-Debug-Token[^0-9A-Za-z]{0,3}(${HEX6})(?![0-9A-Za-z])`, 'gi'),
  ];
  for (const pattern of patterns) for (const m of text.matchAll(pattern)) found.add(m[1]!);
  return found;
}

/** ISO date-times and dates, `YYYY-MM-DD HH:MM:SS` (with an optional UTC), and `HH:MM:SS` clock times. */
export const normaliseTimes: Normaliser = (text) =>
  text
    .replace(
      /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}|\s?UTC|\s?GMT)?)?(?![\d:])/g,
      '<TIME>',
    )
    .replace(/(?<![\d:.])\d{2}:\d{2}:\d{2}(?:\.\d+)?(?![\d:])/g, '<TIME>');

/** `12 ms`, `0.4ms`, `12.3 µs`, `1.2 s`: a bare `s` needs a decimal point or a space, so "404s" stays. */
export const normaliseDurations: Normaliser = (text) =>
  text
    .replace(/(?<![\w.])\d+(?:\.\d+)?\s?(?:ms|µs|us|ns|milliseconds?)(?![\w])/g, '<DURATION>')
    .replace(/(?<![\w.])(?:\d+\.\d+\s?|\d+\s)(?:s|sec|secs|seconds?)(?![\w])/g, '<DURATION>');

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\])$/i;

const ENCODED_LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|%5B(?:%3A){1,2}1?%5D)$/i;

/**
 * Host and port: `http://127.0.0.1:54321` becomes `http://<HOST>`, and so does any URL on a loopback host, also
 * percent-encoded in a query (`url=http%3A%2F%2F127.0.0.1%3A54321%2F`); a bare `localhost:8000` becomes `<HOST>`.
 */
export const normaliseHosts: Normaliser = (text) =>
  text
    .replace(
      /\b((?:https?|wss?):\/\/)(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?(?![\w.-])/g,
      (all, scheme: string, host: string, port: string | undefined) =>
        port || LOOPBACK.test(host) ? `${scheme}<HOST>` : all,
    )
    .replace(
      /\b((?:https?|wss?)%3A%2F%2F)(%5B(?:[0-9A-Fa-f.]|%3A)+%5D|[A-Za-z0-9.-]+)(%3A\d{1,5})?(?![\w.-])/gi,
      (all, scheme: string, host: string, port: string | undefined) =>
        port || ENCODED_LOOPBACK.test(host) ? `${scheme}<HOST>` : all,
    )
    .replace(/(?<![\w.:/-])(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9A-Fa-f:.]+\]):\d{1,5}(?![\w])/gi, '<HOST>');

/** IPv4 and IPv6 addresses (`::1`, `::ffff:127.0.0.1` included), each checked by node:net before it is replaced. */
export const normaliseClientIps: Normaliser = (text) =>
  text
    .replace(
      /(?<![\w:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:[0-9A-Fa-f]{1,4}|\d{1,3}(?:\.\d{1,3}){3})?(?![\w:.])/g,
      (candidate) => (isIPv6(candidate) ? '<CLIENT_IP>' : candidate),
    )
    .replace(/(?<![\w./])\d{1,3}(?:\.\d{1,3}){3}(?![\w.])/g, (candidate) =>
      isIPv4(candidate) ? '<CLIENT_IP>' : candidate,
    );

const SYSTEM_ROOTS = [
  'home',
  'Users',
  'tmp',
  'var',
  'usr',
  'opt',
  'private',
  'root',
  'srv',
  'mnt',
  'work',
  'workspace',
  'builds',
];

/**
 * Absolute file paths. Under `root`: `<ROOT>` and the path inside it. Elsewhere, a path with a file
 * extension inside appkernel's own folder, wherever it lives, or at least two folders under a system
 * folder (`/home/me/x.ts`, `/tmp/run/y.json`): from its
 * `node_modules/` on if it has one, else `<ROOT>/.../` and the file name. URL paths (`/robots.txt`,
 * `/static/app/main.css`) are left alone, since they cannot be told from file paths otherwise.
 */
export function normalisePaths(root?: string): Normaliser {
  const base = root ? root.replace(/[\\/]+$/, '') : '';
  const rootPattern = base ? new RegExp(`${escapeRegExp(base)}(?=[\\\\/]|$|[^\\w.-])`, 'g') : null;
  const roots = SYSTEM_ROOTS.join('|');
  const segment = `[^\\s"'()<>:/]+`;
  const systemPath = `/(?:${roots})(?:/${segment}){2,}`;
  const ownPath = `${escapeRegExp(PACKAGE_ROOT)}(?:/${segment})+`;
  const absolute = new RegExp(
    `(?<![\\w.:/<>-])(?:${ownPath}|${systemPath})(?<=\\.[A-Za-z][A-Za-z0-9]{0,5})(?![\\w/.])`,
    'g',
  );
  return (text) => {
    const inRoot = rootPattern ? text.replace(rootPattern, '<ROOT>') : text;
    return inRoot.replace(absolute, (path) => {
      const modules = path.lastIndexOf('/node_modules/');
      if (modules !== -1) return `<ROOT>${path.slice(modules)}`;
      return `<ROOT>/.../${path.slice(path.lastIndexOf('/') + 1)}`;
    });
  };
}

/**
 * Line and column numbers in code that is not the app's: Node's internals (`node:events:524:28`),
 * packages (`node_modules/undici/index.js line 12`) and files outside the root (`<ROOT>/.../kernel.ts:55:27`,
 * as normalisePaths leaves them) become `<LINE>`: they move with every Node or package release.
 * The app's own positions stay, they are part of the page.
 */
export const normaliseVendorPositions: Normaliser = (text) =>
  text.replace(
    /(\bnode:[\w/]+|node_modules\/[^\s"'():]+|<ROOT>\/\.\.\.\/[^\s"'():]+)(?::\d+(?::\d+)?(?![\d:])|( line )\d+\b)/g,
    (_all, file: string, line: string | undefined) => `${file}${line ?? ':'}<LINE>`,
  );

/** `1234 bytes`, `1 byte`, `12.3 KB`, `4 MiB`. */
export const normaliseSizes: Normaliser = (text) =>
  text.replace(/(?<![\w.])\d+(?:\.\d+)?\s?(?:bytes?|[KMGT]i?B|kB|B)(?![\w])/g, '<BYTES>');

export interface DefaultNormaliserOptions {
  /** the app root, for `<ROOT>` (default: none, only system paths are replaced) */
  root?: string;
  /** tokens already found in the page (findTokens), replaced wherever they appear */
  tokens?: Iterable<string>;
}

/**
 * The default list, in the order it must run: paths before vendor positions (which read the paths it
 * leaves) and before hosts (a root may hold digits),
 * hosts before IPs (`127.0.0.1:8000` is a host), tokens and times before durations and sizes.
 */
export function defaultNormalisers(options: DefaultNormaliserOptions = {}): Normaliser[] {
  return [
    normalisePaths(options.root),
    normaliseVendorPositions,
    normaliseHosts,
    normaliseClientIps,
    normaliseTokens,
    knownTokens(options.tokens ?? []),
    normaliseTimes,
    normaliseDurations,
    normaliseSizes,
  ];
}

export function applyNormalisers(text: string, normalisers: readonly Normaliser[]): string {
  return normalisers.reduce((current, normalise) => normalise(current), text);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
