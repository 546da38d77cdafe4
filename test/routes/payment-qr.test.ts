/**
 * POST /v1/payment/qr and /v1/payment/qr/read over a real socket on each store engine, and the
 * MCP tools make_payment_qr and read_payment_qr through the official SDK client: the answers, a
 * code read back to the payment it was made from, the refusals beside their fields, metering (1
 * per call, key or payment, no trial, refusals refunded), Idempotency-Key, and the derived
 * surfaces (OpenAPI, llms.txt, tool list).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { paymentQrRoute, readPaymentQrRoute } from '../../src/api/payment-qr.ts';
import { X402_PRICES_USD } from '../../src/plans.ts';
import { connectMcp, engines } from '../mcp/support.ts';
import { startService } from '../support/app.ts';
import { EPC_001_EXAMPLE, lines, SWISS_SCOR_EXAMPLE } from '../support/swiss-qr-examples.ts';
import { noZbar, zbar } from '../support/zbar.ts';

const dir = mkdtempSync(join(tmpdir(), 'mod97-qr-route-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const EPC_BODY = {
  creditor: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', name: 'ACME GmbH' },
  amount: '149.90',
  currency: 'EUR',
  reference: 'RF18 5390 0754 7034',
};

const SWISS_BODY = {
  creditor: {
    iban: 'CH44 3199 9123 0008 8901 2',
    name: 'Robert Schneider AG',
    address: { street: 'Rue du Lac', building_number: '1268', postal_code: '2501', town: 'Biel', country: 'CH' },
  },
  amount: 1949.75,
  currency: 'CHF',
  reference: '21 00000 00003 13947 14300 09017',
  remittance: 'Order dated 18.06.2020',
};

for (const engine of engines()) {
  describe(`payment QR routes (${engine.name})`, { skip: engine.skip }, async () => {
    const svc = engine.skip ? null : await startService({ databaseUrl: engine.databaseUrl });
    const s = () => svc as NonNullable<typeof svc>;

    test('the declared examples are what the routes answer', async () => {
      const key = await s().newKey('127.0.9.1');
      for (const { example } of [paymentQrRoute, readPaymentQrRoute]) {
        const r = await s().call(example.path, { json: example.body, key, from: '127.0.9.1' });
        assert.equal(r.status, example.status);
        const { attribution, ...answer } = r.body;
        assert.ok(attribution, 'a free key owes attribution');
        const { attribution: shown, ...declared } = example.answer as Record<string, unknown>;
        assert.ok(shown);
        assert.deepEqual(answer, declared);
      }
    });

    test('an EPC code as SVG, then as PNG read back to the payment it was made from; 1 request each', async () => {
      const key = await s().newKey('127.0.9.2');
      const svg = await s().call('/v1/payment/qr', { json: EPC_BODY, key, from: '127.0.9.2' });
      assert.equal(svg.status, 200);
      assert.equal(svg.body.standard, 'epc');
      assert.equal(
        svg.body.payload,
        'BCD\n002\n1\nSCT\nCOBADEFFXXX\nACME GmbH\nDE89370400440532013000\nEUR149.90\n\nRF18539007547034',
      );
      assert.equal(svg.body.image.format, 'svg');
      assert.equal(svg.body.image.media_type, 'image/svg+xml');
      assert.match(svg.body.image.data, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      assert.equal(svg.headers['x-quota-used'], '1');
      assert.deepEqual(svg.body.warnings, []);
      // a warning does not stop the code, and is said: the text left out beside the reference
      const both = await s().call('/v1/payment/qr', {
        json: { ...EPC_BODY, remittance: 'Invoice 2026-118', format: 'payload' },
        key,
        from: '127.0.9.2',
      });
      assert.equal(both.status, 200);
      assert.equal(both.body.payload, svg.body.payload, 'the code carries the reference alone');
      assert.deepEqual(
        both.body.warnings.map((w: { code: string; field: string }) => [w.code, w.field]),
        [['reference_and_remittance', 'remittance']],
      );

      const png = await s().call('/v1/payment/qr', { json: { ...EPC_BODY, format: 'png' }, key, from: '127.0.9.2' });
      assert.equal(png.body.image.media_type, 'image/png');
      assert.equal(Buffer.from(png.body.image.data, 'base64').subarray(1, 4).toString(), 'PNG');
      const read = await s().call('/v1/payment/qr/read', {
        json: { image: png.body.image.data },
        key,
        from: '127.0.9.2',
      });
      assert.equal(read.status, 200);
      assert.equal(read.body.payload, svg.body.payload);
      assert.deepEqual(read.body.fields, {
        standard: 'epc',
        creditor: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', name: 'ACME GmbH' },
        amount: '149.90',
        currency: 'EUR',
        reference: 'RF18539007547034',
      });
      assert.equal(read.body.check.valid, true);
      assert.equal(read.headers['x-quota-used'], '4');
    });

    test('a CH IBAN makes a Swiss QR-bill code by default; its PNG, as a data: URL, reads back', async () => {
      const key = await s().newKey('127.0.9.3');
      const made = await s().call('/v1/payment/qr', { json: { ...SWISS_BODY, format: 'png' }, key, from: '127.0.9.3' });
      assert.equal(made.status, 200);
      assert.equal(made.body.standard, 'swiss_qr_bill');
      assert.deepEqual(made.body.payload.split('\n').slice(0, 5), ['SPC', '0200', '1', 'CH4431999123000889012', 'S']);
      if (!noZbar) {
        // What a banking app would scan: the PNG, Swiss cross and all, read by a decoder of its own.
        const png = join(dir, `bill-${engine.name}.png`);
        writeFileSync(png, Buffer.from(made.body.image.data, 'base64'));
        assert.equal(zbar(png), made.body.payload);
      }
      const read = await s().call('/v1/payment/qr/read', {
        json: { image: `data:image/png;base64,${made.body.image.data}` },
        key,
        from: '127.0.9.3',
      });
      assert.equal(read.status, 200);
      assert.equal(read.body.standard, 'swiss_qr_bill');
      assert.deepEqual(read.body.fields, {
        ...SWISS_BODY,
        standard: 'swiss_qr_bill',
        creditor: { ...SWISS_BODY.creditor, iban: 'CH4431999123000889012' },
        amount: '1949.75',
        reference: '210000000003139471430009017',
      });
      // The same fields make the same code again.
      const again = await s().call('/v1/payment/qr', {
        json: { ...read.body.fields, format: 'payload' },
        key,
        from: '127.0.9.3',
      });
      assert.equal(again.body.payload, made.body.payload);
    });

    test('a payment that cannot be coded is 422 payment_data_invalid naming each field, and not charged', async () => {
      const key = await s().newKey('127.0.9.4');
      const noAddress = await s().call('/v1/payment/qr', {
        json: { creditor: { iban: 'CH4431999123000889012', name: 'Robert Schneider AG' }, currency: 'CHF' },
        key,
        from: '127.0.9.4',
      });
      assert.equal(noAddress.status, 422);
      assert.equal(noAddress.body.error, 'payment_data_invalid');
      assert.equal(noAddress.body.standard, 'swiss_qr_bill');
      assert.ok(
        noAddress.body.errors.some(
          (e: { code: string; field: string }) => e.code === 'address_missing' && e.field === 'creditor.address',
        ),
        JSON.stringify(noAddress.body.errors),
      );
      assert.match(noAddress.body.message, /creditor\.address/);
      const badIban = await s().call('/v1/payment/qr', {
        json: { ...EPC_BODY, creditor: { ...EPC_BODY.creditor, iban: 'DE89370400440532013001' } },
        key,
        from: '127.0.9.4',
      });
      assert.equal(badIban.status, 422);
      assert.deepEqual(
        badIban.body.errors.map((e: { field: string }) => e.field),
        ['creditor.iban'],
      );
      const notRf = await s().call('/v1/payment/qr', {
        json: { ...EPC_BODY, reference: '+++090/9337/55493+++', standard: 'epc' },
        key,
        from: '127.0.9.4',
      });
      assert.equal(notRf.status, 422);
      assert.ok(notRf.body.errors.some((e: { field: string }) => e.field === 'reference'));
      const unknownFormat = await s().call('/v1/payment/qr', {
        json: { ...EPC_BODY, format: 'gif' },
        key,
        from: '127.0.9.4',
      });
      assert.deepEqual([unknownFormat.status, unknownFormat.body.error], [400, 'invalid_request']);
      assert.equal((await s().call('/v1/keys/usage', { key })).body.used, 0);
    });

    test('reading: a payload of neither standard, an image without a code, both or neither input', async () => {
      const key = await s().newKey('127.0.9.5');
      const read = (json: unknown) => s().call('/v1/payment/qr/read', { json, key, from: '127.0.9.5' });
      const url = await read({ payload: 'https://example.com/pay' });
      assert.deepEqual([url.status, url.body.error], [422, 'qr_standard_unknown']);
      const white = new PNG({ width: 60, height: 60 });
      white.data.fill(255);
      const blankPng = PNG.sync.write(white).toString('base64');
      const blank = await read({ image: blankPng });
      assert.deepEqual([blank.status, blank.body.error], [422, 'qr_not_found']);
      const notImage = await read({ image: Buffer.from('hello').toString('base64') });
      assert.deepEqual([notImage.status, notImage.body.error], [422, 'image_unreadable']);
      const both = await read({ payload: 'BCD', image: blankPng });
      assert.deepEqual([both.status, both.body.error], [400, 'invalid_request']);
      const neither = await read({});
      assert.deepEqual([neither.status, neither.body.error], [400, 'invalid_request']);
      assert.equal((await s().call('/v1/keys/usage', { key })).body.used, 0);
      // A payload the check faults is read, with the check's verdict.
      const faulted = await read({ payload: 'BCD\n002\n1\nSCT\n\nACME\nDE89370400440532013001\nEUR5' });
      assert.equal(faulted.status, 200);
      assert.equal(faulted.body.check.valid, false);
      // So is one in another currency, or with a decimal comma: the check names the field.
      for (const [line, code] of [
        ['USD5', 'currency_not_allowed'],
        ['EUR5,00', 'amount_invalid'],
      ]) {
        const r = await read({ payload: `BCD\n002\n1\nSCT\n\nACME\nDE89370400440532013000\n${line}\n` });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(
          r.body.check.errors.map((e: { code: string }) => e.code),
          [code],
          line,
        );
      }
    });

    test("reading: a code that breaks its standard's lines is read, and its check names each line at fault", async () => {
      const key = await s().newKey('127.0.9.7');
      const read = (payload: string) => s().call('/v1/payment/qr/read', { json: { payload }, key, from: '127.0.9.7' });
      const faults = (r: Awaited<ReturnType<typeof read>>) =>
        r.body.check.errors.map((e: { code: string; field: string }) => `${e.code} ${e.field}`);
      /** The guidelines' RF example (SCOR) with some of its 31 lines (1-based) replaced. */
      const bill = (changes: Record<number, string>) =>
        lines(...SWISS_SCOR_EXAMPLE.split('\n').map((line, i) => changes[i + 1] ?? line));
      const intact = await read(bill({}));
      assert.deepEqual([intact.status, intact.body.check.valid], [200, true]);

      // NON with a reference: the reference is given as written, and named as the fault.
      const non = await read(bill({ 28: 'NON' }));
      assert.equal(non.status, 200);
      assert.equal(non.body.fields.reference, 'RF18539007547034');
      assert.equal(non.body.check.valid, false);
      assert.deepEqual(faults(non), ['reference_type_mismatch reference']);
      assert.match(non.body.check.errors[0].message, /reference type \(line 28\) is NON.*line 29 .*"RF18539007547034"/);

      const ultimate = await read(bill({ 12: 'S', 13: 'Ultimate Creditor AG' }));
      assert.deepEqual(faults(ultimate), ['ultimate_creditor_filled ultimate_creditor']);
      assert.match(
        ultimate.body.check.errors[0].message,
        /Lines 12 to 18 \(the ultimate creditor\) .*line 12 holds "S"/,
      );

      for (const amount of ['199.9', '0199.95', '199']) {
        const r = await read(bill({ 19: amount }));
        assert.equal(r.body.check.valid, false, amount);
        assert.deepEqual(faults(r), ['amount_invalid amount'], amount);
        assert.match(
          r.body.check.errors[0].message,
          new RegExp(`Line 19 \\(the amount\\) is "${amount}".*two decimals`),
        );
      }

      // EPC069-12: version 001 requires the BIC, 002 does not.
      const epc = (version: string) =>
        EPC_001_EXAMPLE.replace('\n001\n', `\n${version}\n`).replace('\nBPOTBEB1\n', '\n\n');
      const v1 = await read(epc('001'));
      assert.deepEqual([v1.status, v1.body.check.valid], [200, false]);
      assert.deepEqual(faults(v1), ['bic_missing creditor.bic']);
      assert.match(v1.body.check.errors[0].message, /Line 5 \(the BIC\) is empty.*version 001/);
      assert.equal((await read(epc('002'))).body.check.valid, true);
    });

    test('without a key or a payment it is 402 (no trial); an Idempotency-Key retry is answered once, charged once', async () => {
      const anonymous = await s().call('/v1/payment/qr', { json: EPC_BODY, from: '127.0.9.6' });
      assert.deepEqual([anonymous.status, anonymous.body.error], [402, 'payment_required']);
      const key = await s().newKey('127.0.9.6');
      const headers = { 'idempotency-key': 'qr-retry-0001' };
      const first = await s().call('/v1/payment/qr', { json: EPC_BODY, key, from: '127.0.9.6', headers });
      const retry = await s().call('/v1/payment/qr', { json: EPC_BODY, key, from: '127.0.9.6', headers });
      assert.equal(retry.headers['idempotent-replayed'], 'true');
      assert.deepEqual(retry.body, first.body);
      assert.equal((await s().call('/v1/keys/usage', { key })).body.used, 1);
    });

    test('declared like the other data routes: OpenAPI, llms.txt with cost and x402 price', async () => {
      const doc = (await s().call('/openapi.json')).body;
      assert.ok(doc.paths['/v1/payment/qr'].post);
      assert.ok(doc.paths['/v1/payment/qr/read'].post);
      const llms = (await s().call('/llms.txt')).text;
      for (const path of ['/v1/payment/qr', '/v1/payment/qr/read']) {
        const line = llms.split('\n').find((l) => l.startsWith(`- POST ${s().url}${path}:`));
        assert.match(line ?? '', /cost: 1 request; x402 price: \$0\.002/, path);
      }
      assert.deepEqual([X402_PRICES_USD.paymentQr, X402_PRICES_USD.paymentQrRead], [0.002, 0.002]);
    });
  });
}

