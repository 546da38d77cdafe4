/**
 * POST /v1/payment/check over a real socket on each store engine, and the MCP tool check_payment
 * through the official SDK client: the answer (the IBAN as /v1/iban/validate answers it), its
 * metering (1 per call, refunded on a 400), and its declaration.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import * as examples from '../../src/api/examples.ts';
import { X402_PRICES_USD } from '../../src/plans.ts';
import { connectMcp, engines } from '../mcp/support.ts';
import { startService, type TestService } from '../support/app.ts';

const QR_BILL = {
  creditor: {
    iban: 'CH44 3199 9123 0008 8901 2',
    name: 'Robert Schneider AG',
    address: { street: 'Rue du Lac', building_number: '1268', postal_code: '2501', town: 'Biel', country: 'CH' },
  },
  amount: 1949.75,
  currency: 'CHF',
  reference: '21 00000 00003 13947 14300 09017',
};

for (const engine of engines()) {
  // Started at the top level: startService ties its own clean-up to the test that starts it.
  const svc = (engine.skip ? null : await startService({ databaseUrl: engine.databaseUrl })) as TestService;

  describe(`POST /v1/payment/check (${engine.name})`, { skip: engine.skip }, () => {
    // Closed when the suite ends, before the file's hooks drop the PostgreSQL schema it works in.
    after(() => svc?.close());
    test('the declared example is what the service answers; its IBAN part is /v1/iban/validate’s answer', async () => {
      const key = await svc.newKey('127.0.35.1');
      const example = examples.paymentCheck;
      const r = await svc.call(example.path, { json: example.body, key, from: '127.0.35.1' });
      // The data's version changes with every update of the bundled data: the rest must not.
      const withoutVersion = ({ attribution: _, iban, ...rest }: Record<string, any>) => {
        const { data_version: __, ...ibanRest } = iban;
        return { ...rest, iban: ibanRest };
      };
      assert.deepEqual(
        [r.status, withoutVersion(r.body)],
        [200, withoutVersion(example.answer as Record<string, any>)],
      );
      const validate = await svc.call('/v1/iban/validate', {
        json: { iban: 'DE89 3704 0044 0532 0130 00' },
        key,
        from: '127.0.35.1',
      });
      // suggestion_details (the suggestions' banks, for a person choosing one) is validate's alone.
      const { attribution: ___, suggestion_details: ____, ...validated } = validate.body;
      assert.deepEqual(r.body.iban, validated);
      assert.equal(r.headers['x-quota-used'], '1');
    });

    test('a Swiss QR-bill to a QR-IBAN with its QR reference is valid', async () => {
      const key = await svc.newKey('127.0.35.2');
      const r = await svc.call('/v1/payment/check', { json: QR_BILL, key, from: '127.0.35.2' });
      assert.equal(r.status, 200);
      assert.deepEqual(
        [r.body.valid, r.body.scheme, r.body.iban.qr_iban, r.body.reference.type, r.body.errors],
        [true, 'swiss_qr_bill', true, 'qrr', []],
      );
    });

    test('an invalid payment is a charged answer listing each error with its field', async () => {
      const key = await svc.newKey('127.0.35.3');
      const r = await svc.call('/v1/payment/check', {
        json: {
          ...QR_BILL,
          creditor: { ...QR_BILL.creditor, address: undefined, name: 'N'.repeat(71) },
          amount: '19.999',
          currency: 'USD',
          reference: undefined,
        },
        key,
        from: '127.0.35.3',
      });
      assert.equal(r.status, 200);
      assert.equal(r.body.valid, false);
      assert.equal(r.body.reference, null);
      assert.deepEqual(
        r.body.errors.map((e: { code: string; field: string }) => [e.code, e.field]),
        [
          ['name_too_long', 'creditor.name'],
          ['address_missing', 'creditor.address'],
          ['amount_invalid', 'amount'],
          ['currency_not_allowed', 'currency'],
          ['qr_iban_needs_qrr', 'reference'],
        ],
      );
      assert.equal(r.headers['x-quota-used'], '1');
    });

    test('a body of the wrong shape is 400 and refunded; no key is 402; an unknown key is 401', async () => {
      const key = await svc.newKey('127.0.35.4');
      const bad = await svc.call('/v1/payment/check', { json: { currency: 'EUR' }, key, from: '127.0.35.4' });
      assert.deepEqual([bad.status, bad.body.error, bad.body.field], [400, 'invalid_request', 'creditor']);
      // A member missing inside another is named by its path, as the check's own errors are.
      const noIban = await svc.call('/v1/payment/check', {
        json: { creditor: { name: 'X' }, currency: 'EUR' },
        key,
        from: '127.0.35.4',
      });
      assert.deepEqual([noIban.status, noIban.body.field], [400, 'creditor.iban']);
      const scheme = await svc.call('/v1/payment/check', {
        json: { ...QR_BILL, scheme: 'ach' },
        key,
        from: '127.0.35.4',
      });
      assert.deepEqual([scheme.status, scheme.body.field], [400, 'scheme']);
      // A member a payment does not take is refused, not dropped: a misspelt remittance or an
      // address's `city` would otherwise be checked (and drawn) as if it were absent.
      const misspelt = await svc.call('/v1/payment/check', {
        json: { ...QR_BILL, remitance: 'Invoice 42' },
        key,
        from: '127.0.35.4',
      });
      assert.deepEqual([misspelt.status, misspelt.body.field], [400, 'remitance']);
      assert.match(
        misspelt.body.message,
        /^`remitance` is not a field of this request \(did you mean `remittance`\?\)/,
      );
      const city = await svc.call('/v1/payment/check', {
        json: { ...QR_BILL, creditor: { ...QR_BILL.creditor, address: { ...QR_BILL.creditor.address, city: 'Biel' } } },
        key,
        from: '127.0.35.4',
      });
      assert.deepEqual([city.status, city.body.field], [400, 'creditor.address.city']);
      assert.match(
        city.body.message,
        /`creditor\.address` takes `street`, `building_number`, `postal_code`, `town`, `country`\./,
      );
      assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 0);
      const none = await svc.call('/v1/payment/check', { json: QR_BILL, from: '127.0.35.4' });
      assert.deepEqual([none.status, none.body.error], [402, 'payment_required']);
      const wrong = await svc.call('/v1/payment/check', { json: QR_BILL, key: `ifk_${'1'.repeat(64)}` });
      assert.deepEqual([wrong.status, wrong.body.error], [401, 'invalid_api_key']);
    });

    test('is declared like the other data routes: OpenAPI, llms.txt, x402 price', async () => {
      const doc = (await svc.call('/openapi.json')).body;
      assert.equal(doc.paths['/v1/payment/check'].post.operationId, 'checkPayment');
      const llms = (await svc.call('/llms.txt')).text;
      const line = llms.split('\n').find((l) => l.startsWith(`- POST ${svc.url}/v1/payment/check:`));
      assert.match(line ?? '', /cost: 1 request; x402 price: \$0\.002/);
      assert.equal(X402_PRICES_USD.paymentCheck, 0.002);
    });

    test('MCP tool check_payment answers the REST JSON and draws the same quota', async () => {
      const restKey = await svc.newKey('127.0.35.5');
      const mcpKey = await svc.newKey('127.0.35.6');
      const mcp = await connectMcp(svc.url, { key: mcpKey, from: '127.0.35.6' });
      const tool = (await mcp.client.listTools()).tools.find((t) => t.name === 'check_payment');
      assert.ok(tool, 'check_payment is listed');
      assert.deepEqual(tool.inputSchema.required, ['creditor', 'currency']);
      const result = await mcp.client.callTool({ name: 'check_payment', arguments: QR_BILL });
      const rest = await svc.call('/v1/payment/check', { json: QR_BILL, key: restKey, from: '127.0.35.5' });
      assert.equal(result.isError ?? false, false);
      assert.deepEqual(result.structuredContent, rest.body);
      assert.equal((await svc.call('/v1/keys/usage', { key: mcpKey })).body.used, 1);
    });
  });
}
