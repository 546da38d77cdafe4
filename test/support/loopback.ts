/**
 * Servers a test starts on 127.0.0.1 in place of the outside world (a publisher's file server, a
 * proxy in front of the service, a recorder of requests), and ports nothing listens on. Each
 * server is stopped when the test, suite or file that started it ends.
 */
import { createServer, type RequestListener } from 'node:http';
import { readFileSync } from 'node:fs';
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

/**
 * An address where no server answers: port 2, which no test binds (freePort draws from 10,000
 * up), so the connection is refused at once (port 1 would not do: fetch refuses it unasked, as a
 * port of the Fetch standard's "bad ports" list). A port merely found free could be taken meanwhile
 * by a server of a test running in parallel, which would then answer in its place.
 */
export const UNREACHABLE_URL = 'http://127.0.0.1:2';

/**
 * A port on 127.0.0.1 that nothing listens on now (one fetch will try, unlike 9), for a server
 * started after it is chosen. It is drawn below the kernel's range of ephemeral ports: a port the
 * system gives out for port 0 comes from that range, and so does the local port of every
 * outgoing connection, so one of those (to PostgreSQL, to another test's server) could take it
 * before the server listens (EADDRINUSE). Below the range only another free port can.
 */
export async function freePort(): Promise<number> {
  const below = ephemeralStart();
  for (;;) {
    const port = below - 1 - Math.floor(Math.random() * (below - MIN_PORT));
    if (await bindable(port)) return port;
  }
}

const MIN_PORT = 10_000;

/** Where the kernel's ephemeral ports start (Linux: /proc; 32768 elsewhere, and Linux's default). */
function ephemeralStart(): number {
  try {
    const start = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return start > MIN_PORT + 1000 ? start : 32_768;
  } catch {
    return 32_768;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createNetServer().once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
