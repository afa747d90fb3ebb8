import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Request } from '../../../../core/http/request.js';
import { Response } from '../../../../core/http/response.js';
import { buildProfile } from '../../../../core/profiler/build-profile.js';
import { liveTraceFacts } from '../../../../core/profiler/trace-facts.js';
import { traceFor } from '../../../helpers/trace-for.js';
import type { Profile } from '../../../../core/profiler/profile.js';
import { RouteCollection } from '../../../../core/routing/route-collection.js';
import type { ProfileStore, StoreServing } from '../../../../core/profiler/storage/profile-storage.js';
import { nthToken, profile200, profile404 } from '../fixtures.js';
import { storedEntry } from '../../../../core/profiler/storage/stored-entry.js';
import { latestOf } from '../../../helpers/latest-of.js';

export interface OpenedStorage {
  storage: ProfileStore & StoreServing;
  /** closes and deletes what the storage kept */
  remove(): Promise<void>;
}

/** Recent enough for the default 7-day retention. */
const T0 = Math.floor(Date.now() / 1000) * 1000 - 3_600_000;

/** Ten profiles one second apart, token nthToken(i): even 200s from 127.0.0.1, odd 404s (and one 500, one POST) from 10.0.0.7. */
function tenProfiles(): Profile[] {
  return Array.from({ length: 10 }, (_, i) => {
    const options = { token: nthToken(i), time: T0 + i * 1000, seed: i };
    if (i === 7) return profile404({ ...options, status: 500, url: 'http://127.0.0.1:8000/boom', ip: '10.0.0.7' });
    if (i === 9)
      return profile404({ ...options, method: 'POST', url: 'http://127.0.0.1:8000/contact?x=1', ip: '10.0.0.7' });
    return i % 2 === 0
      ? profile200({ ...options, url: `http://127.0.0.1:8000/hello/n${i}` })
      : profile404({ ...options, ip: '10.0.0.7' });
  });
}

/** A profile or row less `instance`, which stores several servers share add (which server served it). */
function ownFields<T extends object | null>(value: T): T {
  if (value === null || !('instance' in value)) return value;
  const { instance: _instance, ...rest } = value as T & { instance?: string };
  return rest as T;
}

