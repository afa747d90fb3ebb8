import { createHtmlErrorRenderer } from '../render/error-renderer.js';
import { buildKernel } from '../core/kernel/build-kernel.js';
import { recordingTools } from '../core/debug/recording-tools.js';
import type { Kernel } from '../core/kernel/kernel.js';
import type { ProfilerExtensionOptions, WebProfiler } from '../web-profiler/web-profiler.js';
import type { App } from '../core/app/app.js';
import type { ConfigData } from '../core/profiler/panel-data.js';

export interface AppKernelOptions {
  debug: boolean;
  root: string;
  /** required in debug mode: the profiler of the store profiles go to */
  profiler: WebProfiler | null;
  /** URL template (%f, %l) of the error pages' "open in editor" links; none when null or absent */
  editor?: string | null;
  /** the configuration panel's data */
  config?: ConfigData | null;
  /** what the profiler records of app code (default: everything) */
  recording?: Pick<ProfilerExtensionOptions, 'httpClient' | 'appRecords'> & { database?: false };
  /** ms: queries at least this long are marked slow (`--slow-query`); none when null or absent */
  slowQueryMs?: number | null;
  /** runs of one statement in a request whose stack is taken (`--query-stacks`); default 3 */
  queryStacks?: number;
}

/** The kernel `app serve` runs: the app, plus the profiler when debug is on. */
export function createAppKernel(app: App, options: AppKernelOptions): Kernel {
  const editor = options.editor ? { template: options.editor, root: options.root } : null;
  const extensions =
    options.debug && options.profiler
      ? [
          options.profiler.extension({
            database: {
              root: options.root,
              slowQueryMs: options.slowQueryMs ?? null,
              ...(options.queryStacks === undefined ? {} : { stackedRuns: options.queryStacks }),
            },
            ...options.recording,
            config: options.config ?? null,
            panels: app.panels,
            editor,
          }),
        ]
      : [];
  return buildKernel(app, {
    debug: options.debug,
    root: options.root,
    extensions,
    errorRenderer: createHtmlErrorRenderer(editor),
    recording: recordingTools,
  });
}
