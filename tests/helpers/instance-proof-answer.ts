import type { IncomingMessage, ServerResponse } from 'node:http';
import { instanceKey, instanceProof } from '../../core/profiler/instance-proof.js';
import { INSTANCE_PROOF_PATH } from '../../core/profiler/profiler-urls.js';

/**
 * Answers a replay's identity check as `app serve` does (the same user's key, the port the request
 * came in on): for a test server that stands for the server that recorded a profile. True when it answered.
 */
export function answerInstanceProof(req: IncomingMessage, res: ServerResponse): boolean {
  const url = new URL(req.url ?? '/', 'http://x');
  if (url.pathname !== INSTANCE_PROOF_PATH) return false;
  const proof = instanceProof(instanceKey(true)!, url.searchParams.get('nonce') ?? '', req.socket.localPort ?? 0);
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ proof }));
  return true;
}
