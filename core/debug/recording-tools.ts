import type { RecordingTools } from '../kernel/controller.js';
import { dump } from './dump.js';
import { record } from './record.js';
import { requestStopwatch } from './stopwatch.js';

/** The recording helpers a controller's context carries, for the kernel's builder to hand it (buildKernel's `recording`). */
export const recordingTools: RecordingTools = { stopwatch: requestStopwatch, dump, record };
