import fc from 'fast-check';
import { createDemoApp } from '../../core/app/demo-app.js';
import { createAppKernel } from '../../server/kernel-factory.js';
import { WebProfiler } from '../../web-profiler/web-profiler.js';
import { ProfileIntake } from '../../core/profiler/handoff/profile-intake.js';
import { Request } from '../../core/http/request.js';
import type { Response } from '../../core/http/response.js';
import type { Kernel } from '../../core/kernel/kernel.js';
import { RecordingTrace } from '../../core/kernel/request-trace.js';
import { openTempStore, type TempStore } from '../core/profiler/storage/temp-store.js';

/**
 * The demo app with the profiler, in process, on a temporary store (`intake`: the store as its server
 * reads it); `close` lands the profiles still on their way before the store's folder is removed.
 */
export async function fuzzKernel(): Promise<{
  kernel: Kernel;
  store: TempStore;
  intake: ProfileIntake;
  close: () => Promise<void>;
}> {
  const store = await openTempStore();
  const intake = new ProfileIntake({ store: store.storage, serving: store.storage }, { warn: () => {} });
  return {
    kernel: createAppKernel(createDemoApp(), {
      debug: true,
      root: process.cwd(),
      profiler: new WebProfiler(intake, () => {}),
    }),
    store,
    intake,
    close: async () => {
      await intake.close();
      await store.remove();
    },
  };
}

export interface Handled {
  request: Request;
  /** the profile token; null when the request was not profiled */
  token: string | null;
  response: Response;
  body: string;
  /** classes of the exception chain, outermost first; [] when nothing was thrown */
  errors: string[];
}

/** One request through kernel.handle and kernel.terminate, as the HTTP adapter sends it. */
export async function handle(
  kernel: Kernel,
  method: string,
  target: string,
  headers: Record<string, string> = {},
): Promise<Handled> {
  const request = new Request({ method, target, headers: { host: 'fuzz.test', ...headers }, clientIp: '127.0.0.1' });
  const response = await kernel.handle(request);
  await kernel.terminate(request, response);
  const trace = kernel.traceOf(request);
  const exception = trace instanceof RecordingTrace ? trace.exception : null;
  return {
    request,
    token: trace.token,
    response,
    body: typeof response.body === 'string' ? response.body : '',
    errors: exception?.chain.map((e) => e.class) ?? [],
  };
}

/** Characters that stress decoding: escapes (valid, truncated, overlong, non-UTF-8), dots, slashes, unicode, controls. */
const PIECES = [
  '/',
  '/',
  '%',
  '%2',
  '%2F',
  '%2f',
  '%25',
  '%00',
  '%C0%AF',
  '%E0%A4',
  '%FF',
  '%C3%A9',
  '%2e%2e',
  '..',
  '.',
  '?',
  '&',
  '=',
  '#',
  '+',
  ';',
  ' ',
  '\t',
  '\n',
  '\u0000',
  'é',
  '\u2028',
  '\ud83d\ude00',
  '\ud800',
  '<',
  '"',
  "'",
  '\\',
  'a',
  'b',
  'hello',
  'world',
  '_profiler',
  'search',
  'latest',
  '.json',
  'boom',
];

/** A request target: a slash, then any mix of the pieces above and arbitrary unicode. */
export const hostileTarget = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 12 })
  .map((parts) => `/${parts.join('')}`);

export const method = fc.constantFrom(
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'PROPFIND',
  'TRACE',
  'get',
  'M-SEARCH',
);
