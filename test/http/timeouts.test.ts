import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';
import { rawRequest, trickle } from './raw-socket.ts';

// The deadlines are 30 s in service; shortened here so that the test takes a second.
const limits = { headersMs: 400, bodyMs: 400 };

function assertTimedOut(r: Awaited<ReturnType<typeof rawRequest>>) {
  assert.ok(r.closedByServer, `the server must close the socket (got ${r.status} after ${r.elapsedMs} ms)`);
  assert.equal(r.status, 408, r.text);
  assert.equal(r.body.error, 'request_timeout');
  assert.equal(typeof r.body.message, 'string');
}

describe('slow clients get 408 request_timeout and cost nothing', () => {
  test('headers still trickling after the deadline: 408, socket closed, no trial call used', async () => {
    const svc = await startService({ limits });
    const r = await rawRequest(svc.url, 'POST /v1/iban/validate HTTP/1.1\r\nHost: x\r\n', {
      from: '127.0.0.41',
      keepWriting: trickle('X-Slow: 1\r\n', 50),
    });
    assertTimedOut(r);
    assert.equal((await svc.call('/v1/keys/usage', { from: '127.0.0.41' })).body.used, 0);
  });

  test('a body still trickling after the deadline: 408, socket closed, the key not charged', async () => {
    const svc = await startService({ limits });
    const key = await svc.newKey();
    const r = await rawRequest(
      svc.url,
      `POST /v1/iban/validate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"iban":"',
      { keepWriting: trickle('D', 50) },
    );
    assertTimedOut(r);
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0);
  });

  test('the deadline counts from the headers: a body that arrives in time is served', async () => {
    const svc = await startService({ limits: { headersMs: 400, bodyMs: 4000 } });
    const body = '{"iban":"DE89370400440532013000"}';
    let sent = 0;
    const r = await rawRequest(
      svc.url,
      `POST /v1/iban/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
      {
        waitMs: 6000,
        // The body takes about 700 ms: longer than the headers' deadline, well within the body's.
        keepWriting: (write) => {
          const timer = setInterval(() => {
            write(body.slice(sent, sent + 3));
            sent += 3;
            if (sent >= body.length) clearInterval(timer);
          }, 60);
          return () => clearInterval(timer);
        },
      },
    );
    assert.equal(r.status, 200, r.text);
    assert.equal(r.body.valid, true);
  });

  test('100 clients trickling bodies hold no socket past the deadline', async () => {
    // 2.5 s: on a loaded machine (CI's parallel files) opening 100 sockets can take over a second,
    // and the first would be cut before the last arrived (a fresh-clone run held 63 at once)
    const svc = await startService({ limits: { headersMs: 2500, bodyMs: 2500 } });
    const connections = () =>
      new Promise<number>((resolve, reject) =>
        svc.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
      );
    const head =
      'POST /v1/iban/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n';
    let done = false;
    const all = Promise.all(
      Array.from({ length: 100 }, () => rawRequest(svc.url, head, { keepWriting: trickle(' ', 100), waitMs: 6000 })),
    ).finally(() => {
      done = true;
    });
    let most = 0;
    while (!done) {
      most = Math.max(most, await connections());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(most >= 90, `the clients were held at once (at most ${most})`);
    for (const r of await all) assertTimedOut(r);
    assert.equal(await connections(), 0, 'no socket is left open');
  });
});
