// The store at scale (issue 39, item 5): a store of a million profiles (BENCH_STORE_PROFILES for a
// quicker run) against the same queries on one of 1,000, side by side, for the file store and for
// PostgreSQL: the newest 20, every filter the pages and `app profiles list` offer, alone and as a
// page asks (the rows and the count of all matches), the count, disk bytes per profile, and the
// time `app serve --store <that store>` takes from launch to its first answer.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { SearchQuery } from '../../core/profiler/profile.js';
import { countBound } from '../../core/profiler/match-count.js';
import { openFileStorage } from '../../core/profiler/storage/file-storage.js';
import { openPostgresStorage } from '../../core/profiler/storage/postgres-storage.js';
import { BLOCKS_TABLE, COUNTS_TABLE, PROFILES_TABLE, URLS_TABLE } from '../../core/profiler/storage/postgres-schema.js';
import type { ProfileStore, StoreServing } from '../../core/profiler/storage/profile-storage.js';
import { storedEntry } from '../../core/profiler/storage/stored-entry.js';
import { nthToken } from '../../tests/core/profiler/fixtures.js';
import type { TempPostgres } from '../../tests/helpers/temp-postgres.js';
import { startContender } from './contender.js';
import { nthProfile } from './store-traffic.js';

const SMALL = 1_000;
/** BENCH_STORE_PROFILES=100000 for a quick run */
export const LARGE = Number(process.env.BENCH_STORE_PROFILES ?? 1_000_000);
/** ms between two profiles of a store, oldest first */
const STEP = 10;
/** profiles the file store is given per flush while filling */
const FILL_BATCH = 10_000;
/** the PostgreSQL fill copies the first 1,000 rows (written through the store) this many times per statement */
const COPIES_PER_STATEMENT = 100;
const START_ROUNDS = 3;
/**
 * BENCH_STORE_KEEP=<folder>: the file stores are kept there (file-<size>, and file-<size>.json: when
 * its profiles start) and filled the first time only, so that a change to reading is measured again
 * without filling a million profiles again.
 */
const KEEP = process.env.BENCH_STORE_KEEP;

interface Span {
  oldest: number;
  newest: number;
}

/** `goal`: the largest ratio of the large store's median to the small one's; `page`: search and count at once, as a /_profiler page asks. */
interface Case {
  name: string;
  query: (span: Span) => SearchQuery;
  goal: number;
  page?: boolean;
  /** count() alone */
  count?: boolean;
}

const at = (span: Span, fraction: number) => Math.round(span.oldest + (span.newest - span.oldest) * fraction);

const FILTERS: { name: string; query: (span: Span) => Omit<SearchQuery, 'limit'> }[] = [
  { name: 'status 404', query: () => ({ status: '404' }) },
  { name: 'status class 4xx (30%)', query: () => ({ status: '4xx' }) },
  { name: 'status class 5xx (0.4%)', query: () => ({ status: '5xx' }) },
  { name: 'method POST (4.5%)', query: () => ({ method: 'POST' }) },
  { name: 'method GET, status 404', query: () => ({ method: 'GET', status: '404' }) },
  { name: 'url "/hello/" (40%)', query: () => ({ url: '/hello/' }) },
  { name: 'url "/orders/42" (0.2%)', query: () => ({ url: '/orders/42' }) },
  { name: 'url "wp-admin" (0.1%)', query: () => ({ url: 'wp-admin' }) },
  { name: 'ip 192.168.1.3 (2.9%)', query: () => ({ ip: '192.168.1.3' }) },
  { name: 'token prefix "a" (1/16)', query: () => ({ token: 'a' }) },
  { name: 'token prefix "ab1" (1/4096)', query: () => ({ token: 'ab1' }) },
  { name: 'since: newest 10% of the span', query: (s) => ({ since: at(s, 0.9) }) },
  { name: 'until: oldest 10% of the span', query: (s) => ({ until: at(s, 0.1) }) },
  { name: 'since..until: 1% in the middle', query: (s) => ({ since: at(s, 0.5), until: at(s, 0.51) }) },
];

