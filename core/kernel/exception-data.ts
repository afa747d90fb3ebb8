/** An error as the kernel flattens it: its chain, each with parsed frames (flatten-exception.ts). */

export interface CodeExcerpt {
  /** line number of lines[0] */
  start: number;
  lines: string[];
}

export interface Frame {
  /** function or Class.method, '(anonymous)' when unnamed */
  function: string;
  /** relative to the app root for app files; as given otherwise (node:internal/..., node_modules/...) */
  file: string | null;
  line: number | null;
  column: number | null;
  /** app: the app's own source; vendor: node_modules; internal: Node itself */
  kind: 'app' | 'vendor' | 'internal';
  excerpt?: CodeExcerpt;
}

export interface ExceptionRecord {
  class: string;
  message: string;
  status: number;
  headers: Record<string, string>;
  frames: Frame[];
}

/** Outermost first; chain[chain.length - 1] is the innermost cause. */
export interface ExceptionData {
  chain: ExceptionRecord[];
}
