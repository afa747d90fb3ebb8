import { getHeapStatistics } from 'node:v8';
import type { AppPanel } from '../core/app/app-panel.js';
import { panelRows } from '../core/app/app-panel.js';
import { HTTP_CLIENT_COLLECTOR, type OutgoingCall } from '../core/debug/http-client-capture.js';
import { ENTRIES_KEY, addEntry, recorderFor, serialiseOnce, type RequestEntries } from '../core/debug/request-recording.js';
import { enterRequestScope } from '../core/debug/request-scope.js';
import type { Request } from '../core/http/request.js';
import type { KernelEvent } from '../core/kernel/kernel-event.js';
import { CONFIG_COLLECTOR } from '../core/profiler/collectors/config-collector.js';
import { CUSTOM_PREFIX } from '../core/profiler/collectors/custom-collector.js';
import { MEMORY_COLLECTOR } from '../core/profiler/collectors/time-collector.js';
import type { ConfigData, MemoryData } from '../core/profiler/panel-data.js';
import { formatMs } from '../render/format.js';

/** Where the toolbar finds the extra items this listener adds (plain text). */
export const TOOLBAR_ITEMS_KEY = 'profiler.toolbar-items';

/** RSS costs a read of /proc: read at most this often, the heap every request. */
const RSS_EVERY_MS = 250;

/**
 * What a profiled request records besides the kernel's trace. begin(), as the kernel starts the
 * request: its listeners and controller run in the request's recording scope (outgoing calls, spans,
 * dump(), record() land in its profile). atResponse(), from the profiler's kernel.response listener:
 * the memory, the configuration, the app's panels' rows, and the toolbar's count of outgoing calls.
 * Neither is a listener of its own: the kernel's event log and the events panel stay as they were.
 */
export class RequestRecording {
  #rss = 0;
  #rssAt = -Infinity;

  private readonly config: ConfigData | null;

  constructor(config: ConfigData | null, private readonly panels: ReadonlyMap<string, AppPanel>) {
    this.config = config && serialiseOnce(config);
  }

  readonly begin = (request: Request): void => {
    enterRequestScope(request.token ? recorderFor(request) : null);
  };

  readonly atResponse = (event: KernelEvent): void => {
    const { request } = event;
    if (!request.token) return;
    addEntry(request.extra, MEMORY_COLLECTOR, this.memory());
    if (this.config) addEntry(request.extra, CONFIG_COLLECTOR, this.config);
    const entries = request.extra.get(ENTRIES_KEY) as RequestEntries | undefined;
    for (const [name, panel] of this.panels) {
      const key = `app:${name}`;
      addEntry(request.extra, `${CUSTOM_PREFIX}${name}`, { title: panel.title ?? name, columns: panel.columns, rows: panelRows(panel, entries?.get(key) ?? []) });
    }
    // Entries for panels the app did not define go nowhere.
    for (const key of entries?.keys() ?? []) if (key.startsWith('app:')) entries!.delete(key);
    const calls = entries?.get(HTTP_CLIENT_COLLECTOR) as OutgoingCall[] | undefined;
    if (calls?.length) {
      const total = calls.reduce((sum, call) => sum + (call.duration ?? 0), 0);
      request.extra.set(TOOLBAR_ITEMS_KEY, [`${calls.length} HTTP call${calls.length === 1 ? '' : 's'} · ${formatMs(total)}`]);
    }
  };

  private memory(): MemoryData {
    const heap = getHeapStatistics();
    const now = performance.now();
    if (now - this.#rssAt >= RSS_EVERY_MS) {
      this.#rss = process.memoryUsage.rss();
      this.#rssAt = now;
    }
    return { rss: this.#rss, heapUsed: heap.used_heap_size, heapTotal: heap.total_heap_size, external: heap.external_memory };
  }
}