const CASES: Case[] = [
  { name: 'newest 20', query: () => ({ limit: 20 }), goal: 1.5 },
  { name: 'page: newest 20 + count', query: () => ({ limit: 20, hideProfiler: true }), goal: 1.5, page: true },
  { name: 'count, all', query: () => ({ limit: 1 }), goal: 1.5, count: true },
  ...FILTERS.map(({ name, query }) => ({ name, query: (s: Span) => ({ limit: 20, ...query(s) }), goal: 10 })),
  ...FILTERS.map(({ name, query }) => ({
    name: `page: ${name} + count`,
    query: (s: Span) => ({ limit: 20, hideProfiler: true, ...query(s) }),
    goal: 10,
    page: true,
  })),
];

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median ms of `run` after 3 warm-ups: up to 200 rounds, fewer when they take more than about 1.5 s in all (5 at least). */
async function timeIt(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await run();
  const samples: number[] = [];
  const until = performance.now() + 1_500;
  while (samples.length < 200 && (samples.length < 5 || performance.now() < until)) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

interface Store {
  /** a --store argument */
  location: string;
  open(): Promise<ProfileStore & StoreServing>;
  diskBytes(): Promise<number>;
  remove(): Promise<void>;
  /** a kept store filled before: when its profiles start */
  filledFrom?(): number | null;
  /** keeps the store, filled from `start` */
  keep?(start: number): void;
}

interface Figures {
  fillMs: number;
  cases: number[];
  readMs: number;
  bytesPerProfile: number;
  /** launch to listening, and to the first answer: medians */
  listenMs: number;
  firstAnswerMs: number;
  matches: number[];
}

async function fileStore(size: number): Promise<Store> {
  const kept = KEEP ? join(resolve(KEEP), `file-${size}`) : null;
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'appkernel-store-scale-'));
  const open = () => openFileStorage({ dir, maxProfiles: size * 2, maxBytes: 64 * 1024 ** 3 });
  return {
    location: dir,
    open,
    async diskBytes() {
      const storage = await open();
      try {
        return storage.stats().bytes;
      } finally {
        await storage.close();
      }
    },
    remove: async () => {
      if (!kept) rmSync(dir, { recursive: true, force: true });
    },
    filledFrom: () =>
      kept && existsSync(`${kept}.json`)
        ? (JSON.parse(readFileSync(`${kept}.json`, 'utf8')) as { start: number }).start
        : null,
    keep: (start) => {
      if (kept) writeFileSync(`${kept}.json`, JSON.stringify({ start }));
    },
  };
}

/** Through the store's API: writeBatch() in batches of FILL_BATCH, a flush after each. */
async function fillThroughApi(storage: ProfileStore & StoreServing, size: number, start: number): Promise<void> {
  for (let i = 0; i < size; i += FILL_BATCH) {
    const batch = Array.from({ length: Math.min(FILL_BATCH, size - i) }, (_, j) =>
      storedEntry(nthProfile(i + j, start + (i + j) * STEP)),
    );
    storage.writeBatch(batch);
    await storage.flush();
  }
}

async function fillFile(store: Store, size: number, start: number): Promise<void> {
  const storage = await store.open();
  try {
    await fillThroughApi(storage, size, start);
    const { profiles } = storage.stats();
    if (profiles !== size) throw new Error(`expected ${size} profiles, got ${profiles}`);
  } finally {
    await storage.close();
  }
}

async function postgresStore(server: TempPostgres, size: number): Promise<Store> {
  const url = await server.createDatabase();
  return {
    location: url,
    open: () =>
      openPostgresStorage({
        url,
        maxProfiles: size * 2,
        maxBytes: 64 * 1024 ** 3,
        onWarning: (m) => console.error(`warning: ${m}`),
      }),
    async diskBytes() {
      const result = await query<{ bytes: string }>(
        url,
        `SELECT sum(pg_total_relation_size(t))::bigint AS bytes
        FROM unnest(ARRAY['${PROFILES_TABLE}', '${BLOCKS_TABLE}', '${URLS_TABLE}', '${COUNTS_TABLE}']::regclass[]) AS t`,
      );
      return Number(result[0].bytes);
    },
    remove: async () => {},
  };
}

