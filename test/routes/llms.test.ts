/** GET /llms.txt: what the service does, each route with its cost and x402 price, and the links. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PACKS, X402_PRICES_USD } from '../../src/plans.ts';
import { startService } from '../support/app.ts';
import { startCardService } from '../support/stripe/card-service.ts';

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

/** The lines of llms.txt that say what can be bought and what a 402 offers. */
const purchaseLines = (text: string) => text.split('\n').filter((l) => /^- (Pro|Prepaid packs)|Out of quota/.test(l));

test('with no payment rail on, llms.txt says Pro and the packs are not sold here and offers no purchase', async () => {
  const svc = await startService();
  const [pro, packs, outOfQuota] = purchaseLines((await svc.call('/llms.txt')).text);
  assert.match(pro, /^- Pro: 10,000 requests a month for \$29, not sold on this server \(card payments are off\)\.$/);
  assert.match(packs, /not sold on this server \(card payments and x402 are off\)\.$/);
  assert.doesNotMatch(packs, /card\/checkout|credits\/buy/);
  assert.match(outOfQuota, /`options` \(claim the key by e-mail, wait for the monthly reset\)\.$/);
  // What it says is so: neither purchase can be started.
  assert.equal((await svc.call('/v1/card/checkout', { method: 'POST', json: { product: 'pro' } })).status, 503);
  assert.equal((await svc.call('/v1/credits/buy/1k', { method: 'POST' })).status, 404);
});

test('with the card rail on, llms.txt sells Pro and the packs by card checkout, not by x402', async () => {
  const { service } = await startCardService();
  const [pro, packs, outOfQuota] = purchaseLines((await service.call('/llms.txt')).text);
  const checkout = `POST ${service.url}/v1/card/checkout`;
  assert.equal(pro, `- Pro: 10,000 requests a month for $29, by card: ${checkout} with \`{"product": "pro"}\`.`);
  assert.ok(packs.endsWith(`; by card: ${checkout} with \`{"product": "pack_<pack>"}\`.`), packs);
  assert.doesNotMatch(packs, /x402/);
  assert.match(outOfQuota, /\(claim the key by e-mail, buy credits by card, wait for the monthly reset\)\.$/);
});
