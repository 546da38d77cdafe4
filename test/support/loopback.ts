/**
 * Servers a test starts on 127.0.0.1 in place of the outside world (a publisher's file server, a
 * proxy in front of the service, a recorder of requests), and ports nothing listens on. Each
 * server is stopped when the test, suite or file that started it ends.
 */
import { createServer, type RequestListener } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { after } from 'node:test';

/** Serves `handle` on 127.0.0.1 until the calling test (or file) ends; its `http://127.0.0.1:PORT`. */
export async function loopbackServer(handle: RequestListener): Promise<string> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => {
    // A client still holding a kept-alive socket must not hold the test run open.
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port on 127.0.0.1 the system gave out as free and nothing listens on now (one fetch will try, unlike 9). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
