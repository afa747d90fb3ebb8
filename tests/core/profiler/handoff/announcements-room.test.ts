import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Announcements } from '../../../../core/profiler/handoff/announcements.js';

const test = suite('Announcements.whenBelow: the server waits for a profiler that is behind');

test('when fewer than the high mark are announced, then there is nothing to wait for', () => {
  const announced = new Announcements();
  for (let i = 0; i < 3; i++) announced.add(`t${i}`);
  assert.is(announced.whenBelow(4, 1_000), null);
});

test('when the high mark is reached, then the wait ends once half of it or fewer are announced, not before', async () => {
  const announced = new Announcements();
  for (let i = 0; i < 8; i++) announced.add(`t${i}`);
  const wait = announced.whenBelow(8, 60_000);
  assert.ok(wait);
  let done = false;
  void wait!.then(() => {
    done = true;
  });
  for (let i = 0; i < 3; i++) announced.settle(`t${i}`);
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(done, false, 'five still announced: above half of eight');
  announced.settle('t3');
  await new Promise((resolve) => setImmediate(resolve));
  assert.is(done, true, 'four announced: the wait is over');
});

test('when nothing settles, then the wait ends after its bound', async () => {
  const announced = new Announcements();
  announced.add('t0');
  const started = Date.now();
  await announced.whenBelow(1, 50);
  assert.ok(Date.now() - started >= 40);
});

test('when the room is released, then every wait under way ends at once', async () => {
  const announced = new Announcements();
  for (let i = 0; i < 4; i++) announced.add(`t${i}`);
  const waits = [announced.whenBelow(4, 60_000), announced.whenBelow(4, 60_000)];
  announced.releaseRoom();
  await Promise.all(waits);
  assert.is(announced.size, 4);
});

test.run();
