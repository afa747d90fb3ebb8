/** What every text renderer is told about the terminal it writes to. */
export interface TextOptions {
  color: boolean;
  /** the terminal's width in columns, which tables and wrapped values fit; no limit when absent */
  width?: number;
  /** the reader's clock, to note a profile dated ahead of it; no note when absent */
  now?: number;
}
