import { levelStyle, paint } from '../render/text/ansi.js';

/** A log record as the terminal sink prints it: "HH:MM:SS LEVEL    [channel] message". */
const RECORD = /^(\d\d:\d\d:\d\d )([A-Z]+)( +\[)/;

/**
 * `app serve`'s log line with its level coloured as in `profiles show`; other lines (requests,
 * reloads, warnings) and every line when colour is off are returned as they are. The line was
 * made terminal-safe by the sink: only the level, a known word, gets styled.
 */
export function paintLogLevel(line: string, color: boolean): string {
  if (!color) return line;
  return line.replace(RECORD, (whole, clock: string, level: string, rest: string) => {
    const style = levelStyle(level);
    return style ? `${clock}${paint(level, style, true)}${rest}` : whole;
  });
}
