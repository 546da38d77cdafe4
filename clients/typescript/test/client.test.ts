/** The typed client against the real service on 127.0.0.1: every method, typed errors, quota, safe retries. */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { Mod97, Mod97Error } from '../src/index.ts';
import { startService } from '../../../test/support/app.ts';
import { MAIL_DOMAINS } from '../../../test/support/mail/dns.ts';
import { startMailService, usedKey } from '../../../test/support/mail/service.ts';

const IBAN = 'DE89 3704 0044 0532 0130 00';
const refusal = (status: number, code: string) => (e: unknown) =>
  e instanceof Mod97Error && e.status === status && e.code === code && e.body.error === code;

describe('every method against the real service', async () => {
  const svc = await startService();

  test('validate and batch answer typed results with the quota as a non-enumerable property', async () => {
    const client = new Mod97({ baseUrl: svc.url, apiKey: await svc.newKey('127.0.5.1') });
    const one = await client.validate(IBAN);
    assert.equal(one.valid, true);
    assert.equal(one.formatted, IBAN);
    assert.equal(one.bank?.bic, 'COBADEFFXXX');
    assert.deepEqual(one.quota, { used: 1, limit: 25, remaining: 24, month: '2026-11' });
    assert.equal(Object.keys(one).includes('quota'), false);
    assert.equal('quota' in JSON.parse(JSON.stringify(one)), false);
    const many = await client.batch([IBAN, 'de89370400440532013001', '']);
    assert.deepEqual(
      many.results.map((r) => [r.valid, r.errors.map((e) => e.code)]),
      [
        [true, []],
        [false, ['checksum_failed']],
        [false, ['empty']],
      ],
    );
    assert.equal(many.quota?.remaining, 21);
  });

  test('bic, compliance and clearing', async () => {
    const client = new Mod97({ baseUrl: svc.url, apiKey: await svc.newKey('127.0.5.2') });
    const bic = await client.bic('COBADEFF');
    assert.equal(bic.bic11, 'COBADEFFXXX');
    assert.equal(bic.country.code, 'DE');
    const byIban = await client.compliance({ iban: IBAN });
    assert.equal(byIban.subject.iban_valid, true);
    assert.ok(['low', 'medium', 'high'].includes(byIban.level));
    const byBic = await client.compliance({ bic: 'COBADEFF' });
    assert.equal(byBic.subject.iban, null);
    const clearing = await client.clearing('100');
    assert.equal(clearing.iid, '100');
    assert.equal(clearing.quota?.used, 4);
  });

  test('IBAN with BIC on validate and batch, and an IBAN built from an account number', async () => {
    const client = new Mod97({ baseUrl: svc.url, apiKey: await svc.newKey('127.0.5.6') });
    const checked = await client.validate(IBAN, { bic: 'DEUTDEFF' });
    assert.deepEqual([checked.bic_check?.bic, checked.bic_check?.matches], ['DEUTDEFF', false]);
    assert.ok(checked.bic_check?.expected.includes('COBADEFFXXX'));
    const many = await client.batch([{ iban: IBAN, bic: 'COBADEFF' }, IBAN]);
    assert.deepEqual(
      many.results.map((r) => r.bic_check?.matches ?? 'none'),
      [true, 'none'],
    );
    const built = await client.fromAccount({ country: 'DE', bank_code: '37040044', account: '532013000' });
    assert.equal(built.formatted, IBAN);
    assert.equal(built.quota?.used, 4);
    await assert.rejects(client.fromAccount({ country: 'XX', bank_code: '1', account: '1' }), (e: unknown) => {
      assert.ok(e instanceof Mod97Error);
      assert.equal(e.status, 400);
      return true;
    });
  });

  test('usage with and without a key', async () => {
    const key = await svc.newKey('127.0.5.3');
    const withKey = await new Mod97({ baseUrl: svc.url, apiKey: key }).usage();
    assert.equal(withKey.tier, 'anonymous');
    assert.equal(withKey.key_prefix, key.slice(0, 8));
    assert.equal(withKey.claim?.raises_limit_to, 200);
    const trial = await new Mod97({ baseUrl: svc.url }).usage();
    assert.equal(trial.tier, 'trial');
    assert.equal(trial.quota, undefined, 'no key, no quota headers');
    const daily = await new Mod97({ baseUrl: svc.url, apiKey: key }).dailyUsage();
    assert.deepEqual([daily.key_prefix, daily.total, Array.isArray(daily.days)], [key.slice(0, 8), 0, true]);
  });

  test('generateKey and rotate: the old secret is refused with a typed 401 afterwards', async () => {
    const created = await new Mod97({ baseUrl: svc.url }).generateKey({ source: 'client test' });
    assert.match(created.api_key, /^ifk_[0-9a-f]{64}$/);
    assert.equal(created.tier, 'anonymous');
    const old = new Mod97({ baseUrl: svc.url, apiKey: created.api_key });
    const rotated = await old.rotate();
    assert.equal(rotated.previous_key_prefix, created.key_prefix);
    assert.equal(rotated.quota?.limit, 25);
    await assert.rejects(old.usage(), refusal(401, 'invalid_api_key'));
    assert.equal((await new Mod97({ baseUrl: svc.url, apiKey: rotated.api_key }).usage()).used, 0);
    // A client left holding the dead key can still make a new one: generate is sent without it.
    assert.match((await old.generateKey({ source: 'client test' })).api_key, /^ifk_[0-9a-f]{64}$/);
  });

  test('refusals throw Mod97Error with status, code = body.error, body and quota', async () => {
    const key = await svc.newKey('127.0.5.4');
    const client = new Mod97({ baseUrl: svc.url, apiKey: key });
    await assert.rejects(client.bic('XXXXDEFF'), (e: unknown) => {
      assert.ok(e instanceof Mod97Error);
      assert.equal(e.status, 404);
      assert.equal(e.code, 'bic_not_found');
      assert.equal(e.body.error, 'bic_not_found');
      assert.equal(typeof e.body.message, 'string');
      assert.equal(e.quota?.used, 0, 'refunded, and the headers say so');
      return true;
    });
    await assert.rejects(client.clearing('abc'), refusal(400, 'invalid_request'));
    await assert.rejects(
      client.compliance({ iban: IBAN, bic: 'COBADEFF' } as unknown as { iban: string }),
      refusal(400, 'invalid_request'),
    );
    await client.batch(Array(25).fill(IBAN));
    await assert.rejects(client.validate(IBAN), (e: unknown) => {
      assert.ok(e instanceof Mod97Error);
      assert.equal(e.code, 'quota_exhausted');
      assert.deepEqual(e.quota, { used: 25, limit: 25, remaining: 0, month: '2026-11', exhausted: true });
      assert.ok(Array.isArray(e.body.options));
      return true;
    });
    await assert.rejects(new Mod97({ baseUrl: svc.url }).batch([IBAN]), refusal(402, 'payment_required'));
  });
});

