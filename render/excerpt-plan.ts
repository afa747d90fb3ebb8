import type { Frame } from '../core/profiler/profile.js';

/**
 * What one frame does with its code excerpt: shows it (marking `calls`, the lines of later frames
 * it also holds), or, when its line is in an excerpt shown before, points there instead.
 */
export interface FrameExcerpt {
  above: boolean;
  calls: number[];
}

/** A frame's plan: undefined for a frame that has no excerpt to show. */
export type ExcerptPlan = readonly (FrameExcerpt | undefined)[];

interface Shown {
  file: string;
  start: number;
  end: number;
  line: number | null;
  calls: number[];
}

/**
 * The plan of each frame list of an exception chain, outermost first: every line of the app's
 * code is shown once. A frame whose line another frame's excerpt already shows (a call a few lines
 * below the throw in the same file, a cause thrown where it was caught) gets no excerpt of its own;
 * that line is marked in the excerpt that shows it.
 */
export function planExcerpts(lists: readonly (readonly Frame[])[]): ExcerptPlan[] {
  const shown: Shown[] = [];
  return lists.map((frames) =>
    frames.map((frame): FrameExcerpt | undefined => {
      if (frame.kind !== 'app' || !frame.excerpt || frame.file === null) return undefined;
      const { file, line } = frame;
      const holder = line === null ? undefined : shown.find((s) => s.file === file && line >= s.start && line <= s.end);
      if (holder !== undefined && line !== null) {
        if (line !== holder.line && !holder.calls.includes(line)) holder.calls.push(line);
        return { above: true, calls: [] };
      }
      const entry: Shown = {
        file,
        start: frame.excerpt.start,
        end: frame.excerpt.start + frame.excerpt.lines.length - 1,
        line,
        calls: [],
      };
      shown.push(entry);
      return { above: false, calls: entry.calls };
    }),
  );
}

/** A short key of a plan (empty when every excerpt shows whole and unmarked), for the frame lists' memo. */
export function planKey(plan: ExcerptPlan): string {
  let key = '';
  plan.forEach((entry, i) => {
    if (entry !== undefined && (entry.above || entry.calls.length > 0))
      key += `${i}${entry.above ? 'a' : `c${entry.calls.join(',')}`};`;
  });
  return key;
}
