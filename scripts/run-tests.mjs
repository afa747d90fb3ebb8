// Runs each compiled uvu suite under dist/tests in its own process (as uvu's own
// test/index.js does), several at a time, and closes with "N passed, N failed".
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('../dist/tests/', import.meta.url).pathname;
const sources = new URL('../tests/', import.meta.url).pathname;
// `--kind browser` runs *.browser.js (headless Chromium), `--kind stress` runs *.stress.js; default *.test.js.
const args = process.argv.slice(2);
const kindAt = args.indexOf('--kind');
const kind = kindAt === -1 ? 'test' : args.splice(kindAt, 2)[1];
// A filter is matched against the path under dist/tests, `/` first (`cli`, `/cli/`, `render/escape`), not where the checkout is.
const filter = args[0] ?? '';
const pattern = process.env.TEST_PATTERN ? new RegExp(process.env.TEST_PATTERN) : new RegExp(`\\.${kind}\\.js$`);
// Unit suites: two per core (at least 3), since many wait on sockets, timers and databases: on this
// 2-core machine a quiet run of the unit suites took 4m22 two at a time, 3m46 three, 3m39 four, at the
// same CPU. Browser and stress suites run alone.
const parallel = Number(process.env.TEST_JOBS) || (kind === 'test' ? Math.max(3, availableParallelism() * 2) : 1);
// A stress suite may run whole corpora one suite after another (tests/stress/corpora-in-full.stress.ts).
const timeoutMs = kind === 'stress' ? 1_800_000 : 300_000;

function collect(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return name === 'fixtures' ? [] : collect(path);
      return pattern.test(name) && `/${relative(root, path)}`.includes(filter) && hasSource(path) ? [path] : [];
    });
}

/** A suite compiled from a test file since moved or deleted stays in dist/ (tsc removes nothing): it is not run. */
function hasSource(file) {
  const source = join(sources, relative(root, file)).replace(/\.js$/, '.ts');
  return existsSync(source);
}

/**
 * CPU seconds of this runner's finished children and everything they waited for (cutime + cstime of
 * /proc/self/stat, Linux only): read as each suite closes, the growth is that suite's CPU, the `app`
 * processes and servers it started included.
 */
function childrenCpuSeconds() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}
let cpuSoFar = childrenCpuSeconds();
// The servers the suites start keep their instance key in a state folder of this run, never in the home folder.
const stateDir = process.env.APPKERNEL_STATE_DIR || mkdtempSync(join(tmpdir(), 'appkernel-test-state-'));
process.on('exit', () => {
  if (!process.env.APPKERNEL_STATE_DIR) rmSync(stateDir, { recursive: true, force: true });
});

function run(file) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--enable-source-maps', file], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0', APPKERNEL_STATE_DIR: stateDir },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const passed = [...out.matchAll(/Passed:\s+(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
      const total = [...out.matchAll(/Total:\s+(\d+)/g)].reduce((n, m) => n + Number(m[1]), 0);
      let failed = total - passed;
      if (code !== 0 && failed === 0) failed = 1; // a crash or a failing hook counts once
      const cpu = childrenCpuSeconds();
      const cpuSeconds = cpu - cpuSoFar;
      cpuSoFar = cpu;
      resolve({ file, out, code, passed, failed, seconds: (performance.now() - started) / 1000, cpuSeconds });
    });
  });
}

if (!existsSync(root)) {
  console.error(`No compiled tests in ${root}: run \`npm run build\` first.`);
  console.log('\n0 passed, 1 failed');
  process.exit(1);
}
// The longest suites first, as the last whole run of this kind timed them (kept beside the build,
// never committed): a long suite started last would leave one core idle while it finishes. A suite
// not timed yet goes first.
const timesFile = join(root, `.${kind}-suite-seconds.json`);
const lastTimes = readTimes();
function readTimes() {
  try {
    return JSON.parse(readFileSync(timesFile, 'utf8'));
  } catch {
    return {};
  }
}
const lastSeconds = (file) => lastTimes[relative(root, file)] ?? Number.POSITIVE_INFINITY;
const files = collect(root).sort((a, b) => lastSeconds(b) - lastSeconds(a) || 0);
console.log(`${files.length} suites, ${parallel} at a time`);
let passed = 0;
let failed = 0;
const timings = [];
const queue = [...files];
async function worker() {
  for (let file = queue.shift(); file; file = queue.shift()) {
    const r = await run(file);
    passed += r.passed;
    failed += r.failed;
    const name = relative(root, file);
    const took = `${r.seconds.toFixed(1)} s, CPU ${r.cpuSeconds.toFixed(1)} s`;
    timings.push({ name, seconds: r.seconds, cpuSeconds: r.cpuSeconds });
    if (r.failed > 0) process.stdout.write(`\n✘ ${name} ${took}\n${r.out}\n`);
    else if (kind === 'test') process.stdout.write(`✔ ${name} (${r.passed}) ${took}\n`);
    else process.stdout.write(`✔ ${name} (${r.passed}) ${took}\n${r.out}\n`); // browser and stress suites print their figures
  }
}
await Promise.all(Array.from({ length: parallel }, worker));
if (files.length === 0) failed += 1;
if (filter === '' && timings.length > 0)
  writeFileSync(
    timesFile,
    JSON.stringify(Object.fromEntries(timings.map((t) => [t.name, Math.round(t.seconds * 10) / 10]))),
  );
if (timings.length > 1) {
  console.log('\nSlowest suites:');
  for (const t of timings.sort((a, b) => b.seconds - a.seconds).slice(0, 10))
    console.log(`  ${t.seconds.toFixed(1).padStart(6)} s  ${t.name}`);
  console.log('\nMost CPU (the suite and the processes it started):');
  for (const t of timings.sort((a, b) => b.cpuSeconds - a.cpuSeconds).slice(0, 10))
    console.log(`  ${t.cpuSeconds.toFixed(1).padStart(6)} s  ${t.name}`);
  const total = timings.reduce((sum, t) => sum + t.cpuSeconds, 0);
  console.log(`  ${total.toFixed(0).padStart(6)} s  in all, over ${timings.length} suites`);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
