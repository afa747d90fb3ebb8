/** `/_profiler/<token>?panel=<name>&type=request`, unescaped. */
export function panelUrl(token: string, panel: string): string {
  return `/_profiler/${encodeURIComponent(token)}?panel=${panel}&type=request`;
}
