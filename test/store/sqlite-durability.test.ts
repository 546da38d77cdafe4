/**
 * Seen from outside the code: strace on the running server shows which answers wait for the disk.
 * A key issued is synced (fsync/fdatasync) before its 201 is written to the socket; a validate
 * is answered without any sync.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Mod97Process, startProcess } from '../multiprocess/processes.ts';

const hasStrace = spawnSync('strace', ['-V']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'mod97-durable-'));
let server: Mod97Process;
let tracer: ChildProcess;
let trace = '';
let traceNow: () => string[];

before(async () => {
  if (!hasStrace) return;
  server = await startProcess({ MOD97_DATABASE_URL: `sqlite:${join(dir, 'mod97.db')}` });
  // -s 16: enough of each write to see where an HTTP answer starts.
  tracer = spawn(
    'strace',
    ['-f', '-s', '16', '-e', 'trace=fsync,fdatasync,write,writev', '-p', String(server.child.pid)],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  tracer.stderr!.on('data', (d) => (trace += d));
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (/attached/.test(trace)) resolve();
      else if (/Operation not permitted|ptrace/i.test(trace)) reject(new Error(`strace cannot attach: ${trace}`));
    };
    tracer.stderr!.on('data', check);
    tracer.once('exit', () => reject(new Error(`strace ended: ${trace}`)));
  });
  let mark = 0;
  // The lines traced since the previous call.
  traceNow = () => {
    const lines = trace.slice(mark).split('\n');
    mark = trace.length;
    return lines;
  };
  traceNow();
});

after(async () => {
  // strace must have let go of the server before the server is told to stop: a SIGTERM that
  // arrives while strace is still detaching can be swallowed with it, and the server then never
  // exits (seen once in CI, where the file then held its worker to the 15-minute timeout).
  if (tracer && tracer.exitCode === null && tracer.signalCode === null) {
    const detached = once(tracer, 'exit');
    tracer.kill();
    await detached;
  }
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const isSync = (line: string) => /\b(fsync|fdatasync)\(/.test(line);
const answers = (status: number) => (line: string) => line.includes(`"HTTP/1.1 ${status}`);

/** The lines traced up to and including the write of the answer with this status. */
async function traceUntilAnswer(status: number): Promise<string[]> {
  const lines: string[] = [];
  for (;;) {
    lines.push(...traceNow());
    if (lines.some(answers(status))) return lines;
    await new Promise((resolve) => tracer.stderr!.once('data', resolve));
  }
}

test('a key just issued is synced to disk before its 201 is sent', {
  skip: !hasStrace && 'strace is not installed',
}, async () => {
  const res = await fetch(`${server.url}/v1/keys/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(res.status, 201);
  const lines = await traceUntilAnswer(201);
  const firstSync = lines.findIndex(isSync);
  const answer = lines.findIndex(answers(201));
  assert.ok(firstSync >= 0, `no fsync or fdatasync before the answer:\n${lines.join('\n')}`);
  assert.ok(firstSync < answer, 'the sync comes before the answer is written');
});

test('a validate is answered without waiting for the disk', {
  skip: !hasStrace && 'strace is not installed',
}, async () => {
  const res = await fetch(`${server.url}/v1/iban/validate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ iban: 'DE89370400440532013000' }),
  });
  assert.equal(res.status, 200);
  const lines = await traceUntilAnswer(200);
  assert.deepEqual(lines.filter(isSync), []);
});
