import { getHeapStatistics } from 'node:v8';
import type { AppPanel } from '../core/app/app-panel.js';
import { panelRows } from '../core/app/app-panel.js';
import type { Controller } from '../core/app/controller.js';
import { HTTP_CLIENT_COLLECTOR, type OutgoingCall } from '../core/debug/http-client-capture.js';
import { ENTRIES_KEY, addEntry, recorderFor, type RequestEntries } from '../core/debug/request-recording.js';
import { runInRequestScope } from '../core/debug/request-scope.js';
import { Stopwatch } from '../core/debug/stopwatch.js';
import type { KernelEvent } from '../core/kernel/kernel-event.js';
import { CONFIG_COLLECTOR } from '../core/profiler/collectors/config-collector.js';
import { CUSTOM_PREFIX } from '../core/profiler/collectors/custom-collector.js';
import { MEMORY_COLLECTOR, STOPWATCH_COLLECTOR } from '../core/profiler/collectors/time-collector.js';
import type { ConfigData, MemoryData } from '../core/profiler/panel-data.js';
import { formatMs } from '../render/format.js';

/** Where the toolbar finds the extra items this listener adds (plain text). */
export const TOOLBAR_ITEMS_KEY = 'profiler.toolbar-items';

/** RSS costs a read of /proc: read at most this often, the heap every request. */
const RSS_EVERY_MS = 250;

/**
 * What a profiled request records besides the kernel's trace. kernel.controller_arguments: the
 * controller runs in the request's recording scope (outgoing calls, dump(), record() land in its
 * profile) with a stopwatch on its timeline. kernel.response: the memory, the configuration, the
 * app's panels' rows, and the toolbar's count of outgoing calls.
 */
export class RecordingListener {
  #rss = 0;
  #rssAt = -Infinity;

  constructor(private readonly config: ConfigData | null, private readonly panels: ReadonlyMap<string, AppPanel>) {}

  readonly onKernelControllerArguments = (event: KernelEvent): void => {
    const { request } = event;
    const context = event.controllerArguments[0] as { stopwatch?: Stopwatch } | undefined;
    const controller = event.controller as Controller | null;
    if (!request.token || !context || typeof controller !== 'function') return;
    const recorder = recorderFor(request);
    context.stopwatch = new Stopwatch(recorder.elapsed, (span) => recorder.add(STOPWATCH_COLLECTOR, span));
    event.controller = (ctx) => runInRequestScope(recorder, () => controller(ctx));
  };

  readonly onKernelResponse = (event: KernelEvent): void => {
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
