import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { PACKAGE_ENTRY } from '../helpers/cli.js';
import { sendRaw, type RawAnswer } from './raw-http.js';

/** One payload per class of sequence a terminal obeys or that forges what it shows. */
export const TERMINAL_PAYLOADS: readonly { name: string; payload: string }[] = [
  { name: 'OSC 52 (writes the clipboard)', payload: '\x1b]52;c;aGVsbG8=\x07' },
  { name: 'OSC 0 (sets the window title)', payload: '\x1b]0;owned\x07' },
  { name: 'CSI 2J (clears the screen)', payload: '\x1b[2J\x1b[H' },
  { name: 'CR/LF (forges a line)', payload: 'real\r\n12:00:00 CRITICAL [app] forged\rover' },
  { name: 'C1 CSI, OSC and ST (U+009B, U+009D, U+009C)', payload: '\u009b2J\u009d0;owned\u009c' },
  {
    name: 'bidi override and line separator (U+202E, U+2066, U+2028)',
    payload: 'abc\u202egpj.exe\u2066x\u2069\u2028y',
  },
];

/** Every character a terminal may obey or that reorders or breaks a line; tab and LF (the line ends) are allowed. */
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
/** The colour codes the program itself writes (cli/request-line.ts, render/text/ansi.ts). */
const OWN_COLORS = /\x1b\[[0-9;]*m/g;

/** Fails naming the first raw control character in `output` and what surrounds it. */
export function assertNoRawControls(output: string, where: string, options: { color?: boolean } = {}): void {
  const text = options.color ? output.replace(OWN_COLORS, '') : output;
  const m = RAW.exec(text);
  if (!m) return;
  const around = JSON.stringify(text.slice(Math.max(0, m.index - 60), m.index + 40));
  assert.unreachable(`${where}: raw U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${m.index}: ${around}`);
}

/**
 * A hostile app: `/say` logs the decoded query value `q` as a WARNING and in an ERROR's context,
 * `/fail` (any method) throws it as an exception message, `/later` throws it from a timer outside
 * any request.
 */
const HOSTILE_APP = `import { createApp } from ${JSON.stringify(PACKAGE_ENTRY)};

const q = (request) => String(request.query.q ?? '');

export const app = createApp({ name: 'terminal-hostile' })
  .get('say', '/say', function say({ request, log }) {
    log.warning(q(request));
    log.error('Searching {q}', { q: q(request) });
    return 'said';
  })
  .route('fail', '/fail', function fail({ request, log }) {
    log.warning(q(request));
    throw new Error(q(request));
  })
  .get('later', '/later', function later({ request }) {
    const text = q(request);
    setTimeout(() => { throw new Error(text); }, 0);
    return 'later';
  });
`;

/** A folder holding the hostile app as app.config.mjs; remove() deletes it. */
export function hostileAppDir(): { dir: string; appFile: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'appkernel-terminal-'));
  const appFile = join(dir, 'app.config.mjs');
  writeFileSync(appFile, HOSTILE_APP);
  return { dir, appFile, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * What a header value can carry of the payload: its UTF-8 bytes as they are (node reads them as
 * latin1, so U+009B arrives as "Â" then U+009B, and U+202E as "â", U+0080, "®"), the C0 controls
 * and DEL that HTTP forbids there as spaces.
 */
export function headerBytes(payload: string): Buffer {
  return Buffer.from(payload.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, ' ').trim(), 'utf8');
}

/** The header value as the server decodes what headerBytes sends. */
export function headerAsReceived(payload: string): string {
  return headerBytes(payload).toString('latin1');
}

/** Sends a request byte for byte: raw header values (Buffers) kept as they are, body as UTF-8. */
export function sendHostile(
  base: string,
  method: string,
  target: string,
  headers: Record<string, string | Buffer>,
  body = '',
): Promise<RawAnswer> {
  const bodyBytes = Buffer.from(body, 'utf8');
  const head: Buffer[] = [Buffer.from(`${method} ${target} HTTP/1.1\r\n`, 'latin1')];
  const all: Record<string, string | Buffer> = { host: new URL(base).host, ...headers, connection: 'close' };
  if (bodyBytes.length) all['content-length'] = String(bodyBytes.length);
  for (const [name, value] of Object.entries(all)) {
    head.push(
      Buffer.from(`${name}: `, 'latin1'),
      typeof value === 'string' ? Buffer.from(value, 'latin1') : value,
      Buffer.from('\r\n', 'latin1'),
    );
  }
  head.push(Buffer.from('\r\n', 'latin1'));
  return sendRaw(base, Buffer.concat([...head, bodyBytes]));
}
