/**
 * x402 discovery on the local chain setup: GET /.well-known/x402 and the bazaar extension of
 * every PAYMENT-REQUIRED, read back with @x402/core and checked with @x402/extensions, the way a
 * facilitator catalogues a paid resource.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { decodePaymentRequiredHeader, decodePaymentSignatureHeader } from '@x402/core/http';
import { extractDiscoveryInfo, validateDiscoveryExtension, type DiscoveryExtension } from '@x402/extensions/bazaar';
import { startPaidService, type PaidService } from '../payments/x402/paid-service.ts';
import { startService } from '../support/app.ts';
import { anvilBinary } from '../support/x402/chain.ts';

const skip = !anvilBinary() && 'anvil (optional dependency, linux-x64 only) is not installed';
// Started at the top level: startService ties its own clean-up to the test that starts it.
const paid = (skip ? null : await startPaidService()) as PaidService;
after(() => paid?.stop());

const PAID = [
  ['POST', '/v1/iban/validate', '5000'],
  ['POST', '/v1/iban/batch', '2000'],
  ['POST', '/v1/iban/from-account', '5000'],
  ['POST', '/v1/iban/extract', '5000'],
  ['POST', '/v1/reference/validate', '2000'],
  ['POST', '/v1/reference/create', '2000'],
  ['POST', '/v1/payment/check', '2000'],
  ['POST', '/v1/payment/qr', '2000'],
  ['POST', '/v1/payment/qr/read', '2000'],
  ['GET', '/v1/bic/:code', '3000'],
  ['POST', '/v1/iban/compliance', '20000'],
  ['GET', '/v1/ch/clearing/:iid', '3000'],
  ['POST', '/v1/credits/buy/1k', '4000000'],
  ['POST', '/v1/credits/buy/5k', '20000000'],
  ['POST', '/v1/credits/buy/25k', '80000000'],
];

const bazaarOf = (extensions: Record<string, unknown> | undefined) => extensions?.bazaar as DiscoveryExtension;
/** The parts of an HTTP declaration the tests read. */
const httpOf = (extension: DiscoveryExtension) =>
  extension as unknown as {
    routeTemplate?: string;
    info: { input: { type: string; method: string; bodyType?: string; pathParams?: object } };
    schema: { properties: Record<string, { properties: Record<string, Record<string, unknown>> }> };
  };
const required = (value: string | string[] | undefined) => decodePaymentRequiredHeader(String(value));

