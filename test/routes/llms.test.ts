/** GET /llms.txt: what the service does, each route with its cost and x402 price, and the links. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PACKS, X402_PRICES_USD } from '../../src/plans.ts';
import { startService } from '../support/app.ts';

test('llms.txt lists each route with its cost in requests and x402 price, with absolute links', async () => {
  const svc = await startService();
  const res = await svc.call('/llms.txt');
  assert.equal(res.status, 200);
  assert.match(String(res.headers['content-type']), /^text\/plain/);
  const text = res.text;
  assert.match(text, /^# mod97\n\n> /);
  assert.ok(text.includes(`](${svc.url}/openapi.json)`));
  assert.ok(text.includes(`](${svc.url}/docs)`));
  const line = (route: string) => text.split('\n').find((l) => l.startsWith(`- ${route.replace(' ', ` ${svc.url}`)}:`));
  const expected: [string, RegExp][] = [
    ['POST /v1/iban/validate', new RegExp(`cost: 1 request; x402 price: \\$${X402_PRICES_USD.validate}`)],
    [
      'POST /v1/iban/batch',
      new RegExp(`cost: 1 request per IBAN; x402 price: \\$${X402_PRICES_USD.batchPerIban} per IBAN`),
    ],
    ['GET /v1/bic/:code', new RegExp(`cost: 1 request; x402 price: \\$${X402_PRICES_USD.bic}`)],
    ['POST /v1/iban/compliance', new RegExp(`cost: 1 request; x402 price: \\$${X402_PRICES_USD.compliance}`)],
    ['GET /v1/ch/clearing/:iid', new RegExp(`cost: 1 request; x402 price: \\$${X402_PRICES_USD.clearing}`)],
    ['GET /v1/keys/usage', /cost: free/],
    ...PACKS.map((p): [string, RegExp] => [
      `POST /v1/credits/buy/${p.pack}`,
      new RegExp(`x402 price: \\$${p.priceUsd}\\b`),
    ]),
  ];
  for (const [route, cost] of expected) assert.match(line(route) ?? `(no line for ${route})`, cost);
  // The rail is off here, and the text says so rather than offer a payment that cannot be made.
  assert.match(text, /x402: off on this server/);
});

test('llms.txt names the Python client and how to call this service with it', async () => {
  const svc = await startService();
  const text = (await svc.call('/llms.txt')).text;
  const python = text.split('\n').find((l) => l.startsWith('- Python 3.11+'));
  assert.ok(python, 'a line for the Python client');
  assert.match(python, /pip install \.\/clients\/python/);
  assert.ok(python.includes(`from mod97 import Mod97\`, then \`with Mod97(base_url="${svc.url}")`));
  assert.match(python, /MOD97_API_KEY/);
});
