/**
 * POST /v1/iban/extract over a real socket, and the MCP tool extract_ibans through the SDK
 * client: the answer, its metering (1 per call, a key or a payment, refunds), and its place in
 * OpenAPI, llms.txt and the tool list.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { X402_PRICES_USD } from '../../src/plans.ts';
import { connectMcp } from '../mcp/support.ts';
import { startService } from '../support/app.ts';
import { dereferenced } from '../support/openapi-doc.ts';

const INVOICE = `Rechnung RE-2026-00123 — Betrag 1.234,56 EUR
Bitte zahlen Sie auf IBAN: DE89 3704 0044 0532 0130 00 (Commerzbank).
Scan der Vorjahresrechnung: DE89 37O4 0044 0532 0130 00
| ACME Ltd | GB29NWBK60161331926819 | GB82 WEST 1234 5698 7654 31 |`;

describe('POST /v1/iban/extract', async () => {
  const svc = await startService();

  test('answers every IBAN in text order with its offsets and the validate answer, for 1 request', async () => {
    const key = await svc.newKey('127.0.8.1');
    const r = await svc.call('/v1/iban/extract', { json: { text: INVOICE }, key, from: '127.0.8.1' });
    assert.equal(r.status, 200);
    assert.equal(r.body.count, 4);
    assert.equal(r.body.truncated, false);
    const items = r.body.items as Record<string, any>[];
    assert.deepEqual(
      items.map((i) => [i.match, i.iban, i.valid, i.ocr_repaired]),
      [
        ['DE89 3704 0044 0532 0130 00', 'DE89370400440532013000', true, false],
        ['DE89 37O4 0044 0532 0130 00', 'DE8937O400440532013000', false, true],
        ['GB29NWBK60161331926819', 'GB29NWBK60161331926819', true, false],
        ['GB82 WEST 1234 5698 7654 31', 'GB82WEST12345698765431', false, false],
      ],
    );
    for (const item of items) assert.equal(INVOICE.slice(item.start, item.end), item.match);
    // The validate answer of each: the bank of a valid one, the errors of a failing one.
    assert.equal(items[0].bank?.bic, 'COBADEFFXXX');
    assert.equal(items[0].formatted, 'DE89 3704 0044 0532 0130 00');
    assert.deepEqual(
      items[3].errors.map((e: { code: string }) => e.code),
      ['checksum_failed'],
    );
    assert.equal(items[3].ocr_repair, undefined);
    // Scanned O for 0: the repaired IBAN first in suggestions, and the item says so.
    assert.equal(items[1].suggestions[0], 'DE89370400440532013000');
    const reading = { at: INVOICE.indexOf('O4'), found: 'O', read_as: '0' };
    assert.deepEqual(items[1].ocr_repair, { iban: 'DE89370400440532013000', ...reading, readings: [reading] });
    assert.ok(r.body.attribution, 'a free key owes attribution');
    assert.deepEqual([r.headers['x-quota-used'], r.headers['x-quota-remaining']], ['1', '24']);
  });

  test('a scan with two O for 0 is read at every position the structure asks for a digit, at once', async () => {
    const key = await svc.newKey('127.0.8.9');
    const text = 'Kontonummer laut Scan: DE89 37O4 0044 O532 0130 00';
    const r = await svc.call('/v1/iban/extract', { json: { text }, key, from: '127.0.8.9' });
    assert.equal(r.status, 200);
    assert.equal(r.body.count, 1);
    const [item] = r.body.items as Record<string, any>[];
    assert.equal(item.match, 'DE89 37O4 0044 O532 0130 00');
    assert.equal(item.ocr_repaired, true);
    assert.equal(item.suggestions[0], 'DE89370400440532013000');
    assert.equal(item.ocr_repair.iban, 'DE89370400440532013000');
    assert.deepEqual(item.ocr_repair.readings, [
      { at: text.indexOf('O4'), found: 'O', read_as: '0' },
      { at: text.indexOf('O532'), found: 'O', read_as: '0' },
    ]);
  });

  test('a text without IBANs is an empty list, charged like any answer', async () => {
    const key = await svc.newKey('127.0.8.2');
    const r = await svc.call('/v1/iban/extract', {
      json: { text: 'Order 2026-118, VAT DE123456789, call +49 30 1234567.' },
      key,
      from: '127.0.8.2',
    });
    assert.deepEqual([r.status, r.body.count, r.body.items], [200, 0, []]);
    assert.equal(r.headers['x-quota-used'], '1');
  });

  test('a text over 20,000 characters is 400 text_too_long, and refunded; 20,000 exactly is served', async () => {
    const key = await svc.newKey('127.0.8.3');
    const long = `${'x'.repeat(20_000 - 23)} DE89370400440532013000`;
    assert.equal(long.length, 20_000);
    const ok = await svc.call('/v1/iban/extract', { json: { text: long }, key, from: '127.0.8.3' });
    assert.deepEqual([ok.status, ok.body.count], [200, 1]);
    const tooLong = await svc.call('/v1/iban/extract', { json: { text: `${long}.` }, key, from: '127.0.8.3' });
    assert.equal(tooLong.status, 400);
    assert.equal(tooLong.body.error, 'text_too_long');
    assert.equal(tooLong.body.limit, 20_000);
    assert.match(tooLong.body.message, /20,000 characters/);
    const empty = await svc.call('/v1/iban/extract', { json: { text: '' }, key, from: '127.0.8.3' });
    assert.deepEqual([empty.status, empty.body.error], [400, 'invalid_request']);
    const usage = await svc.call('/v1/keys/usage', { key });
    assert.equal(usage.body.used, 1, 'only the served call is counted');
  });

  test('without a key or a payment it is 402: the no-key trial is validate’s alone', async () => {
    const r = await svc.call('/v1/iban/extract', { json: { text: INVOICE }, from: '127.0.8.4' });
    assert.equal(r.status, 402);
    assert.equal(r.body.error, 'payment_required');
    assert.equal(r.body.cause.reason, 'key_or_payment_required');
    assert.equal((await svc.call('/v1/keys/usage', { from: '127.0.8.4' })).body.used, 0);
  });

  test('is declared like the other data routes: OpenAPI, llms.txt, its guide example', async () => {
    const doc = dereferenced((await svc.call('/openapi.json')).body);
    const op = doc.paths['/v1/iban/extract'].post;
    assert.match(op.summary, /IBAN/);
    assert.equal(op.requestBody.content['application/json'].schema.properties.text.maxLength, 20_000);
    const item = op.responses['200'].content['application/json'].schema.properties.items.items;
    for (const field of ['match', 'start', 'end', 'iban', 'valid', 'errors', 'suggestions', 'ocr_repaired'])
      assert.ok(field in item.properties, field);
    const llms = (await svc.call('/llms.txt')).text;
    const line = llms.split('\n').find((l) => l.startsWith(`- POST ${svc.url}/v1/iban/extract:`));
    assert.match(line ?? '', new RegExp(`cost: 1 request; x402 price: \\$${X402_PRICES_USD.extract}`));
    assert.equal(X402_PRICES_USD.extract, 0.005);
  });
});

describe('MCP tool extract_ibans', async () => {
  const svc = await startService();

  test('answers the REST JSON and draws the same quota', async () => {
    const restKey = await svc.newKey('127.0.8.5');
    const mcpKey = await svc.newKey('127.0.8.6');
    const mcp = await connectMcp(svc.url, { key: mcpKey, from: '127.0.8.6' });
    const { tools } = await mcp.client.listTools();
    const tool = tools.find((t) => t.name === 'extract_ibans');
    assert.ok(tool, 'extract_ibans is listed');
    assert.deepEqual(tool.inputSchema.required, ['text']);
    assert.equal(tool.annotations?.readOnlyHint, true);
    assert.match(tool.description ?? '', /Cost: 1 request/);

    const result = await mcp.client.callTool({ name: 'extract_ibans', arguments: { text: INVOICE } });
    const rest = await svc.call('/v1/iban/extract', { json: { text: INVOICE }, key: restKey, from: '127.0.8.5' });
    assert.equal(result.isError ?? false, false);
    assert.deepEqual(result.structuredContent, rest.body);
    assert.equal(mcp.lastAnswer().headers['x-quota-used'], '1');
    // The rate-limit headers travel with the quota headers onto the /mcp answer.
    assert.deepEqual(
      [mcp.lastAnswer().headers['ratelimit-limit'], mcp.lastAnswer().headers['ratelimit-remaining']],
      ['25', '24'],
    );

    const tooLong = await mcp.client.callTool({ name: 'extract_ibans', arguments: { text: 'x'.repeat(20_001) } });
    assert.equal(tooLong.isError, true);
    assert.equal((tooLong.structuredContent as { error: string }).error, 'text_too_long');
    assert.equal((await svc.call('/v1/keys/usage', { key: mcpKey })).body.used, 1);
  });

  test('without a key it is a tool error with the 402 body', async () => {
    const mcp = await connectMcp(svc.url, { from: '127.0.8.7' });
    const result = await mcp.client.callTool({ name: 'extract_ibans', arguments: { text: INVOICE } });
    assert.equal(result.isError, true);
    assert.equal((result.structuredContent as { error: string }).error, 'payment_required');
  });
});
