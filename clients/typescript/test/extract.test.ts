/** The client's extract(text) against the real service: typed items, quota, and a refusal as Mod97Error. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Mod97, Mod97Error } from '../src/index.ts';
import { startService } from '../../../test/support/app.ts';

test('extract answers the IBANs of a text, typed, with the quota; too long a text is text_too_long', async () => {
  const svc = await startService();
  const client = new Mod97({ baseUrl: svc.url, apiKey: await svc.newKey('127.0.9.1') });
  const text = 'Invoice 118: pay GB29 NWBK 6016 1331 9268 19 or, from abroad, iban de89370400440532013000.';
  const answer = await client.extract(text);
  assert.equal(answer.count, 2);
  const [gb, de] = answer.items;
  assert.deepEqual(
    [gb!.iban, gb!.valid, text.slice(gb!.start, gb!.end), gb!.ocr_repaired],
    ['GB29NWBK60161331926819', true, 'GB29 NWBK 6016 1331 9268 19', false],
  );
  assert.deepEqual(
    [de!.iban, de!.match, de!.bank?.bic],
    ['DE89370400440532013000', 'de89370400440532013000', 'COBADEFFXXX'],
  );
  assert.deepEqual(answer.quota, { used: 1, limit: 25, remaining: 24, month: '2026-11' });
  await assert.rejects(
    client.extract('x'.repeat(20_001)),
    (e: unknown) => e instanceof Mod97Error && e.status === 400 && e.code === 'text_too_long' && e.quota?.used === 1,
  );
  await assert.rejects(
    new Mod97({ baseUrl: svc.url }).extract(text),
    (e: unknown) => e instanceof Mod97Error && e.status === 402 && e.code === 'payment_required',
  );
});
