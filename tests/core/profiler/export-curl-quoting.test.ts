import { execFileSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toCurl } from '../../../core/profiler/export-request.js';
import type { Profile } from '../../../core/profiler/profile.js';
import { shellQuote } from '../../../core/profiler/shell-quote.js';
import { profile200 } from './fixtures.js';

// `export --curl` prints a command a developer pastes into a shell: no value in it may carry a control
// byte to the terminal (ESC, OSC, CR) or end its quoting. Each case is read back by bash itself.

const test = suite(
  'export --curl: values are quoted so that bash reads them back exactly and the output holds no raw control byte',
);

const END_OF_CASE = 'end-of-case-8f1c';

/**
 * The cases hold commands (`rm -rf ~`, `touch`): should a quoting break, bash finds no command to run
 * (printf is a builtin) and `~` is a folder that does not exist. Without this, a broken shellQuote
 * ran `rm -rf ~` in the developer's home.
 */
const BASH = execFileSync('bash', ['-c', 'printf %s "$BASH"'], { encoding: 'utf8' });
const NO_COMMANDS = '/nonexistent/appkernel-no-commands';

/**
 * What bash makes of each of `cases`: the arguments it would pass, read back through printf '%s\0'.
 * One bash reads them all, a line each (a process per case took most of this suite's time).
 */
function bashWordsEach(cases: string[]): string[][] {
  const script = cases.map((words) => `printf '%s\\0' ${words}; printf '%s\\0' ${END_OF_CASE}`).join('\n');
  const out = execFileSync(BASH, ['-c', script], {
    encoding: 'utf8',
    env: { PATH: NO_COMMANDS, HOME: NO_COMMANDS, LC_ALL: 'C' },
  });
  const words: string[][] = [[]];
  for (const word of out.split('\0').slice(0, -1)) {
    if (word === END_OF_CASE) words.push([]);
    else words[words.length - 1].push(word);
  }
  words.pop();
  assert.is(words.length, cases.length, 'bash read every case to its end');
  return words;
}

const RAW_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

const HOSTILE = [
  'plain value',
  "it's",
  'back\\slash \\x41 \\n',
  '\x1b]52;c;ZWNobyBwd25lZA==\x07',
  '\x1b]0;title\x1b\\',
  '\x1b[2J\x1b[H',
  'line one\nline two\r\n',
  'carriage\roverwrite',
  'c1 \u009b31m csi \u0085 nel \u009d osc',
  'del \x7f and bell \x07 and nul-free \x01\x1f',
  "$(touch /tmp/pwned) `id` ${HOME} \"dq\" !! ' '\\''",
  "'; rm -rf ~; echo '",
  'unicode é ü 雪 😀 \u202e reversed \u2028 sep',
  '@/etc/passwd',
];

function hostileProfile(value: string, body: string): Profile {
  const p = profile200({ token: 'c0ffee', method: 'POST', url: 'http://127.0.0.1:8741/contact?x=1' });
  const request = {
    ...p.collectors.request,
    method: 'POST',
    path: '/contact',
    server: { address: '127.0.0.1', port: 8741 },
    headers: { 'x-hostile': value },
    body: { size: Buffer.byteLength(body), contentType: 'text/plain', truncated: false, text: body },
  };
  return { ...p, method: 'POST', collectors: { ...p.collectors, request } };
}

test('when a single value is quoted, then bash reads back the same string and the quoted form has no raw control byte', () => {
  const quoted = HOSTILE.map(shellQuote);
  const read = bashWordsEach(quoted);
  HOSTILE.forEach((value, i) => {
    assert.not.ok(RAW_CONTROL.test(quoted[i]), `raw control byte in ${JSON.stringify(quoted[i])}`);
    assert.equal(read[i], [value], JSON.stringify(value));
  });
});

test('when every C0, DEL and C1 character is quoted, then each reads back exactly and none is printed raw', () => {
  const codes = Array.from({ length: 0x9f }, (_, i) => i + 1).filter((code) => code < 0x20 || code >= 0x7f);
  const values = codes.map((code) => `a${String.fromCharCode(code)}b`);
  const quoted = values.map(shellQuote);
  const read = bashWordsEach(quoted);
  codes.forEach((code, i) => {
    assert.not.ok(RAW_CONTROL.test(quoted[i]), `U+${code.toString(16)}: ${JSON.stringify(quoted[i])}`);
    assert.equal(read[i], [values[i]], `U+${code.toString(16)}`);
  });
});

test('when plain printable values are quoted, then they stay in single quotes', () => {
  assert.is(shellQuote('http://127.0.0.1:8741/a?b=1'), "'http://127.0.0.1:8741/a?b=1'");
  assert.is(shellQuote('accept: text/html, é'), "'accept: text/html, é'");
});

test('when hostile header values and bodies are exported, then bash reads the command back as the same arguments, and the output has no raw control byte', () => {
  const bodies = HOSTILE.map((value) => `{"note":${JSON.stringify(value)}, "raw": "${value}"}`);
  const commands = HOSTILE.map((value, i) => {
    const curl = toCurl(hostileProfile(value, bodies[i]));
    const lines = curl.split('\n');
    assert.is(lines.pop(), '', 'the output ends with a newline');
    for (const line of lines) assert.not.ok(RAW_CONTROL.test(line), `raw control byte in ${JSON.stringify(line)}`);
    const command = lines[lines.length - 1];
    assert.ok(command.startsWith('curl '), command);
    assert.ok(
      lines.slice(0, -1).every((l) => l.startsWith('# ')),
      curl,
    );
    return command.slice('curl '.length);
  });
  const read = bashWordsEach(commands);
  HOSTILE.forEach((value, i) => {
    assert.equal(
      read[i],
      ['-X', 'POST', 'http://127.0.0.1:8741/contact?x=1', '-H', `x-hostile: ${value}`, '--data-raw', bodies[i]],
      JSON.stringify(value),
    );
  });
});

test('when the path holds globbing or dot segments, then curl is told to send it as it is', () => {
  const p = hostileProfile('v', 'b');
  const at = (path: string) =>
    toCurl({
      ...p,
      url: `http://127.0.0.1:8741${path}`,
      collectors: { ...p.collectors, request: { ...p.collectors.request, path: path.split('?')[0] } },
    });
  assert.match(at('/a/../b?x[]=1'), / --globoff --path-as-is 'http:\/\/127\.0\.0\.1:8741\/a\/\.\.\/b\?x\[\]=1'/);
  assert.not.match(at('/a/b'), /--globoff|--path-as-is/);
});

test.run();
