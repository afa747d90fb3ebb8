import { connect, type Socket } from 'node:net';

export interface RawClient {
  socket: Socket;
  /** everything the server sent so far */
  received(): string;
  /** resolves once the server closed the connection, to everything it sent */
  closed: Promise<string>;
}

/** A plain TCP client on loopback: the test writes bytes when it chooses and reads what came back. */
export function rawClient(base: string): RawClient {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  let answer = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (answer += chunk));
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  return { socket, received: () => answer, closed };
}
