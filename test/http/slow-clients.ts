/**
 * Measures what trickling clients hold: starts the service as its own process (descriptor limit
 * 600, default 30 s deadlines), opens N clients that send their headers and then one body byte a
 * second, and samples the server's open descriptors and whether a normal request is still served.
 *
 *   npm run build && node --import tsx test/http/slow-clients.ts [clients=200] [seconds=45]
 */
import { spawn } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

const clients = Number(process.argv[2] ?? 200);
const seconds = Number(process.argv[3] ?? 45);
const port = 20_000 + Math.floor(Math.random() * 10_000);

const server = spawn('bash', ['-c', 'ulimit -n 600 && exec node dist/server.js'], {
  env: { ...process.env, PORT: String(port), MOD97_DATABASE_URL: 'sqlite::memory:', MOD97_LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stop = () => server.kill('SIGTERM');
process.on('exit', stop);

async function until(ready: () => Promise<boolean>) {
  for (let i = 0; i < 100; i++) {
    if (await ready().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the service did not start');
}
const healthy = async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
await until(healthy);

const sockets = () => {
  const fds = readdirSync(`/proc/${server.pid}/fd`);
  const open = fds.map((fd) => {
    try {
      return readlinkSync(`/proc/${server.pid}/fd/${fd}`);
    } catch {
      return '';
    }
  });
  return { fds: open.length, sockets: open.filter((l) => l.startsWith('socket:')).length };
};

const baseline = sockets();
const answered: Record<number, number> = {};
let closed = 0;
const open: Socket[] = [];
for (let i = 0; i < clients; i++) {
  const s = connect(port, '127.0.0.1');
  let first = '';
  s.on('data', (d) => {
    if (!first) {
      first = String(d);
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(first)?.[1] ?? 0);
      answered[status] = (answered[status] ?? 0) + 1;
    }
  });
  s.on('error', () => {});
  s.on('close', () => closed++);
  s.write(
    'POST /v1/iban/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
  );
  open.push(s);
}
const trickle = setInterval(() => {
  for (const s of open) if (s.writable) s.write(' ');
}, 1000);

console.log(`${clients} clients trickling bodies; baseline fds ${baseline.fds}, sockets ${baseline.sockets}`);
console.log('| t (s) | server fds | server sockets | clients closed by the server | /healthz (ms) |');
console.log('|---|---|---|---|---|');
const started = Date.now();
for (let t = 0; t <= seconds; t += 5) {
  await new Promise((r) => setTimeout(r, Math.max(0, started + t * 1000 - Date.now())));
  const probe = Date.now();
  const ok = await healthy().catch(() => false);
  const { fds, sockets: held } = sockets();
  console.log(`| ${t} | ${fds} | ${held} | ${closed} | ${ok ? Date.now() - probe : 'failed'} |`);
}
clearInterval(trickle);
console.log(`answers the trickling clients got: ${JSON.stringify(answered)}`);
for (const s of open) s.destroy();
stop();
process.exit(0);