test('claim: a code is mailed (202), then the key is claimed with it (200)', async () => {
  const { svc, smtp } = await startMailService();
  const key = await usedKey(svc, '127.0.6.1');
  const client = new Mod97({ baseUrl: svc.url, apiKey: key });
  const email = `dev@${MAIL_DOMAINS.deliverable}`;
  const sent = await client.claim({ email });
  assert.ok('status' in sent && sent.status === 'code_sent');
  await assert.rejects(client.claim({ email, code: '000000' }), refusal(403, 'verification_failed'));
  const claimed = await client.claim({ email, code: await smtp.nextCode(email) });
  assert.ok('claimed' in claimed && claimed.claimed);
  assert.equal(claimed.limit, 200);
  assert.equal(claimed.quota?.limit, 200);
});

/** A stand-in in front of nothing: it answers as a failing service or proxy would, and counts requests. */
async function faultyServer(handler: (req: IncomingMessage, res: ServerResponse, n: number) => void) {
  let n = 0;
  let waiting: { count: number; wake: () => void }[] = [];
  const server = createServer((req, res) => {
    n++;
    for (const w of waiting) if (w.count <= n) w.wake();
    waiting = waiting.filter((w) => w.count > n);
    handler(req, res, n);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  /**
   * The count once `count` requests arrived (or 10 s passed). A request the client gave up on may
   * still be on its way: on a busy machine the client's timer can fire before the server reads it.
   */
  const arrived = (count: number) =>
    new Promise<number>((resolve) => {
      if (n >= count) return resolve(n);
      waiting.push({ count, wake: () => resolve(n) });
      setTimeout(() => resolve(n), 10_000).unref();
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => n, arrived };
}

/** A port that was free a moment ago: nothing listens on it. */
const unusedPort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

describe('a key a header cannot carry', () => {
  const KEY = `ifk_${'d32c'.repeat(16)}`;
  const inside = (what: string) => `${KEY.slice(0, 30)}${what}${KEY.slice(30)}`;

  test('spaces, tabs and line breaks around the key are dropped: the key alone is sent', async () => {
    const sent: (string | undefined)[] = [];
    const front = await faultyServer((req, res) => {
      sent.push(req.headers.authorization);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    for (const apiKey of [`${KEY}\n`, `${KEY}\r\n`, ` \t${KEY} `])
      await new Mod97({ baseUrl: front.url, apiKey }).usage();
    assert.deepEqual(sent, Array(3).fill(`Bearer ${KEY}`));
  });

  test('any other character but visible ASCII is refused before anything is sent, and the key is never shown', async () => {
    const front = await faultyServer((_req, res) => res.end('{}'));
    const cases = [
      [inside('\r\n'), 'a line break'],
      [inside('\n'), 'a line break'],
      [inside('\0'), 'a character an HTTP header cannot carry'],
      [inside('é'), 'a character an HTTP header cannot carry'],
      [inside(' '), 'a space or tab'],
      [`Bearer ${KEY}`, 'the word Bearer before the key (the client adds it)'],
    ];
    for (const [apiKey, what] of cases)
      for (const call of [(c: Mod97) => c.usage(), (c: Mod97) => c.validate(IBAN)])
        await assert.rejects(call(new Mod97({ baseUrl: front.url, apiKey })), (e: unknown) => {
          assert.ok(e instanceof Mod97Error);
          assert.deepEqual([e.status, e.code], [0, 'invalid_api_key']);
          assert.ok(
            e.message.includes(
              `The API key is malformed: it holds ${what}, so it cannot be sent (its value is not shown).`,
            ),
            e.message,
          );
          assert.doesNotMatch(e.message, /d32c/);
          return true;
        });
    assert.equal(front.requests(), 0, 'nothing was sent, nor sent again');
  });

  test("a failure whose words quote the key (a fetch wrapper's) is reported without it", async () => {
    const quoting: typeof fetch = async (_url, init) => {
      throw new TypeError(`cannot send ${new Headers(init?.headers).get('authorization')}`);
    };
    await assert.rejects(new Mod97({ apiKey: KEY, fetch: quoting, retries: 0 }).usage(), (e: unknown) => {
      assert.ok(e instanceof Mod97Error);
      assert.deepEqual([e.status, e.code], [0, 'connection_failed']);
      assert.match(e.message, /cannot send Bearer \[API key\]$/);
      assert.doesNotMatch(e.message, /d32c/);
      return true;
    });
  });
});

describe('retries only where they are safe', () => {
  test('a free read answered 503 is tried again; a metered GET answered 503 is not', async () => {
    const svc = await startService();
    const key = await svc.newKey('127.0.7.1');
    // the first request of each kind gets 503, the next ones go to the real service
    const seen = new Set<string>();
    const front = await faultyServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      if (!seen.has(req.url!)) {
        seen.add(req.url!);
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
        return res.end('{"error":"unavailable","message":"Try again."}');
      }
      const answer = await fetch(svc.url + req.url, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    const client = new Mod97({ baseUrl: front.url, apiKey: key });
    assert.equal((await client.usage()).used, 0);
    assert.equal(front.requests(), 2, 'usage: refused once, then answered');
    await assert.rejects(client.bic('COBADEFF'), refusal(503, 'unavailable'));
    assert.equal(front.requests(), 3, 'the lookup was sent once');
  });

  test('a metered GET that timed out is not sent again; a metered POST is sent once more, with its key', async () => {
    const keys: (string | undefined)[] = [];
    const silent = await faultyServer((req) => {
      keys.push(req.headers['idempotency-key'] as string | undefined);
      /* never answers */
    });
    const slow = new Mod97({ baseUrl: silent.url, timeoutMs: 200 });
    await assert.rejects(slow.bic('COBADEFF'), refusal(0, 'timeout'));
    assert.equal(await silent.arrived(1), 1);
    await assert.rejects(slow.validate(IBAN), refusal(0, 'timeout'));
    assert.equal(await silent.arrived(3), 3, 'a metered POST is tried twice');
    assert.equal(keys[0], undefined, 'a GET carries no Idempotency-Key');
    assert.match(keys[1] ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(keys[2], keys[1], 'the retry carries the same key');
    await assert.rejects(slow.usage(), refusal(0, 'timeout'));
    assert.equal(await silent.arrived(6), 6, 'a free read is tried three times');
  });

  test('a metered POST whose answer was lost is sent again with the same key and charged once', async () => {
    const svc = await startService();
    const key = await svc.newKey('127.0.7.3');
    const keys: string[] = [];
    // The first request reaches the service, which answers; the connection is then cut before
    // the client sees that answer. Later requests are forwarded both ways.
    const front = await faultyServer(async (req, res, n) => {
      keys.push(String(req.headers['idempotency-key']));
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const answer = await fetch(svc.url + req.url, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      const body = Buffer.from(await answer.arrayBuffer());
      if (n === 1 && req.method === 'POST') return req.socket.destroy();
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(body);
    });
    const client = new Mod97({ baseUrl: front.url, apiKey: key });
    const answer = await client.batch([IBAN, 'GB82WEST12345698765432']);
    assert.equal(answer.count, 2);
    assert.equal(front.requests(), 2);
    assert.equal(keys[1], keys[0], 'the retry carries the same Idempotency-Key');
    assert.equal(answer.quota?.used, 2, 'two IBANs, charged once');
    assert.equal((await new Mod97({ baseUrl: svc.url, apiKey: key }).usage()).used, 2);
  });

  test('a metered POST answered 503 is sent once more with the same key, and no more', async () => {
    const svc = await startService();
    const key = await svc.newKey('127.0.7.4');
    const keys: string[] = [];
    const front = await faultyServer(async (req, res, n) => {
      keys.push(String(req.headers['idempotency-key']));
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      if (n === 1 || n >= 3) {
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
        return res.end('{"error":"storage_unavailable","message":"Try again."}');
      }
      const answer = await fetch(svc.url + req.url, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks),
      });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    const client = new Mod97({ baseUrl: front.url, apiKey: key });
    assert.equal((await client.validate(IBAN)).quota?.used, 1);
    assert.equal(keys[1], keys[0]);
    await assert.rejects(client.validate(IBAN), refusal(503, 'storage_unavailable'));
    assert.equal(front.requests(), 4, 'the second call: sent, then retried once');
    assert.notEqual(keys[2], keys[0], 'each call has a key of its own');
    assert.equal(keys[3], keys[2]);
  });

  test('a metered call whose connection was refused never reached the service, so it is sent again', async () => {
    const svc = await startService();
    const key = await svc.newKey('127.0.7.2');
    // a port nobody listens on yet; a forwarder to the service opens on it 100 ms later
    const port = await unusedPort();
    const late = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const answer = await fetch(svc.url + req.url, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        body: chunks.length ? Buffer.concat(chunks) : undefined,
      });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    setTimeout(() => late.listen(port, '127.0.0.1'), 100);
    after(() => late.close());
    const answer = await new Mod97({ baseUrl: `http://127.0.0.1:${port}`, apiKey: key }).validate(IBAN);
    assert.equal(answer.valid, true);
    assert.equal(answer.quota?.used, 1, 'counted once');

    const nobody = new Mod97({ baseUrl: `http://127.0.0.1:${await unusedPort()}`, retries: 0 });
    await assert.rejects(nobody.validate(IBAN), (e: unknown) => {
      assert.ok(e instanceof Mod97Error);
      assert.equal(e.status, 0);
      assert.equal(e.code, 'connection_failed');
      // Node.js names the system's cause; only a browser's bare TypeError may be CORS.
      assert.match(e.message, /Could not reach the service \(ECONNREFUSED\)/);
      assert.doesNotMatch(e.message, /CORS/);
      return true;
    });
    // A port fetch refuses unasked (X11's) is named, not left as "fetch failed".
    const blockedPort = new Mod97({ baseUrl: 'http://127.0.0.1:6000', retries: 0 });
    await assert.rejects(blockedPort.validate(IBAN), (e: unknown) => {
      assert.ok(e instanceof Mod97Error);
      assert.equal(e.code, 'connection_failed');
      assert.match(e.message, /never connects to port 6000, one of the ports browsers block/);
      return true;
    });
  });

  test('a refusal carries its Retry-After in seconds', async () => {
    const refusals: Record<string, [number, string, string | undefined]> = {
      '/v1/keys/generate': [429, 'key_creation_limit', '3600'],
      '/v1/bic/COBADEFF': [503, 'storage_unavailable', '5'],
      '/v1/iban/validate': [409, 'idempotency_in_progress', '1'],
      '/v1/ch/clearing/100': [404, 'clearing_not_found', undefined],
    };
    const front = await faultyServer((req, res) => {
      const [status, code, retryAfter] = refusals[req.url ?? ''] ?? [500, 'internal_error', undefined];
      res.writeHead(status, { 'content-type': 'application/json', ...(retryAfter && { 'retry-after': retryAfter }) });
      res.end(JSON.stringify({ error: code, message: 'Not now.' }));
    });
    const client = new Mod97({ baseUrl: front.url });
    const seen = [];
    for (const call of [
      () => client.generateKey(),
      () => client.bic('COBADEFF'),
      () => client.validate(IBAN),
      () => client.clearing('100'),
    ])
      seen.push(
        await call().then(
          () => 'answered',
          (e: unknown) => e instanceof Mod97Error && [e.status, e.code, e.retryAfter],
        ),
      );
    assert.deepEqual(seen, [
      [429, 'key_creation_limit', 3600],
      [503, 'storage_unavailable', 5],
      [409, 'idempotency_in_progress', 1],
      [404, 'clearing_not_found', null],
    ]);
    const nobody = new Mod97({ baseUrl: `http://127.0.0.1:${await unusedPort()}`, retries: 0 });
    await assert.rejects(nobody.bic('COBADEFF'), (e: unknown) => e instanceof Mod97Error && e.retryAfter === null);
  });

  test('an answer that is not JSON is a typed error, not a crash', async () => {
    const proxy = await faultyServer((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>Bad gateway</html>');
    });
    await assert.rejects(new Mod97({ baseUrl: proxy.url }).bic('COBADEFF'), refusal(502, 'invalid_response'));
  });
});