/** Every backend (a ProfileStore, and what a server writing it needs: StoreServing) must pass this; a backend's own test file calls it with its opener. */
export function runProfileStorageContract(name: string, open: () => Promise<OpenedStorage>): void {
  const test = suite(`${name} honours the ProfileStore contract`);
  let opened: OpenedStorage;
  let storage: ProfileStore & StoreServing;
  const fill = async (profiles = tenProfiles()) => {
    for (const profile of profiles) storage.writeBatch([storedEntry(profile)]);
    await storage.flush();
    return profiles;
  };
  const tokens = (rows: { token: string }[]) => rows.map((row) => row.token);

  test.before.each(async () => {
    opened = await open();
    storage = opened.storage;
  });
  test.after.each(async () => {
    await opened.remove();
  });

  test('when a profile is written, then read() returns it equal, while still queued and once on disk', async () => {
    const profile = profile404({ token: 'a1b2c3', time: T0 });
    storage.writeBatch([storedEntry(profile)]);
    assert.equal(ownFields(await storage.read('a1b2c3')), profile, 'read while queued');
    await storage.flush();
    assert.equal(
      JSON.parse(JSON.stringify(ownFields(await storage.read('a1b2c3')))),
      JSON.parse(JSON.stringify(profile)),
      'read from disk',
    );
  });

  test('when a profile built from a request whose URL carries a secret query parameter is written, then its value is nowhere in the queued or stored profile, nor in the list', async () => {
    const request = new Request({
      method: 'GET',
      target: '/contact?page=2&password=hunter2-value&api_key=k-123-value',
      headers: { host: '127.0.0.1:8000' },
    });
    const trace = traceFor(request, 'c0ffee');
    request.logger.withChannel('request').info('Matched route "contact".', { request_uri: request.url });
    storage.writeBatch([
      storedEntry(
        buildProfile(request, liveTraceFacts(request, trace), Response.text('missing', 404), new RouteCollection()),
      ),
    ]);
    const leaks = (value: unknown) => /hunter2-value|k-123-value/.test(JSON.stringify(value));
    assert.not.ok(leaks(await storage.read('c0ffee')), 'queued');
    await storage.flush();
    const stored = await storage.read('c0ffee');
    assert.not.ok(leaks(stored), 'stored');
    assert.not.ok(leaks(await storage.search({ limit: 10 })), 'listed');
    assert.is(stored?.url, 'http://127.0.0.1:8000/contact?page=2&password=[REDACTED]&api_key=[REDACTED]');
    assert.equal(await storage.search({ limit: 10, url: 'page=2' }).then((rows) => rows.length), 1);
  });

  test('when a token is queued or stored, then has() is true; otherwise false', async () => {
    storage.writeBatch([storedEntry(profile200({ token: '00aa00', time: T0 }))]);
    assert.ok(storage.has('00aa00'), 'queued');
    await storage.flush();
    assert.ok(storage.has('00aa00'), 'stored');
    assert.not.ok(storage.has('00aa01'));
  });

  test('when a token is unknown or malformed, then read() resolves to null', async () => {
    await fill();
    for (const token of ['ffffff', 'ABCDEF', '../../etc/passwd', '', 'abcdef0'])
      assert.is(await storage.read(token), null, token);
  });

  test('when searching without filters, then the newest come first, at most limit of them', async () => {
    await fill();
    assert.equal(tokens(await storage.search({ limit: 3 })), [9, 8, 7].map(nthToken));
    assert.is((await storage.search({ limit: 100 })).length, 10);
  });

  test('when a search row is returned, then it holds exactly the list fields', async () => {
    await fill();
    const [row] = (await storage.search({ limit: 1 })).map(ownFields);
    assert.equal(Object.keys(row).sort(), ['duration', 'ip', 'method', 'route', 'status', 'time', 'token', 'url']);
    assert.equal(row, {
      token: nthToken(9),
      status: 404,
      ip: '10.0.0.7',
      method: 'POST',
      url: 'http://127.0.0.1:8000/contact?x=1',
      time: T0 + 9000,
      duration: row.duration,
      route: null,
    });
  });

  test('when a matched request is listed, then its row names the route, queued and once stored', async () => {
    storage.writeBatch([storedEntry(profile200({ token: 'a1b2c3', time: T0 }))]);
    assert.is((await storage.search({ limit: 1 }))[0].route, 'hello', 'queued');
    await storage.flush();
    assert.is((await storage.search({ limit: 1 }))[0].route, 'hello', 'stored');
  });

  test('when searching with an offset, then that many matches are skipped, newest first, queued ones included', async () => {
    await fill();
    assert.equal(tokens(await storage.search({ limit: 3, offset: 3 })), [6, 5, 4].map(nthToken));
    assert.equal(tokens(await storage.search({ limit: 3, offset: 8 })), [1, 0].map(nthToken));
    assert.equal(tokens(await storage.search({ limit: 2, offset: 1, status: '4xx' })), [5, 3].map(nthToken));
    storage.writeBatch([storedEntry(profile200({ token: 'fedcba', time: T0 + 60_000 }))]);
    assert.equal(tokens(await storage.search({ limit: 2, offset: 1 })), [9, 8].map(nthToken));
    assert.equal(await storage.search({ limit: 5, offset: 50 }), []);
  });

  test('when counting, then every match is counted whatever the limit and offset, queued ones included', async () => {
    assert.is(await storage.count({ limit: 1 }), 0);
    await fill();
    assert.is(await storage.count({ limit: 1 }), 10);
    assert.is(await storage.count({ limit: 1, status: '404' }), 4);
    assert.is(await storage.count({ limit: 1, ip: '10.0.0.7', offset: 2 }), 5);
    storage.writeBatch([storedEntry(profile200({ token: 'fedcba', time: T0 + 60_000 }))]);
    assert.is(await storage.count({ limit: 1 }), 11);
    assert.is(await storage.count({ limit: 1, status: '200' }), 6);
  });

  test('when counting up to a bound, then a count within it is exact, and one past it is either exact or the bound plus one', async () => {
    await fill();
    const queries = [
      { limit: 1 },
      { limit: 1, ip: '10.0.0.7' },
      { limit: 1, ip: '10.0.0.7', status: '404', method: 'GET' },
      { limit: 1, token: nthToken(3).slice(0, 1) },
      { limit: 1, url: '/hello/n', hideProfiler: true },
      { limit: 1, since: T0 + 2000 },
    ];
    for (const query of queries) {
      const exact = await storage.count(query);
      for (const atMost of [0, 1, 2, exact - 1, exact, exact + 5]) {
        if (atMost < 0) continue;
        const bounded = await storage.count(query, atMost);
        const said = `${JSON.stringify(query)} up to ${atMost}: ${bounded} (exactly ${exact})`;
        if (exact <= atMost) assert.is(bounded, exact, said);
        else assert.ok(bounded === exact || bounded === atMost + 1, said);
      }
    }
  });

  test("when hiding the profiler's own requests, then /_profiler and what is under it is left out, and /_profilers is not", async () => {
    const urls = [
      'http://127.0.0.1:8000/_profiler/',
      'http://127.0.0.1:8000/_profiler',
      'http://127.0.0.1:8000/_profiler/latest?panel=log',
      'http://127.0.0.1:8000/_profilers',
      'http://127.0.0.1:8000/hello/_profiler',
    ];
    await fill(urls.map((url, i) => profile200({ token: nthToken(i), time: T0 + i * 1000, url })));
    assert.equal(tokens(await storage.search({ limit: 10, hideProfiler: true })), [4, 3].map(nthToken));
    assert.is(await storage.count({ limit: 10, hideProfiler: true }), 2);
    assert.is((await storage.search({ limit: 10 })).length, 5);
  });

  test('when filtering by status, then exact codes and classes like 4xx match', async () => {
    await fill();
    assert.equal(tokens(await storage.search({ limit: 10, status: '500' })), [nthToken(7)]);
    assert.equal(tokens(await storage.search({ limit: 10, status: '4xx' })), [9, 5, 3, 1].map(nthToken));
    assert.equal(tokens(await storage.search({ limit: 10, status: '5XX' })), [nthToken(7)]);
    assert.equal(tokens(await storage.search({ limit: 2, status: '2xx' })), [8, 6].map(nthToken));
  });

  test('when filtering by ip, method, url substring and token prefix, then only matching rows, newest first', async () => {
    await fill();
    assert.equal(tokens(await storage.search({ limit: 10, ip: '10.0.0.7' })), [9, 7, 5, 3, 1].map(nthToken));
    assert.equal(tokens(await storage.search({ limit: 10, method: 'post' })), [nthToken(9)]);
    assert.equal(tokens(await storage.search({ limit: 10, url: '/hello/n' })), [8, 6, 4, 2, 0].map(nthToken));
    assert.equal(tokens(await storage.search({ limit: 10, url: '/hello/n4' })), [nthToken(4)]);
    assert.equal(tokens(await storage.search({ limit: 10, token: nthToken(3).slice(0, 5) })), [nthToken(3)]);
    assert.equal(
      tokens(await storage.search({ limit: 10, ip: '10.0.0.7', status: '404', method: 'GET' })),
      [5, 3, 1].map(nthToken),
    );
  });

  test('when filtering by since and until, then both bounds are inclusive', async () => {
    await fill();
    assert.equal(
      tokens(await storage.search({ limit: 10, since: T0 + 3000, until: T0 + 5000 })),
      [5, 4, 3].map(nthToken),
    );
    assert.equal(tokens(await storage.search({ limit: 10, until: T0 })), [nthToken(0)]);
  });

  test('when profiles arrive out of time order (a slow request ends last), then search still lists by time, newest first', async () => {
    await fill([3, 1, 4, 0, 2].map((i) => profile200({ token: nthToken(i), time: T0 + i * 1000 })));
    assert.equal(tokens(await storage.search({ limit: 10 })), [4, 3, 2, 1, 0].map(nthToken));
    assert.equal(tokens(await storage.search({ limit: 10, status: '200', until: T0 + 2000 })), [2, 1, 0].map(nthToken));
  });

  test('when nothing matches or the limit is 0, then an empty list', async () => {
    await fill();
    assert.equal(await storage.search({ limit: 10, url: '/nowhere' }), []);
    assert.equal(await storage.search({ limit: 0 }), []);
  });

  test('when profiles are still queued, then search lists them too', async () => {
    await fill();
    storage.writeBatch([storedEntry(profile200({ token: 'fedcba', time: T0 + 60_000 }))]);
    assert.equal(tokens(await storage.search({ limit: 2 })), ['fedcba', nthToken(9)]);
  });

  test('when asking for the latest, then the newest summary, or null for an empty store', async () => {
    assert.is(await latestOf(storage), null);
    await fill();
    assert.is((await latestOf(storage))?.token, nthToken(9));
  });

  test('when a profile dated ten years ahead was stored first, then latest is the last to reach the store, and the arrival order says so', async () => {
    const tenYears = 10 * 365 * 86_400_000;
    await fill([profile200({ token: 'fff001', time: Date.now() + tenYears })]);
    await fill(tenProfiles());
    assert.is((await latestOf(storage))?.token, nthToken(9));
    const byArrival = await storage.search({ limit: 11, order: 'arrival' });
    assert.is(byArrival[0].token, nthToken(9), 'the last stored first');
    assert.is(byArrival[10].token, 'fff001', 'the planted one arrived first');
    assert.ok(
      byArrival.every((row, i) => i === 0 || row.arrival! < byArrival[i - 1].arrival!),
      'arrivals decrease',
    );
    assert.is((await storage.search({ limit: 1 }))[0].token, 'fff001', 'the list by time still shows what it claims');
  });

  test('when searching for arrivals after a mark, then only those that reached the store later, filtered, newest first', async () => {
    await fill(tenProfiles().slice(0, 5));
    const mark = (await storage.search({ limit: 1, order: 'arrival' }))[0].arrival!;
    await fill(tenProfiles().slice(5));
    assert.equal(
      tokens(await storage.search({ limit: 10, order: 'arrival', afterArrival: mark })),
      [9, 8, 7, 6, 5].map(nthToken),
    );
    assert.equal(
      tokens(await storage.search({ limit: 10, order: 'arrival', afterArrival: mark, status: '404' })),
      [9, 5].map(nthToken),
    );
    storage.writeBatch([storedEntry(profile200({ token: 'fedcba', time: T0 }))]);
    assert.is(
      (await storage.search({ limit: 1, order: 'arrival' }))[0].token,
      'fedcba',
      'a queued profile is the latest arrival',
    );
    assert.not.ok(
      tokens(await storage.search({ limit: 10, order: 'arrival', afterArrival: mark })).includes('fedcba'),
      'but has no arrival mark yet',
    );
  });

  test('when pruning with keep, then exactly the newest n remain and the count removed is returned', async () => {
    await fill();
    assert.is(await storage.prune({ keep: 4 }), 6);
    assert.equal(tokens(await storage.search({ limit: 100 })), [9, 8, 7, 6].map(nthToken));
    assert.is(await storage.read(nthToken(5)), null);
    assert.not.ok(storage.has(nthToken(5)));
    assert.is((await storage.read(nthToken(6)))?.token, nthToken(6));
    assert.is(await storage.prune({ keep: 4 }), 0);
  });

  test('when pruning older than a duration, then only younger profiles remain', async () => {
    const now = Date.now();
    await fill([0, 1, 2, 3].map((i) => profile200({ token: nthToken(i), time: now - (4 - i) * 60_000 })));
    assert.is(await storage.prune({ olderThanMs: 150_000 }), 2);
    assert.equal(tokens(await storage.search({ limit: 10 })), [3, 2].map(nthToken));
  });

  test('when pruned, then profiles written afterwards are kept', async () => {
    await fill();
    await storage.prune({ keep: 0 });
    storage.writeBatch([storedEntry(profile200({ token: 'abc999', time: Date.now() }))]);
    await storage.flush();
    assert.equal(tokens(await storage.search({ limit: 10 })), ['abc999']);
  });

  test('when cleared, then nothing is listed or readable, and writing works again', async () => {
    await fill();
    await storage.clear();
    assert.equal(await storage.search({ limit: 10 }), []);
    assert.is(await storage.read(nthToken(1)), null);
    assert.is(storage.stats().profiles, 0);
    storage.writeBatch([storedEntry(profile200({ token: '123abc', time: T0 }))]);
    await storage.flush();
    assert.is((await storage.read('123abc'))?.token, '123abc');
  });

  test('when profiles are written, then stats() counts them and the queue drains on flush', async () => {
    for (const profile of tenProfiles()) storage.writeBatch([storedEntry(profile)]);
    assert.is(storage.stats().queued, 10);
    assert.is(storage.stats().profiles, 10);
    await storage.flush();
    const stats = storage.stats();
    assert.equal({ profiles: stats.profiles, queued: stats.queued }, { profiles: 10, queued: 0 });
    assert.ok(stats.bytes > 0);
  });

  test('when closed twice, then the second close resolves too', async () => {
    await fill();
    await storage.close();
    await storage.close();
  });

  test.run();
}
