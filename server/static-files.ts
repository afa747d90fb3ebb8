import { realpath } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';
import type send from '@fastify/send';
import { Response } from '../core/http/response.js';
import type { Kernel } from '../core/kernel/kernel.js';
import type { KernelEvent } from '../core/kernel/kernel-event.js';
import { KernelEvents } from '../core/kernel/kernel-events.js';

export interface StaticFilesOptions {
  /** the public folder; null: none, and no listener is added */
  dir: string | null;
  /** whether static answers are profiled like any request (off: no token, no profile) */
  profile: boolean;
}

/** Thrown from send's onFile hook: the file is reached through a symlink that leads out of the folder. */
class OutsideFolder extends Error {}

/** a `..` segment, with either slash: send decodes the path once, so it is looked for after one decoding */
const UP_SEGMENT = /(?:^|[\\/])\.\.(?:[\\/]|$)/;

function decodeOnce(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * kernel.request, before routing: GET and HEAD of a file in the public folder are answered from it
 * by @fastify/send (content type, ETag, Last-Modified, 304, Range, 416). `..` in any encoding is a 403,
 * a symlink out of the folder a 403; a path that is no file goes on to the router.
 */
export function addStaticFilesListener(kernel: Kernel, options: StaticFilesOptions): void {
  const dir = options.dir;
  let root: Promise<string> | null = null;
  const onFile = async (path: string) => {
    root ??= realpath(dir!);
    const rel = relative(await root, await realpath(path));
    if (rel.startsWith('..') || isAbsolute(rel)) throw new OutsideFolder();
  };
  const answer = (event: KernelEvent, response: Response) => {
    if (!options.profile) event.trace.token = null;
    event.setResponse(response);
  };
  if (dir === null) return;
  const forbidden = (event: KernelEvent) =>
    answer(event, Response.text('Forbidden: this path leads out of the public folder.', 403));
  kernel.dispatcher.addListener(
    KernelEvents.REQUEST,
    'StaticFilesListener::onKernelRequest',
    async (event: KernelEvent) => {
      const request = event.request;
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      if (UP_SEGMENT.test(decodeOnce(request.path))) return forbidden(event);
      let result: Awaited<ReturnType<typeof send>>;
      try {
        const { default: send } = await import('@fastify/send');
        result = await send(request as never, request.path, { root: dir, index: false, dotfiles: 'ignore', onFile });
      } catch (error) {
        if (!(error instanceof OutsideFolder)) throw error;
        return forbidden(event);
      }
      if (result.type === 'file') return answer(event, new Response(result.stream, result.statusCode, result.headers));
      // 412, 416: about the file; 404, and 403 for a folder: not a file, the router decides.
      if (result.type === 'error' && result.statusCode !== 404 && result.statusCode !== 403) {
        return answer(event, new Response(result.stream, result.statusCode, result.headers));
      }
      result.stream.destroy();
    },
    64,
  );
}
