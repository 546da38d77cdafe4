import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startProcess } from '../multiprocess/processes.ts';

test('SIGTERM lets a request already in flight finish before the process exits', async () => {
  const mod97 = await startProcess({ MOD97_DATABASE_URL: 'sqlite::memory:' });
  after(() => mod97.stop('SIGKILL'));
  const body = JSON.stringify({ iban: 'DE89 3704 0044 0532 0130 00' });
  let req!: ReturnType<typeof request>;
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req = request(
      `${mod97.url}/v1/iban/validate`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
  });
  // Half the body now: the request has reached the server and waits for the rest.
  req.write(body.slice(0, 10));
  await sleep(300);
  const exited = mod97.stop('SIGTERM');
  await sleep(300);
  assert.equal(mod97.child.exitCode, null, 'the process waits for the request in flight');
  req.end(body.slice(10));
  const reply = await answer;
  assert.equal(reply.status, 200, reply.text);
  assert.equal(JSON.parse(reply.text).valid, true);
  assert.equal(await exited, 0);
});

/** Resolves with the first log line that matches, already written or to come. */
function logLine(mod97: { child: import('node:child_process').ChildProcess; logs: string[] }, pattern: RegExp) {
  return new Promise<string>((resolve) => {
    const seen = mod97.logs.find((l) => pattern.test(l));
    if (seen) return resolve(seen);
    let pending = '';
    const onData = (chunk: Buffer) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      const line = lines.find((l) => pattern.test(l));
      if (line) {
        mod97.child.stdout?.off('data', onData);
        resolve(line);
      }
    };
    mod97.child.stdout?.on('data', onData);
  });
}

test('SIGTERM: a keep-alive request in flight is answered with Connection: close, and the process exits at once (docs/operations.md)', async () => {
  const mod97 = await startProcess({ MOD97_DATABASE_URL: 'sqlite::memory:' });
  after(() => mod97.stop('SIGKILL'));
  const { port } = new URL(mod97.url);
  const body = JSON.stringify({ iban: 'DE89 3704 0044 0532 0130 00' });
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  const continued = new Promise<void>((resolve) =>
    socket.on('data', (chunk) => {
      received += chunk;
      if (received.includes('100 Continue')) resolve();
    }),
  );
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  // A raw client as the operator's: keep-alive, the headers, then part of the body. Expect:
  // 100-continue only tells the test that the server has the request (it answers 100 at once).
  socket.write(
    `POST /v1/iban/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nExpect: 100-continue\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
  );
  await continued;
  socket.write(body.slice(0, 10));
  const stopping = logLine(mod97, /shutting down/);
  const exited = mod97.stop('SIGTERM');
  await stopping;
  assert.equal(mod97.child.exitCode, null, 'the process waits for the request in flight');
  const answeredAt = Date.now();
  socket.write(body.slice(10));
  // The answer, then the server's close: without Connection: close the socket stayed open for
  // the keep-alive timeout (72 s) and the process with it.
  const outcome = await Promise.race([
    Promise.all([closed, exited]).then(([, code]) => code),
    new Promise<string>((resolve) => setTimeout(() => resolve('still open after 10 s'), 10_000).unref()),
  ]);
  assert.equal(outcome, 0, received);
  assert.ok(Date.now() - answeredAt < 10_000);
  const [head, answer] = received.slice(received.indexOf('HTTP/1.1 200')).split('\r\n\r\n');
  assert.match(head, /^HTTP\/1\.1 200/);
  assert.match(head, /\r\nconnection: close\r\n/i);
  assert.equal(JSON.parse(answer).valid, true);
});
