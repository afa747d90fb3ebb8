import { getHeapStatistics } from 'node:v8';
import type { AppPanel } from '../core/app/app-panel.js';
import { panelRows } from '../core/app/app-panel.js';
import { recorderFor, serialiseOnce } from '../core/debug/request-recording.js';
import { enterRequestScope } from '../core/debug/request-scope.js';
import type { Request } from '../core/http/request.js';
import type { KernelEvent } from '../core/kernel/kernel-event.js';
import { RecordingTrace, type RequestTrace } from '../core/kernel/request-trace.js';
import { CONFIG_COLLECTOR } from '../core/profiler/collectors/config-collector.js';
import { CUSTOM_PREFIX } from '../core/profiler/collectors/custom-collector.js';
import { MEMORY_COLLECTOR } from '../core/profiler/collectors/time-collector.js';
import type { ConfigData, MemoryData } from '../core/profiler/panel-data.js';

/** RSS costs a read of /proc: read at most this often. */
const RSS_EVERY_MS = 250;
/** The heap's figures cost a call into V8: read at most once a millisecond, requests within it share them. */
const HEAP_EVERY_MS = 1;

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
  #memory: MemoryData | null = null;
  #memoryAt = -Infinity;

  private readonly config: ConfigData | null;

  constructor(
    config: ConfigData | null,
    private readonly panels: ReadonlyMap<string, AppPanel>,
  ) {
    this.config = config && serialiseOnce(config);
  }

  readonly begin = (request: Request, trace: RequestTrace): void => {
    enterRequestScope(trace.token ? recorderFor(request, trace) : null);
  };

  readonly atResponse = (event: KernelEvent): void => {
    const { trace } = event;
    if (!trace.token) return;
    trace.addEntry(MEMORY_COLLECTOR, this.memory(trace.latest()));
    if (this.config) trace.addEntry(CONFIG_COLLECTOR, this.config);
    const entries = trace instanceof RecordingTrace ? trace.entries : null;
    for (const [name, panel] of this.panels) {
      const key = `app:${name}`;
      trace.addEntry(`${CUSTOM_PREFIX}${name}`, {
        title: panel.title ?? name,
        columns: panel.columns,
        rows: panelRows(panel, entries?.get(key) ?? []),
      });
    }
    // Entries for panels the app did not define go nowhere.
    for (const key of entries?.keys() ?? []) if (key.startsWith('app:')) entries!.delete(key);
  };

  /** The same object for the requests answered within HEAP_EVERY_MS: a trace keeps it by reference and never changes it. */
  private memory(now: number): MemoryData {
    if (this.#memory !== null && now - this.#memoryAt < HEAP_EVERY_MS) return this.#memory;
    if (now - this.#rssAt >= RSS_EVERY_MS) {
      this.#rss = process.memoryUsage.rss();
      this.#rssAt = now;
    }
    const heap = getHeapStatistics();
    this.#memoryAt = now;
    return (this.#memory = {
      rss: this.#rss,
      heapUsed: heap.used_heap_size,
      heapTotal: heap.total_heap_size,
      external: heap.external_memory,
    });
  }
}
