// Replays a recorded request from a script and compares the new profile with the
// old one, with the functions the package exports. In your own project, import
// them from 'appkernel' instead of '../index.js'.
//
//   npm run build
//   node dist/scripts/replay-example.js <token|latest> [store folder]
//
// The server that recorded the request must be running: replay() sends to loopback on the
// port it answered on, not to the Host the request was recorded with. Exit code: 0 when the
// replay behaves as recorded, 1 when it differs, 2 when there is no such profile
// or the request cannot be sent.
import { diffReplay, openFileStorage, replay } from '../index.js';

const [token = 'latest', storeDir = process.env.APPKERNEL_PROFILER_DIR || 'var/profiler'] = process.argv.slice(2);

const storage = await openFileStorage({ dir: storeDir });
const wanted = token === 'latest' ? ((await storage.search({ limit: 1, order: 'arrival' }))[0]?.token ?? '') : token;
const recorded = await storage.read(wanted);
await storage.close();
if (!recorded) {
  console.error(`No profile "${token}" in ${storeDir}.`);
  process.exit(2);
}

let result: Awaited<ReturnType<typeof replay>>;
try {
  result = await replay(recorded, { headers: { 'X-Replayed-By': 'replay-example' } });
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
console.log(
  `${recorded.method} ${result.url}: ${recorded.status} when recorded, ${result.status} now (token ${result.token ?? 'none'})`,
);
if (result.originReplaced) console.error(`Not sent to the recorded Host (${result.originReplaced}).`);
if (result.omitted.length) console.error(`Not sent, redacted when recorded: ${result.omitted.join(', ')}.`);
if (!result.profile) {
  console.error(`The new profile could not be fetched (${result.profileProblem}): nothing to compare.`);
  process.exit(1);
}

const diff = diffReplay(recorded, result.profile);
for (const row of diff.rows.filter((r) => !r.same)) console.log(`  ${row.field}: ${row.a} -> ${row.b}`);
console.log(diff.same ? 'Same behaviour.' : 'Different behaviour.');
process.exitCode = diff.same ? 0 : 1;
