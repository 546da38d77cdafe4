/**
 * A 413 is answered as soon as the body is known to be too large, usually while the client is
 * still sending it. Closing the socket then, with the client's bytes unread, makes the kernel
 * send a reset, and a client that writes its whole body before it reads (most simple clients)
 * sees "connection reset" instead of the answer. So after such an answer the socket is
 * half-closed and what still arrives is read and thrown away, up to a limit of time and bytes,
 * before it is closed.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

type Closable = Socket & { destroySoon?: () => void };

export function drainBeforeClose(req: IncomingMessage, limits: { drainMs: number; drainBytes: number }): void {
  const socket: Closable = req.socket;
  // Node calls destroySoon once a `Connection: close` answer has been written, after it has
  // set the request to discard its body: that is the moment to start draining instead.
  socket.destroySoon = () => {
    socket.end();
    let read = 0;
    const close = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(close, limits.drainMs);
    req.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > limits.drainBytes) close();
    });
    req.once('end', close);
    socket.once('close', () => clearTimeout(timer));
    req.resume();
  };
}
