/**
 * Fuzzed requests against the real service, seeded so that a failure can be replayed
 * (FUZZ_SEED=<n> FUZZ_RUNS=<n> to explore further). Asserted for every answer: no 5xx other
 * than the documented ones, and every error is JSON with `error` and `message`. Asserted at the
 * end: each key's quota moved by exactly the answers it was charged for (2xx on a data route),
 * and the no-key trial by exactly the no-key validations served.
 */
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import fc from 'fast-check';
import { startService, type TestService } from '../support/app.ts';
import { responseChecker } from '../support/openapi-check.ts';
import { rawRequest } from './raw-socket.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const RAW_RUNS = Math.round(RUNS / 5);
const FROM = '127.0.9.1';
/** 5xx answers that are documented and expected here: the card rail is off. */
const DOCUMENTED_5XX = new Set(['card_payments_unavailable']);
const METERED = /^\/v1\/(iban\/(validate|batch|compliance)|bic\/[^/?]*|ch\/clearing\/[^/?]*)(\?.*)?$/;

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
after(() => agent.destroy());

function send(url: string, r: Sent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = r.body === undefined ? undefined : Buffer.from(r.body);
    const headers = body ? { ...r.headers, 'content-length': String(body.length) } : r.headers;
    const req = request(`${url}${r.path}`, { method: r.method, headers, agent, localAddress: FROM }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

// ---- what a request is made of ----
const IBANS = [
  'DE89370400440532013000',
  'CH9300762011623852957',
  'GB29NWBK60161331926819',
  'de89 3704 0044 0532 0130 00',
];
const text = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...IBANS, 'DEUTDEFF', 'NDEAFIHH', '230', '100') },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'null', '\ufb01', 'ＤＥ89', `ifk_${'ab'.repeat(32)}`) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);
const segment = fc.oneof(text, fc.nat().map(String)).map((s) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80'; // a lone surrogate, as the bytes a client could send
  }
});
const paths = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('/v1/iban/validate', '/v1/iban/batch', '/v1/iban/compliance') },
  { weight: 4, arbitrary: segment.map((s) => `/v1/bic/${s}`) },
  { weight: 3, arbitrary: segment.map((s) => `/v1/ch/clearing/${s}`) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '/v1/keys/usage',
      '/v1/keys/generate',
      '/v1/keys/claim',
      '/v1/keys/rotate',
      '/v1/card/checkout',
      '/v1/card/success?session_id=cs_1',
      '/v1/credits/buy/1k',
      '/healthz',
      '/metrics',
      '/openapi.json',
      '/v1/nope',
      '/v1/bic/%zz',
    ),
  },
  { weight: 1, arbitrary: fc.tuple(segment, segment).map(([a, b]) => `/${a}/${b}?${a}=${b}`) },
);
const jsonBody = fc.oneof(
  { weight: 4, arbitrary: text.map((iban) => JSON.stringify({ iban })) },
  { weight: 2, arbitrary: fc.array(text, { maxLength: 5 }).map((ibans) => JSON.stringify({ ibans })) },
  { weight: 1, arbitrary: text.map((bic) => JSON.stringify({ bic })) },
  { weight: 1, arbitrary: fc.record({ email: text, code: text }).map((b) => JSON.stringify(b)) },
  { weight: 2, arbitrary: fc.json({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'nonsense',
  undefined,
);
type Credential = 'pro' | 'anonymous' | 'unknown' | 'garbage' | 'none';
const credential = fc.constantFrom<Credential>(
  'pro',
  'pro',
  'pro',
  'pro',
  'anonymous',
  'unknown',
  'garbage',
  'none',
  'none',
);
const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 30,
});
const extraHeaders = fc.oneof(
  { weight: 4, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.constantFrom('origin', 'sec-fetch-site', 'x-forwarded-for', 'accept', 'expect', 'x-api-key', 'range'),
      fc.oneof(printable, fc.constantFrom('cross-site', 'same-origin', 'null', '100-continue', 'text/html')),
      { maxKeys: 2 },
    ),
  },
);
const requests = fc.record({
  path: paths,
  method: fc.oneof(
    { weight: 8, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH') },
  ),
  body: fc.option(jsonBody, { freq: 3 }),
  contentType,
  credential,
  headers: extraHeaders,
});

describe('fuzzed requests', () => {
  test(`${RUNS} requests (seed ${SEED}): no unexpected 5xx, JSON errors, quota moved only by charged answers`, async (t) => {
    const outbox = mkdtempSync(join(tmpdir(), 'mod97-fuzz-'));
    after(() => rmSync(outbox, { recursive: true, force: true }));
    const svc = await startService({ env: { MOD97_OUTBOX_DIR: outbox, MOD97_MX_CHECK: 'off' } });
    const keys = await trackedKeys(svc);
    // Every fuzzed answer is held to /openapi.json too: status, content type, JSON body.
    const documented = await responseChecker(() => svc.call('/openapi.json'));
    let trialServed = 0;
    const statuses = new Map<number, number>();

    await fc.assert(
      fc.asyncProperty(requests, async (r) => {
        const method =
          r.method ??
          (r.body === null && !/validate|batch|compliance|generate|claim|rotate|checkout|buy/.test(r.path)
            ? 'GET'
            : 'POST');
        const headers: Record<string, string> = { ...r.headers };
        if (r.body !== null && r.contentType) headers['content-type'] = r.contentType;
        const holder = r.credential === 'pro' || r.credential === 'anonymous' ? keys[r.credential] : null;
        if (holder) headers.authorization = `Bearer ${holder.secret}`;
        if (r.credential === 'unknown') headers.authorization = `Bearer ifk_${'0'.repeat(64)}`;
        if (r.credential === 'garbage') headers.authorization = 'Basic Zm9vOmJhcg==';
        const sent: Sent = { method, path: r.path, headers, body: r.body ?? undefined };
        const answer = await send(svc.url, sent);
        checkAnswer(sent, answer);
        documented.check(method, r.path.split('?')[0]!, { ...answer, body: parsed(answer.text) });
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        // HEAD is refused and a CORS preflight (OPTIONS, 204) is never metered.
        if (answer.status < 300 && METERED.test(r.path) && method !== 'HEAD' && method !== 'OPTIONS') {
          const cost = r.path === '/v1/iban/batch' ? JSON.parse(r.body ?? '{}').ibans.length : 1;
          if (holder) holder.charged += cost;
          else if (!headers['x-api-key']) trialServed += 1;
        }
        // A rotated key keeps its counters under a new secret.
        if (holder && r.path === '/v1/keys/rotate' && answer.status === 200)
          holder.secret = JSON.parse(answer.text).api_key;
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );

    t.diagnostic(`statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    t.diagnostic(`charged pro ${keys.pro.charged}, anonymous ${keys.anonymous.charged}, trial ${trialServed}`);
    for (const [name, holder] of Object.entries(keys)) {
      const usage = await svc.call('/v1/keys/usage', { key: holder.secret });
      assert.equal(usage.body.used, holder.charged, `${name} key: used ${usage.body.used}, charged ${holder.charged}`);
    }
    assert.equal((await svc.call('/v1/keys/usage', { from: FROM })).body.used, trialServed, 'the no-key trial');
  });

  test(`${RAW_RUNS} malformed requests on raw sockets: an answer, if any, is a JSON error; nothing charged`, async (t) => {
    const svc = await startService();
    const key = await svc.newKey();
    const pieces = {
      line: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.constantFrom('GET /v1/ch/clearing/230 HTTP/1.1', 'POST /v1/iban/validate HTTP/1.1'),
        },
        {
          weight: 2,
          arbitrary: fc.constantFrom(
            'GET / HTTP/1.0',
            'GET /v1/bic/DEUTDEFF HTTP/9.9',
            'GET  HTTP/1.1',
            'G\u00c9T / HTTP/1.1',
            'GET /\u0000 HTTP/1.1',
          ),
        },
        { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
      ),
      host: fc.boolean(),
      keyed: fc.boolean(),
      headers: fc.array(
        fc.oneof(
          {
            weight: 3,
            arbitrary: fc.constantFrom(
              'Transfer-Encoding: gzip',
              'Transfer-Encoding: chunked',
              'Content-Length: 5',
              'Content-Length: -1',
              'Content-Length: 1, 2',
              'Content-Type: application/json',
              'Expect: nonsense',
              'Bad Header',
              'X-A: \u0001',
            ),
          },
          { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
        ),
        { maxLength: 3 },
      ),
      tail: fc.oneof(fc.constant(''), fc.string({ maxLength: 30 }), fc.constant('0\r\n\r\n')),
    };
    const raws = fc.sample(fc.record(pieces), { seed: SEED, numRuns: RAW_RUNS });
    let charged = 0;
    const statuses = new Map<number, number>();
    for (let i = 0; i < raws.length; i += 20) {
      const replies = await Promise.all(
        raws.slice(i, i + 20).map(async ({ line, host, keyed, headers: extra, tail }) => {
          const headers = [...(host ? ['Host: x'] : []), ...(keyed ? [`Authorization: Bearer ${key}`] : []), ...extra];
          const bytes = Buffer.from(`${line}\r\n${headers.join('\r\n')}\r\n\r\n${tail}`, 'latin1');
          return { r: await rawRequest(svc.url, bytes, { end: true, waitMs: 10_000 }), line, headers };
        }),
      );
      for (const { r, line, headers } of replies) {
        const what = JSON.stringify({ line, headers });
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        if (r.status === 0) continue; // closed without an answer: the socket could not be written
        assert.ok(r.status < 500, `${what} → ${r.text}`);
        if (r.status >= 400 && !line.startsWith('HEAD')) {
          assert.equal(typeof r.body?.error, 'string', `${what} → ${r.text}`);
          assert.equal(typeof r.body?.message, 'string', `${what} → ${r.text}`);
        }
        if (
          r.status < 300 &&
          line.startsWith('GET /v1/ch/clearing/230') &&
          headers.includes(`Authorization: Bearer ${key}`)
        )
          charged += 1;
      }
    }
    t.diagnostic(`statuses ${JSON.stringify(Object.fromEntries(statuses))}, charged ${charged}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(
      (await svc.call('/v1/keys/usage', { key })).body.used,
      charged,
      'the key paid only for answers it got',
    );
  });
});

/** A Pro key (room for the whole run) and an anonymous key (exhausted on the way, so 402s are fuzzed too). */
async function trackedKeys(svc: TestService) {
  const pro = await svc.makePro(await svc.newKey('127.0.9.2'), 100_000);
  return {
    pro: { secret: pro, charged: 0 },
    anonymous: { secret: await svc.newKey('127.0.9.3'), charged: 0 },
  };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function checkAnswer(sent: Sent, answer: Answer): void {
  const what = `${sent.method} ${sent.path} ${JSON.stringify(sent.headers)} ${sent.body ?? ''} → ${answer.status} ${answer.text.slice(0, 300)}`;
  assert.equal(answer.headers['x-content-type-options'], 'nosniff', what);
  if (answer.status < 400 || sent.method === 'HEAD') return;
  let body: { error?: unknown; message?: unknown };
  try {
    body = JSON.parse(answer.text);
  } catch {
    assert.fail(`not JSON: ${what}`);
  }
  assert.equal(typeof body.error, 'string', what);
  assert.equal(typeof body.message, 'string', what);
  if (answer.status >= 500) assert.ok(DOCUMENTED_5XX.has(body.error as string), `unexpected 5xx: ${what}`);
}
