import { connect, type Socket } from 'node:net';

export interface TricklingCrowd {
  /** connections open now (connected, not yet closed) */
  open(): number;
  /** connections made so far */
  connected(): number;
  /** each closed connection: how long it stayed open (ms, from its connect) and what the server answered */
  closed: { livedMs: number; answer: string }[];
  /** closes every connection and makes no new ones */
  stop(): void;
}

/**
 * `size` clients on loopback, each keeping one trickling connection open: half send an unfinished
 * request head, half a whole head announcing a 100 kB body, then one byte every `everyMs`. A
 * connection the server closes is made again after `reconnectMs`, as a slowloris tool does.
 */
export function tricklingCrowd(base: string, size: number, everyMs: number, reconnectMs: number): TricklingCrowd {
  const { hostname, port } = new URL(base);
  const sockets = new Set<Socket>();
  const closed: { livedMs: number; answer: string }[] = [];
  let open = 0;
  let connected = 0;
  let stopped = false;

  const start = (i: number): void => {
    const head = i % 2 === 0;
    const socket = connect(Number(port), hostname);
    sockets.add(socket);
    let since = 0;
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => {});
    socket.on('connect', () => {
      since = Date.now();
      open++;
      connected++;
      socket.write(
        head
          ? `GET /hello/slow${i} HTTP/1.1\r\nHost: 127.0.0.1\r\n`
          : 'POST /contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n',
      );
      timer = setInterval(() => {
        if (socket.writable) socket.write(head ? 'X' : 'x');
      }, everyMs);
    });
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
      if (since > 0) {
        open--;
        if (!stopped) closed.push({ livedMs: Date.now() - since, answer });
      }
      if (!stopped)
        setTimeout(() => {
          if (!stopped) start(i);
        }, reconnectMs);
    });
  };

  for (let i = 0; i < size; i++) start(i);
  return {
    open: () => open,
    connected: () => connected,
    closed,
    stop() {
      stopped = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}
