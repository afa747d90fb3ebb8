import { AppError } from '../errors.js';
import { instanceKey, isProofOf, newNonce } from './instance-proof.js';
import { showControls } from './shell-quote.js';
import { INSTANCE_PROOF_PATH } from './profiler-urls.js';

const PROOF_TIMEOUT_MS = 3_000;

/**
 * Fails with APP_ERR_REPLAY unless the server at `origin` (the loopback origin a profile's recorded
 * port gives) proves it is this user's appkernel server on that port (instance-proof.ts). Asked
 * with a bare GET: no recorded or given header, and no body, goes out before the answer is checked.
 * `what` says what could not be done when nothing answers ("replay GET http://…/path").
 */
export async function verifyRecordingServer(origin: string, token: string, what: string): Promise<void> {
  const refuse = (why: string) =>
    new AppError(
      'APP_ERR_REPLAY',
      `Not sent: the profile ${token} names ${showControls(origin)} as the server that recorded it, and ${why}. ` +
        'A stored profile can be planted by anyone who can write to the store. Name the server to send to with --target (e.g. --target http://127.0.0.1:8000).',
    );
  const key = instanceKey(false);
  if (key === null) throw refuse('this machine has no appkernel instance key (app serve makes one) to check it with');
  const port = originPort(origin);
  const nonce = newNonce();
  let answer: { statusCode: number; text: string };
  try {
    const { request } = await import('undici');
    const response = await request(`${origin}${INSTANCE_PROOF_PATH}?nonce=${nonce}`, {
      method: 'GET',
      headersTimeout: PROOF_TIMEOUT_MS,
      bodyTimeout: PROOF_TIMEOUT_MS,
    });
    answer = { statusCode: response.statusCode, text: await response.body.text() };
  } catch (error) {
    throw new AppError(
      'APP_ERR_REPLAY',
      `Cannot ${what}: ${(error as Error).message}. Is the server running? (use --target to choose another)`,
      { cause: error },
    );
  }
  if (answer.statusCode !== 200)
    throw refuse(
      `the server there answered ${answer.statusCode} when asked to prove it is appkernel's (is it another program, or an appkernel without its profiler?)`,
    );
  let proof: unknown;
  try {
    proof = (JSON.parse(answer.text) as { proof?: unknown }).proof;
  } catch {
    proof = null;
  }
  if (!isProofOf(key, nonce, port, proof))
    throw refuse('the server there could not prove it is an appkernel server of this machine listening on that port');
}

function originPort(origin: string): number {
  const url = new URL(origin);
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}
