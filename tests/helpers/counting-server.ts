import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { instanceKey } from '../../core/profiler/instance-proof.js';
import { answerInstanceProof } from './instance-proof-answer.js';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface CountingServer {
  port: number;
  base: string;
  /** every request it got, in order, but the identity checks of replay (`probes`) */
  received: Received[];
  /** replay's identity checks (GET /_profiler/instance-proof), answered only when it proves itself */
  probes: Received[];
  stop(): Promise<void>;
}

/**
 * A plain server on 127.0.0.1 that answers 200 "counted" (no debug token) and keeps each request it gets.
 * With `provesInstance` it also answers replay's identity check as the server that recorded a profile would.
 */
export function startCountingServer(options: { provesInstance?: boolean } = {}): Promise<CountingServer> {
  // as app serve does when it starts: replay checks for the key before it asks the server
  if (options.provesInstance) instanceKey(true);
  const received: Received[] = [];
  const probes: Received[] = [];
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/_profiler/instance-proof')) {
      probes.push({ method: req.method ?? '', url: req.url, headers: req.headers });
      if (!options.provesInstance) res.writeHead(404).end('no such page');
      else answerInstanceProof(req, res);
      return;
    }
    received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    req.on('end', () => res.end('counted'));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        port,
        base: `http://127.0.0.1:${port}`,
        received,
        probes,
        stop: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A request with its target and headers sent byte for byte (a planted Host, a path like "//other/x"). */
export function sendRaw(
  base: string,
  init: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, method: init.method ?? 'GET', path: init.path, headers: init.headers, agent: false },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}
