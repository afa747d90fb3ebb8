// The bare platform: node:http answering the bench routes by hand.
import { createServer } from 'node:http';

const HELLO = /^\/hello\/([^/]+)$/;

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const path = url.split('?', 1)[0];
  const hello = HELLO.exec(path);
  if (path === '/static') return send(res, 200, { ok: true });
  if (hello) return send(res, 200, { hello: decodeURIComponent(hello[1]) });
  send(res, 404, { error: 'Not Found', path });
});

function send(res: import('node:http').ServerResponse, status: number, data: unknown): void {
  const body = JSON.stringify(data);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address() as { port: number };
  console.log(`listening at http://127.0.0.1:${address.port}/`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
