/**
 * Levenshtein distance between `a` and `b`, or `limit + 1` once it is known to exceed `limit`.
 * Only the band of cells within `limit` of the diagonal is computed: a hostile path of
 * kilobytes costs its length times the limit, not its length squared.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  // A common prefix and suffix never change the distance: a path and a route filled from its
  // own segments often differ only in a few characters.
  let start = 0;
  while (start < a.length && start < b.length && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let end = 0;
  while (
    end < a.length - start &&
    end < b.length - start &&
    a.charCodeAt(a.length - 1 - end) === b.charCodeAt(b.length - 1 - end)
  )
    end++;
  if (start > 0 || end > 0) {
    a = a.slice(start, a.length - end);
    b = b.slice(start, b.length - end);
  }
  const over = limit + 1;
  let previous = new Array<number>(b.length + 1).fill(over);
  let current = new Array<number>(b.length + 1).fill(over);
  for (let j = 0; j <= b.length; j++) previous[j] = j <= limit ? j : over;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(b.length, i + limit);
    // Cells just outside the band count as over the limit; the rest of the row is never read.
    current[0] = i <= limit ? i : over;
    if (from > 1) current[from - 1] = over;
    if (to < b.length) current[to + 1] = over;
    let best = current[0];
    for (let j = from; j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost, over);
      current[j] = value;
      if (value < best) best = value;
    }
    if (best > limit) return over;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[b.length], over);
}
