import type { App } from '../../core/app/app.js';
import { recordingTools } from '../../core/debug/recording-tools.js';
import { buildKernel } from '../../core/kernel/build-kernel.js';
import { htmlErrorRenderer } from '../../render/error-renderer.js';

/** `app`'s kernel as `app serve --no-debug` builds it: no profiler, the HTML error pages. */
export function plainKernel(app: App) {
  return buildKernel(app, {
    debug: false,
    root: process.cwd(),
    errorRenderer: htmlErrorRenderer,
    recording: recordingTools,
  });
}
