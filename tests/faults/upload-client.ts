import { request as httpRequest } from 'node:http';
import { request } from 'undici';

/**
 * A client process posting bodies over the server's limit, run apart from the server (in one
 * process the two share an event loop and the client never races the server's close):
 * `node upload-client.js <url> <bytes> <count> node|chunked|undici` prints one JSON array of
 * what each post read, `413` or the client's error code.
 */
const CHUNK = Buffer.alloc(64 * 1024, 97);

function postWithNode(url: URL, bytes: number, chunked: boolean): Promise<string> {
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: url.pathname,
        agent: false,
        headers: chunked ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(bytes) },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve(`${response.statusCode} ${body.trim()}`));
        response.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    let sent = 0;
    const pump = (): void => {
      while (sent < bytes) {
        const part = bytes - sent >= CHUNK.length ? CHUNK : CHUNK.subarray(0, bytes - sent);
        sent += part.length;
        if (!req.write(part)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

async function postWithUndici(url: URL, bytes: number): Promise<string> {
  try {
    const response = await request(url, { method: 'POST', body: Buffer.alloc(bytes, 97) });
    return `${response.statusCode} ${(await response.body.text()).trim()}`;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

const [url, bytes, count, how] = process.argv.slice(2);
const results: string[] = [];
for (let i = 0; i < Number(count); i++) {
  results.push(
    how === 'undici'
      ? await postWithUndici(new URL(url), Number(bytes))
      : await postWithNode(new URL(url), Number(bytes), how === 'chunked'),
  );
}
process.stdout.write(JSON.stringify(results));