describe('x402 discovery', { skip }, () => {
  test('GET /.well-known/x402 lists every paid resource with its price, description and bazaar schema', async () => {
    const { service, chain } = paid;
    const res = await service.call('/.well-known/x402');
    assert.equal(res.status, 200);
    assert.equal(res.body.x402Version, 2);
    const listed = res.body.resources.map((r: { method: string; resource: string; accepts: { amount: string }[] }) => [
      r.method,
      r.resource.slice(service.url.length),
      r.accepts[0].amount,
    ]);
    assert.deepEqual(listed, PAID);
    for (const resource of res.body.resources) {
      assert.ok(resource.resource.startsWith(`${service.url}/`), resource.resource);
      assert.match(resource.description, /Price: \$/);
      assert.deepEqual(
        [resource.accepts[0].scheme, resource.accepts[0].network, resource.accepts[0].payTo],
        ['exact', 'eip155:84532', chain.payTo],
      );
      const check = validateDiscoveryExtension(bazaarOf(resource.extensions));
      assert.equal(check.valid, true, `${resource.resource}: ${check.errors?.join('; ')}`);
      assert.equal(httpOf(bazaarOf(resource.extensions)).info.input.method, resource.method);
    }
  });

  test('llms.txt names the rail as on and links the discovery document', async () => {
    const text = (await paid.service.call('/llms.txt')).text;
    assert.match(text, /x402: on;/);
    // Packs are sold by x402 here (no card rail), and a key out of quota may pay per call.
    assert.ok(text.includes(`with x402: POST ${paid.service.url}/v1/credits/buy/<pack>.`));
    assert.match(text, /- Pro: .*not sold on this server/);
    assert.match(
      text,
      /\(claim the key by e-mail, buy credits by x402, pay per call with x402, wait for the monthly reset\)/,
    );
    assert.ok(text.includes(`${paid.service.url}/.well-known/x402`));
  });

  test('a 402 of a GET route carries the description and a valid bazaar extension with its path parameters', async () => {
    const res = await paid.service.call('/v1/bic/DEUTDEFF', { from: '127.0.8.1' });
    assert.equal(res.status, 402);
    const header = required(res.headers['payment-required']);
    assert.match(header.resource.description ?? '', /BIC.*Price: \$0\.003; or 1 request of an API key's quota\./);
    const bazaar = bazaarOf(header.extensions);
    assert.equal(validateDiscoveryExtension(bazaar).valid, true);
    assert.deepEqual(bazaar.info.input, {
      type: 'http',
      method: 'GET',
      queryParams: {},
      pathParams: { code: 'DEUTDEFF' },
    });
    assert.equal(httpOf(bazaar).routeTemplate, '/v1/bic/:code');
    // The output schema is the route's answer schema.
    const example = httpOf(bazaar).schema.properties.output.properties.example;
    assert.ok((example.required as string[]).includes('bic11'));
  });

  test('a 402 of a POST route declares the JSON body schema of the route and an example body', async () => {
    const res = await paid.service.call('/v1/iban/batch', { json: { ibans: ['x'] }, from: '127.0.8.2' });
    assert.equal(res.status, 402);
    const bazaar = bazaarOf(required(res.headers['payment-required']).extensions);
    assert.equal(validateDiscoveryExtension(bazaar).valid, true);
    const { input } = httpOf(bazaar).info;
    assert.deepEqual([input.type, input.method, input.bodyType], ['http', 'POST', 'json']);
    const body = httpOf(bazaar).schema.properties.input.properties.body;
    assert.deepEqual((body.properties as { ibans: { maxItems: number } }).ibans.maxItems, 1000);
  });

  test('the official client pays a described route, echoing the extension a facilitator then catalogues', async () => {
    const payer = await paid.chain.newPayer(1_000_000n);
    const fetcher = paid.payingFetch(payer, '127.0.8.3');
    const res = await fetcher('/v1/ch/clearing/100');
    assert.equal(res.status, 200);
    const signature = fetcher.sent.map((h) => h.get('payment-signature')).find(Boolean);
    const payload = decodePaymentSignatureHeader(String(signature));
    const found = extractDiscoveryInfo(payload, payload.accepted);
    assert.ok(found, 'the facilitator finds the discovery info');
    // Catalogued by its route template, on the service's public address.
    assert.equal(new URL(found.resourceUrl).pathname, '/v1/ch/clearing/:iid');
    assert.equal((found as { method?: string }).method, 'GET');
    assert.match(found.description ?? '', /clearing number/);
  });

  test('the largest declaration (compliance) stays small enough to be echoed in a request header', async () => {
    const refused = await paid.service.call('/v1/iban/compliance', { json: { iban: 'x' }, from: '127.0.8.4' });
    assert.equal(refused.status, 402);
    // Node and most proxies refuse request headers over 16 KiB; the payment echoes the extension.
    assert.ok(String(refused.headers['payment-required']).length < 8 * 1024);
    const payer = await paid.chain.newPayer(1_000_000n);
    const res = await paid.payingFetch(payer, '127.0.8.4')('/v1/iban/compliance', { json: { iban: 'x' } });
    assert.equal(res.status, 200);
  });
});

test('with the x402 rail off there is no /.well-known/x402', async () => {
  const svc = await startService();
  assert.equal((await svc.call('/.well-known/x402')).status, 404);
});
