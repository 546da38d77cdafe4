import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';
import { parse, rawRequest, type RawReply } from './raw-socket.ts';

function assertError(r: Pick<RawReply, 'status' | 'body' | 'headers' | 'text'>, status: number, error: string) {
  assert.equal(r.status, status, r.text);
  assert.equal(r.body.error, error, r.text);
  assert.equal(typeof r.body.message, 'string');
  assert.match(r.headers['content-type'] ?? '', /^application\/json/);
  assert.equal(r.headers['x-content-type-options'], 'nosniff');
}

const lines = (n: number) => Array.from({ length: n }, (_, i) => `X-Line-${i}: 1\r\n`).join('');

describe("requests Node's parser refuses get the JSON error body and are never charged", () => {
  test('a keyed GET with Transfer-Encoding: gzip is 400 and the key does not pay', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await rawRequest(
      svc.url,
      `GET /v1/ch/clearing/230 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nTransfer-Encoding: gzip\r\n\r\n`,
    );
    assertError(r, 400, 'invalid_request');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0);
  });

  test('a rotate the parser refuses does not rotate the key', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await rawRequest(
      svc.url,
      `POST /v1/keys/rotate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nTransfer-Encoding: gzip\r\n\r\n`,
    );
    assertError(r, 400, 'invalid_request');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await svc.call('/v1/keys/usage', { key })).status, 200, 'the old key still works');
  });

  test('no Host is 400, an unknown Expect is 417, a malformed request line is 400, all with the body', async () => {
    const svc = await startService();
    assertError(await rawRequest(svc.url, 'GET /healthz HTTP/1.1\r\n\r\n', { waitMs: 1000 }), 400, 'invalid_request');
    assertError(
      await rawRequest(svc.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n', { waitMs: 1000 }),
      417,
      'expectation_failed',
    );
    assertError(await rawRequest(svc.url, 'GARBAGE\r\n\r\n'), 400, 'invalid_request');
    assertError(
      await rawRequest(svc.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'),
      400,
      'invalid_request',
    );
    // CONNECT never reaches a route: it is answered on the socket, not dropped without a word
    assertError(
      await rawRequest(svc.url, 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n'),
      405,
      'method_not_allowed',
    );
  });

  test('an HTTP/1.1 request without Host is answered with Connection: close, and the socket closed', async () => {
    const svc = await startService();
    for (const request of [
      'GET /healthz HTTP/1.1\r\n\r\n',
      'POST /v1/iban/validate HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
    ]) {
      const r = await rawRequest(svc.url, request, { waitMs: 2000 });
      assertError(r, 400, 'invalid_request');
      assert.equal(r.body.message, 'An HTTP/1.1 request must send a Host header.');
      assert.equal(r.headers.connection, 'close', request);
      assert.equal(r.closedByServer, true, `${request}: the server closed the socket, not the client`);
    }
  });
});

describe('header lines', () => {
  test('200 header lines are served; 201 are 431 headers_too_large', async () => {
    const svc = await startService();
    const head = (n: number) => `GET /healthz HTTP/1.1\r\nHost: x\r\n${lines(n - 1)}Connection: close\r\n\r\n`;
    assert.equal((await rawRequest(svc.url, head(199))).status, 200);
    assertError(await rawRequest(svc.url, head(200)), 431, 'headers_too_large');
  });

  test('a text/plain rotate body after 2,100 header lines is refused, and the key is not rotated', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const r = await rawRequest(
      svc.url,
      `POST /v1/keys/rotate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n${lines(2100)}` +
        'Content-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi',
    );
    assertError(r, 431, 'headers_too_large');
    assert.equal((await svc.call('/v1/keys/usage', { key })).status, 200, 'the old key still works');
  });
});

describe('HEAD on a data route', () => {
  test('is 405 method_not_allowed with Allow: GET and costs nothing', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    for (const path of ['/v1/ch/clearing/230', '/v1/bic/DEUTDEFF']) {
      const r = await svc.call(path, { method: 'HEAD', key });
      assert.equal(r.status, 405);
      assert.equal(r.headers.allow, 'GET');
    }
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0);
    assert.equal((await svc.call('/v1/ch/clearing/230', { key })).status, 200, 'GET still served');
    assert.equal((await svc.call('/healthz', { method: 'HEAD' })).status, 200, 'HEAD elsewhere is unchanged');
  });

  test('is not sold by x402 either: 405 before any payment is asked for or checked', async () => {
    const svc = await startService({
      env: {
        MOD97_X402_FACILITATOR_URL: 'http://127.0.0.1:9',
        MOD97_X402_PAY_TO: '0x1111111111111111111111111111111111111111',
      },
    });
    for (const headers of [{}, { 'payment-signature': 'eyJ4NDAyVmVyc2lvbiI6Mn0=' }] as Record<string, string>[]) {
      const r = await svc.call('/v1/bic/DEUTDEFF', { method: 'HEAD', headers });
      assert.equal(r.status, 405, JSON.stringify(headers));
      assert.equal(r.headers.allow, 'GET');
      assert.equal(r.headers['payment-required'], undefined);
    }
  });
});

