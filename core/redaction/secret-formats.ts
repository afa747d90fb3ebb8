import { createRequire } from 'node:module';

/**
 * Credential formats from a maintained rule set: secretlint's recommended preset (AWS, GCP, GitHub,
 * npm, Slack, SendGrid, Shopify, OpenAI, Anthropic, Linear, 1Password, PEM private keys, database
 * URLs with a password, basic-auth URLs). Its rules are run here directly and synchronously on one
 * string (each rule reports the ranges it finds), not through secretlint's asynchronous file linter.
 * The preset is loaded at the first string that may hold one of its formats, never at start-up.
 */

interface Report {
  range: readonly [number, number];
}
interface RuleContext {
  sharedOptions: Record<string, unknown>;
  createTranslator(
    messages: unknown,
  ): (messageId: string, data?: unknown) => { message: string; messageId: string; data?: unknown };
  report(descriptor: Report): void;
  ignore(descriptor: unknown): void;
}
interface Source {
  content: string;
  contentType: 'text';
  ext: string;
  filePath: string;
}
interface Rule {
  meta: { id: string };
  create(context: RuleContext, options: Record<string, unknown>): { file?(source: Source): unknown };
}

/** Every rule of the preset this module runs; a test fails when an upgrade brings one that MARKS may not let through. */
export const PRESET_RULES = [
  'aws',
  'gcp',
  'privatekey',
  'npm',
  'basicauth',
  'slack',
  'sendgrid',
  'shopify',
  'github',
  'openai',
  'anthropic',
  'linear',
  '1password',
  'database-connection-string',
].map((name) => `@secretlint/secretlint-rule-${name}`);
/** secretlint-disable comments in scanned files: nothing to do with a profile's strings */
const SKIPPED_RULES = new Set(['@secretlint/secretlint-rule-filter-comments']);

/**
 * A string holding none of these can match no rule of the preset, so most strings never run it:
 * the fixed part every rule's pattern needs (a prefix, a keyword, "user:password@").
 */
const MARKS =
  /-----BEGIN|:\/\/[^\s/@]*:[^\s/@]*@|hooks\.slack\.com|xox[abpor]-|xapp-|SG\.|shp(?:pa|ca|at|ss)_|gh[pousr]_|github_pat_|sk-|npm_|_authToken|lin_api_|ops_ey|A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA|secret_?access_?key|account_?id|private_key/i;

let scanners: ((source: Source) => unknown)[] | null = null;
const found: (readonly [number, number])[] = [];

function load(): ((source: Source) => unknown)[] {
  const require = createRequire(import.meta.url);
  const { creator } = require('@secretlint/secretlint-rule-preset-recommend') as { creator: { rules: Rule[] } };
  const context: RuleContext = {
    sharedOptions: {},
    createTranslator: () => (messageId, data) => ({ message: messageId, messageId, data }),
    report: (descriptor) => {
      found.push(descriptor.range);
    },
    ignore: () => undefined,
  };
  return creator.rules
    .filter((rule) => !SKIPPED_RULES.has(rule.meta.id))
    .flatMap((rule) => {
      const file = rule.create(context, {}).file;
      return file ? [file] : [];
    });
}

/** The ids of the preset's rules as installed (for the test that keeps PRESET_RULES and MARKS honest). */
export function installedPresetRules(): string[] {
  const require = createRequire(import.meta.url);
  const { creator } = require('@secretlint/secretlint-rule-preset-recommend') as { creator: { rules: Rule[] } };
  return creator.rules.map((rule) => rule.meta.id).filter((id) => !SKIPPED_RULES.has(id));
}

/** The ranges of `text` that hold a credential of a format the preset knows, sorted and merged; [] for none. */
export function credentialRanges(text: string): [number, number][] {
  if (!MARKS.test(text)) return [];
  scanners ??= load();
  found.length = 0;
  const source: Source = { content: text, contentType: 'text', ext: '.txt', filePath: 'profile.txt' };
  for (const scan of scanners) scan(source);
  if (found.length === 0) return [];
  const sorted = found.map(([start, end]): [number, number] => [start, end]).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of sorted) {
    const last = merged[merged.length - 1];
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }
  return merged;
}
