import type { Socket } from 'node:net';

export interface LingerLimits {
  /** ms to keep reading after the answer */
  ms: number;
  /** bytes to discard before giving up on the client */
  bytes: number;
}

export const DEFAULT_LINGER: LingerLimits = { ms: 2_000, bytes: 8 * 1024 * 1024 };

/**
 * Makes the close node:http does after a `Connection: close` answer a lingering one. Node
 * destroys the socket as soon as the answer is flushed; a client still uploading its body
 * then gets a reset, and most clients report EPIPE or ECONNRESET without reading the answer.
 * Instead the write side is half-closed (the answer and a FIN go out) and whatever the
 * client still sends is read and dropped, until it closes its side or a limit is reached.
 */
export function lingerOnClose(socket: Socket, limits: LingerLimits = DEFAULT_LINGER): void {
  // destroySoon is what node:http calls on a socket whose last answer was sent.
  socket.destroySoon = function lingeringClose(this: Socket): void {
    this.end();
    let discarded = 0;
    const close = (): void => {
      clearTimeout(timer);
      this.destroy();
    };
    const timer = setTimeout(close, limits.ms);
    this.on('data', (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > limits.bytes) close();
    });
    this.once('end', close);
    this.once('close', () => clearTimeout(timer));
    this.resume();
  };
}