describe('another method on a data route', () => {
  test('is 405 method_not_allowed with the Allow header, never metered, and the route still serves', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const cases: [string, string, string][] = [
      ['HEAD', '/v1/iban/validate', 'POST'],
      ['GET', '/v1/iban/validate', 'POST'],
      ['PUT', '/v1/iban/batch', 'POST'],
      ['DELETE', '/v1/iban/compliance', 'POST'],
      ['PATCH', '/v1/iban/from-account', 'POST'],
      ['POST', '/v1/bic/DEUTDEFF', 'GET'],
      ['DELETE', '/v1/ch/clearing/230', 'GET'],
      // methods Fastify routes nowhere reach the not-found handler, which says 405 all the same
      ['TRACE', '/v1/iban/validate', 'POST'],
      ['PROPFIND', '/v1/bic/DEUTDEFF', 'GET'],
      ['REPORT', '/v1/iban/batch', 'POST'],
    ];
    for (const [method, path, allow] of cases) {
      const r = await svc.call(path, { method, key });
      assert.equal(r.status, 405, `${method} ${path}`);
      assert.equal(r.headers.allow, allow, `${method} ${path}`);
      if (method !== 'HEAD') assert.equal(r.body.error, 'method_not_allowed');
    }
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0, 'nothing was metered');
    const served = await svc.call('/v1/iban/validate', { key, json: { iban: 'DE89370400440532013000' } });
    assert.equal(served.status, 200, 'POST still served');
    assert.equal((await svc.call('/v1/nothing-here', { method: 'PUT' })).status, 404, 'other paths stay 404');
    assert.equal((await svc.call('/v1/nothing-here', { method: 'TRACE' })).status, 404);
  });
});

describe('a body over 1 MiB', () => {
  // A client that writes its whole body before it reads, as most simple clients do.
  function writeAllThenRead(url: string, head: string, bodyBytes: number, chunked: boolean): Promise<RawReply> {
    const { port, hostname } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname);
      const chunks: Buffer[] = [];
      socket.on('error', reject);
      socket.on('data', (c) => chunks.push(c));
      socket.pause();
      const spaces = Buffer.alloc(64 * 1024, 0x20);
      const piece = chunked ? Buffer.concat([Buffer.from('10000\r\n'), spaces, Buffer.from('\r\n')]) : spaces;
      let sent = 0;
      const pump = () => {
        while (sent < bodyBytes) {
          sent += spaces.length;
          if (!socket.write(piece)) return void socket.once('drain', pump);
        }
        // Every byte was taken: only now read the answer.
        socket.resume();
        socket.on('close', () =>
          resolve({ ...parse(Buffer.concat(chunks).toString()), error: null, closedByServer: true, elapsedMs: 0 }),
        );
      };
      socket.write(head, pump);
    });
  }

  test('gets its 413 although the client is still sending, not a reset', async () => {
    const svc = await startService();
    const size = 4 * 1024 * 1024;
    for (const chunked of [false, true]) {
      const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`;
      const head = `POST /v1/iban/validate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`;
      const r = await writeAllThenRead(svc.url, head, size, chunked);
      assertError(r, 413, 'payload_too_large');
    }
  });
});

describe('requests two parts of a chain could read differently (docs/reliability.md, Hostile requests)', () => {
  const body = '{"iban":"DE89370400440532013000"}';
  const post = (key: string, headers: string, payload = body) =>
    `POST /v1/iban/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n${headers}\r\n${payload}`;
  const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;

  test('two Host headers, Transfer-Encoding other than chunked, and any Content-Encoding are refused and never charged', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const twoHosts = await rawRequest(
      svc.url,
      `GET /v1/ch/clearing/230 HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nAuthorization: Bearer ${key}\r\n\r\n`,
    );
    assertError(twoHosts, 400, 'invalid_request');
    assert.match(twoHosts.body.message, /more than one Host/);
    const gzipChunked = await rawRequest(svc.url, post(key, 'Transfer-Encoding: gzip, chunked\r\n', chunked));
    assertError(gzipChunked, 400, 'invalid_request');
    assert.match(gzipChunked.body.message, /Transfer-Encoding/);
    for (const coding of ['gzip', 'identity', 'br']) {
      const encoded = await rawRequest(
        svc.url,
        post(key, `Content-Encoding: ${coding}\r\nContent-Length: ${body.length}\r\n`),
      );
      assertError(encoded, 415, 'unsupported_media_type');
      assert.match(encoded.body.message, /Content-Encoding/);
    }
    // The same request, plainly framed, is served: chunked alone, or a Content-Length.
    const plain = await rawRequest(svc.url, post(key, 'Transfer-Encoding: chunked\r\nConnection: close\r\n', chunked));
    assert.equal(plain.status, 200, plain.text);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 1, 'only the plain request was charged');
  });
});
