// A dev box's traffic as the store benches write it: profile i of a store, the same for any size.
import type { Profile } from '../../core/profiler/profile.js';
import { nthToken, profile200, profile404, type FixtureOptions } from '../../tests/core/profiler/fixtures.js';

const BASE = 'http://127.0.0.1:8000';
const NAMES = ['world', 'ann', 'bob', 'carla', 'dmitri', 'eve', 'farah', 'gus', 'hana', 'ivo'];

/** A dev box's traffic, per 1,000 requests. */
export const TRAFFIC: { per1000: number; make: (o: FixtureOptions, i: number) => Profile }[] = [
  { per1000: 400, make: (o, i) => profile200({ ...o, url: `${BASE}/hello/${NAMES[i % NAMES.length]}` }) },
  { per1000: 200, make: (o) => profile200({ ...o, url: `${BASE}/` }) },
  { per1000: 100, make: (o, i) => profile200({ ...o, url: `${BASE}/orders/${i % 500}` }) },
  { per1000: 200, make: (o) => profile404({ ...o, url: `${BASE}/robots.txt` }) },
  { per1000: 50, make: (o) => profile404({ ...o, url: `${BASE}/favicon.ico` }) },
  { per1000: 45, make: (o) => profile404({ ...o, method: 'POST', status: 405, url: `${BASE}/contact` }) },
  { per1000: 4, make: (o) => profile404({ ...o, status: 500, url: `${BASE}/boom` }) },
  { per1000: 1, make: (o) => profile404({ ...o, url: `${BASE}/wp-admin/install.php` }) },
];

export function nthProfile(i: number, time: number): Profile {
  let slot = (i * 7919) % 1000;
  const options = { token: nthToken(i), time, seed: i, ip: i % 5 === 0 ? `192.168.1.${i % 7}` : '127.0.0.1' };
  for (const kind of TRAFFIC) {
    if (slot < kind.per1000) return kind.make(options, i);
    slot -= kind.per1000;
  }
  throw new Error('TRAFFIC must add up to 1000');
}