describe('MCP tools make_payment_qr and read_payment_qr', async () => {
  const svc = await startService();

  test('make_payment_qr answers the PNG as an image part and the payload as text; read_payment_qr reads it', async () => {
    const key = await svc.newKey('127.0.9.20');
    const mcp = await connectMcp(svc.url, { key, from: '127.0.9.20' });
    const { tools } = await mcp.client.listTools();
    const make = tools.find((t) => t.name === 'make_payment_qr');
    assert.ok(make && tools.some((t) => t.name === 'read_payment_qr'));
    assert.equal(make.inputSchema.properties?.format, undefined, 'the tool always answers a PNG');
    assert.match(make.description ?? '', /Cost: 1 request/);
    // Its description offers what it answers, not the route's other formats.
    assert.match(make.description ?? '', /Answers the PNG as an image content part and the payload as text\./);
    assert.doesNotMatch(make.description ?? '', /SVG/);
    const llms = (await svc.call('/llms.txt')).text;
    assert.match(llms, /\/v1\/payment\/qr: .*as SVG, PNG or the payload text/, 'the REST route keeps its formats');

    const made = await mcp.client.callTool({ name: 'make_payment_qr', arguments: SWISS_BODY });
    assert.equal(made.isError ?? false, false);
    const [image, text] = made.content as { type: string; data?: string; mimeType?: string; text?: string }[];
    assert.equal(image?.type, 'image');
    assert.equal(image?.mimeType, 'image/png');
    assert.equal(text?.type, 'text');
    assert.match(text?.text ?? '', /^SPC\n0200\n1\nCH4431999123000889012\n/);
    assert.equal((made.structuredContent as { payload: string }).payload, text?.text);

    const read = await mcp.client.callTool({ name: 'read_payment_qr', arguments: { image: image?.data } });
    assert.equal(read.isError ?? false, false);
    assert.equal((read.structuredContent as { payload: string }).payload, text?.text);

    const warned = await mcp.client.callTool({
      name: 'make_payment_qr',
      arguments: {
        creditor: { iban: 'DE89370400440532013000', bic: 'DEUTDEFFXXX', name: 'ACME GmbH' },
        currency: 'EUR',
      },
    });
    const parts = warned.content as { type: string; text?: string }[];
    assert.match(parts[2]?.text ?? '', /^Warning \(bic_mismatch\): /, 'the warning is told beside the payload');

    const refused = await mcp.client.callTool({
      name: 'make_payment_qr',
      arguments: { creditor: { iban: 'CH4431999123000889012', name: 'X' }, currency: 'CHF' },
    });
    assert.equal(refused.isError, true);
    assert.equal((refused.structuredContent as { error: string }).error, 'payment_data_invalid');
    assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 3);
  });
});