async function query<T extends pg.QueryResultRow>(url: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/**
 * The first 1,000 profiles through the store's API; the rest copies of their rows and blocks in plain
 * SQL (INSERT ... SELECT over generate_series): profile i = 1,000 g + n is row n again, with profile
 * i's token, time and IP (the traffic mix repeats every 1,000), its block a copy of row n's. Then
 * VACUUM ANALYZE, as autovacuum would have done by the time a store holds a million.
 */
async function fillPostgres(store: Store, size: number, start: number): Promise<void> {
  const storage = await store.open();
  try {
    await fillThroughApi(storage, Math.min(size, SMALL), start);
  } finally {
    await storage.close();
  }
  if (size <= SMALL) return;
  if (size % SMALL !== 0) throw new Error(`BENCH_STORE_PROFILES must be a multiple of ${SMALL}`);
  const client = new pg.Client({ connectionString: store.location });
  await client.connect();
  try {
    // The throwaway server commits asynchronously: VACUUM cannot mark in the visibility map the rows
    // of a commit not yet flushed (40% of the table was left out), and counts, which read an index
    // alone, then read the table too. Autovacuum, later, would have marked them.
    await client.query('SET synchronous_commit = on');
    const [{ span }] = (await client.query<{ span: string }>(`SELECT max(id) AS span FROM ${BLOCKS_TABLE}`)).rows;
    const groups = size / SMALL;
    const i = `(g * ${SMALL} + t.n)`;
    for (let from = 1; from < groups; from += COPIES_PER_STATEMENT) {
      const to = Math.min(groups - 1, from + COPIES_PER_STATEMENT - 1);
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO ${BLOCKS_TABLE} (id, newest, body)
        SELECT b.id + g * $3, b.newest + g * $4, b.body FROM ${BLOCKS_TABLE} b, generate_series($1::bigint, $2::bigint) AS g
        WHERE b.id <= $3 ORDER BY g, b.id`,
        [from, to, span, SMALL * STEP],
      );
      await client.query(
        `INSERT INTO ${PROFILES_TABLE} (token, time, status, ip, method, url_hash, duration, instance, profiler, bytes, route, block, slot)
        SELECT lpad(to_hex((${i} * 2654435761) % 16777216), 6, '0'), $3::float8 + ${i} * ${STEP}, t.status,
            CASE WHEN ${i} % 5 = 0 THEN '192.168.1.' || (${i} % 7) ELSE '127.0.0.1' END,
            t.method, t.url_hash, t.duration, t.instance, t.profiler, t.bytes, t.route, t.block + g * $4, t.slot
          FROM generate_series($1::bigint, $2::bigint) AS g,
            (SELECT *, round((time - $3::float8) / ${STEP})::bigint AS n FROM ${PROFILES_TABLE} WHERE time < $3::float8 + ${SMALL * STEP}) AS t
          ORDER BY g, t.n`,
        [from, to, start, span],
      );
      await client.query('COMMIT');
    }
    await client.query(`SELECT setval('${BLOCKS_TABLE}_id_seq', (SELECT max(id) FROM ${BLOCKS_TABLE}))`);
    await client.query(`VACUUM ANALYZE ${PROFILES_TABLE}, ${BLOCKS_TABLE}, ${URLS_TABLE}, ${COUNTS_TABLE}`);
  } finally {
    await client.end();
  }
}

/** `app serve --store <location>`, launch to listening and to its first answer (GET /hello/world), median of START_ROUNDS. */
async function serveStart(location: string, size: number): Promise<{ listenMs: number; firstAnswerMs: number }> {
  const dist = resolve(process.cwd(), 'dist');
  const listen: number[] = [];
  const answer: number[] = [];
  for (let round = 0; round < START_ROUNDS; round++) {
    const begin = performance.now();
    const server = await startContender(
      {
        name: 'app serve',
        command: [
          process.execPath,
          join(dist, 'cli/bin.js'),
          'serve',
          '--port',
          '0',
          '--no-watch',
          '--app',
          join(dist, 'scripts/bench/bench-app.js'),
          '--store',
          location,
          '--max-profiles',
          String(size * 2),
          '--max-store-mb',
          '100000',
        ],
      },
      120_000,
    );
    try {
      listen.push(performance.now() - begin);
      const response = await fetch(`${server.base}/hello/world`);
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`app serve answered ${response.status}`);
      answer.push(performance.now() - begin);
    } finally {
      await server.stop();
    }
  }
  return { listenMs: median(listen), firstAnswerMs: median(answer) };
}

async function measureStore(
  store: Store,
  size: number,
  fill: (store: Store, size: number, start: number) => Promise<void>,
): Promise<Figures> {
  const filled = store.filledFrom?.() ?? null;
  const start = filled ?? Date.now() - size * STEP - 60_000;
  const span = { oldest: start, newest: start + (size - 1) * STEP };
  const fillStart = performance.now();
  if (filled === null) {
    await fill(store, size, start);
    store.keep?.(start);
  }
  const fillMs = filled === null ? performance.now() - fillStart : NaN;
  const bytes = await store.diskBytes();
  const storage = await store.open();
  const cases: number[] = [];
  const matches: number[] = [];
  try {
    const total = await storage.count({ limit: 1 });
    // A kept store holds the profiles of the requests app serve answered in earlier runs too.
    if (filled === null ? total !== size : total < size)
      throw new Error(`the store holds ${total} profiles, not ${size}`);
    for (const c of CASES) {
      const q = c.query(span);
      matches.push(await storage.count(q));
      // A page counts as the /_profiler page, `profiles list` and MCP do: up to countBound (match-count.ts).
      cases.push(
        await timeIt(() =>
          c.count
            ? storage.count(q)
            : c.page
              ? Promise.all([storage.search(q), storage.count(q, countBound(q))])
              : storage.search(q),
        ),
      );
    }
    let n = 0;
    const readMs = await timeIt(() => storage.read(nthToken((n++ * 7717) % size)));
    await storage.close();
    const started = await serveStart(store.location, size);
    return { fillMs, cases, readMs, bytesPerProfile: bytes / size, matches, ...started };
  } finally {
    await storage.close();
  }
}

const ms = (value: number) =>
  (value < 10 ? value.toFixed(3) : value < 1000 ? value.toFixed(1) : value.toFixed(0)).padStart(10);
const k = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : `${n / 1_000}k`);

/** Each store filled, measured and removed in turn: one large store on disk at a time. */
export async function scaleComparison(backend: 'file' | 'postgres', server?: TempPostgres): Promise<string[]> {
  const make = backend === 'file' ? fileStore : (size: number) => postgresStore(server!, size);
  const fill = backend === 'file' ? fillFile : fillPostgres;
  const figures: Figures[] = [];
  for (const size of [SMALL, LARGE]) {
    const store = await make(size);
    try {
      figures.push(await measureStore(store, size, fill));
    } finally {
      await store.remove();
    }
  }
  const [small, large] = figures;
  const title = backend === 'file' ? 'embedded profile store' : 'PostgreSQL profile store';
  const lines = [
    `${title} at scale: ${SMALL.toLocaleString('en-US')} against ${LARGE.toLocaleString('en-US')} profiles (median ms; matches in the large store in brackets)`,
    `${'case'.padEnd(52)}${`${k(SMALL)} ms`.padStart(10)}${`${k(LARGE)} ms`.padStart(10)}   ratio  goal  met?`,
  ];
  const missed: string[] = [];
  CASES.forEach((c, i) => {
    const ratio = large.cases[i] / small.cases[i];
    const met = ratio <= c.goal;
    if (!met) missed.push(c.name);
    const name = `${c.name} (${large.matches[i].toLocaleString('en-US')})`;
    lines.push(
      `${name.padEnd(52)}${ms(small.cases[i])}${ms(large.cases[i])}  ${ratio.toFixed(2).padStart(6)}  ≤${String(c.goal).padEnd(4)} ${met ? 'yes' : 'NO'}`,
    );
  });
  lines.push(
    `${'load one profile'.padEnd(52)}${ms(small.readMs)}${ms(large.readMs)}  ${(large.readMs / small.readMs).toFixed(2).padStart(6)}`,
  );
  const startMet = large.firstAnswerMs <= 1000;
  lines.push(
    `${'app serve: launch to its first answer'.padEnd(52)}${ms(small.firstAnswerMs)}${ms(large.firstAnswerMs)}  ${(large.firstAnswerMs / small.firstAnswerMs).toFixed(2).padStart(6)}  ≤1 s  ${startMet ? 'yes' : 'NO'}`,
  );
  lines.push(
    `${'app serve: launch to listening'.padEnd(52)}${ms(small.listenMs)}${ms(large.listenMs)}  ${(large.listenMs / small.listenMs).toFixed(2).padStart(6)}`,
  );
  lines.push(
    `${'disk bytes per profile'.padEnd(52)}${small.bytesPerProfile.toFixed(0).padStart(10)}${large.bytesPerProfile.toFixed(0).padStart(10)}`,
  );
  const how =
    backend === 'file'
      ? `write() and a flush every ${FILL_BATCH.toLocaleString('en-US')}`
      : `${SMALL.toLocaleString('en-US')} through the store, the rest copied by INSERT ... SELECT generate_series, then VACUUM ANALYZE`;
  if (Number.isNaN(large.fillMs)) lines.push(`fill: none, the stores kept in ${KEEP} were measured again`);
  else
    lines.push(
      `fill: ${(small.fillMs / 1000).toFixed(1)} s and ${(large.fillMs / 1000).toFixed(1)} s (${how}; ${Math.round(LARGE / (large.fillMs / 1000)).toLocaleString('en-US')} profiles/s)`,
    );
  if (!startMet) missed.push('app serve start');
  lines.push(missed.length ? `goals missed: ${missed.join('; ')}` : 'every goal met');
  return lines;
}
