import { connect, type Socket } from 'node:net';

export interface SlowSocket {
  socket: Socket;
  /** resolves, once the server closed the socket, to everything it answered */
  closed: Promise<string>;
  open(): boolean;
}

/**
 * A client on loopback that sends `start` at once, then one byte of `drip`
 * every `everyMs` (cycling), never finishing: a slowloris when `start` is an
 * unfinished head, a slow upload when it is a whole head announcing a body.
 */
export function slowSocket(base: string, start: string, drip: string, everyMs: number): SlowSocket {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  let answer = '';
  let i = 0;
  let timer: NodeJS.Timeout | undefined;
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (answer += chunk));
  socket.on('error', () => {});
  socket.on('connect', () => {
    socket.write(start);
    timer = setInterval(() => {
      if (socket.writable) socket.write(drip[i++ % drip.length]);
    }, everyMs);
  });
  const closed = new Promise<string>((resolve) =>
    socket.on('close', () => {
      clearInterval(timer);
      resolve(answer);
    }),
  );
  return { socket, closed, open: () => !socket.destroyed };
}
