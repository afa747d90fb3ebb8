import { Readable } from 'node:stream';
import { Request } from '../http/request.js';
import type { Kernel } from '../kernel/kernel.js';

export interface InProcessResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends a request through the kernel without a socket (for `app snapshot` and tests). */
export async function requestInProcess(
  kernel: Kernel,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: Buffer,
): Promise<InProcessResponse> {
  const request = new Request({
    method,
    target,
    headers: { host: 'localhost', ...lower(headers) },
    body,
    clientIp: '127.0.0.1',
  });
  // The kernel's request timeout keeps no process alive (a server does): without a socket, this does until the answer.
  const alive = setInterval(() => {}, 60_000);
  try {
    const response = await kernel.handle(request);
    let body = '';
    if (response.body instanceof Readable) {
      for await (const chunk of response.body) body += String(chunk);
    } else if (response.body !== null && method !== 'HEAD') {
      body = response.body.toString();
    }
    await kernel.terminate(request, response);
    return { status: response.status, headers: lower(response.headers), body };
  } finally {
    clearInterval(alive);
  }
}

function lower(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}
