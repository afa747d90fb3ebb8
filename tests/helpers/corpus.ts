import fc from 'fast-check';

/**
 * How much of a big corpus a suite runs: `npm test` runs a fixed sample of each (the same cases on
 * every run, chosen by a seed), so that feedback is fast; `npm run test:stress` runs every case
 * (tests/stress/corpora-in-full.stress.ts runs each sampling suite with APPKERNEL_TEST_CORPUS=full).
 */
export const FULL_CORPUS = process.env.APPKERNEL_TEST_CORPUS === 'full';

export interface Sampled<T> {
  item: T;
  /** its place in the whole corpus, so that a failure names the same case in both runs */
  index: number;
}

/**
 * `size` cases of the corpus, the same ones on every run for the same `seed` (each suite gives its
 * own, so that the suites together cover more of the corpus), plus every case `always` picks
 * (those taking a branch of their own); the whole corpus under test:stress.
 */
export function corpusSample<T>(
  items: readonly T[],
  options: { size: number; seed: string; always?: (item: T) => boolean },
): Sampled<T>[] {
  const all = items.map((item, index) => ({ item, index }));
  if (FULL_CORPUS || options.size >= items.length) return all;
  const [picked] = fc.sample(
    fc.shuffledSubarray([...all.keys()], { minLength: options.size, maxLength: options.size }),
    { seed: fnv1a(options.seed), numRuns: 1 },
  );
  const chosen = new Set(picked);
  return all.filter(({ item, index }) => chosen.has(index) || options.always?.(item));
}

/** A number from the seed's text, for fast-check's generator. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

/**
 * fast-check's parameters for a fuzzed property: a fifth of `numRuns` from a fixed seed under `npm test`
 * (the same inputs on every run), all of them from a fresh seed under test:stress (fast-check prints it on a failure).
 */
export function fuzzRuns(numRuns: number, seed: string): { numRuns: number; seed?: number } {
  return FULL_CORPUS ? { numRuns } : { numRuns: Math.ceil(numRuns / 5), seed: fnv1a(seed) };
}
