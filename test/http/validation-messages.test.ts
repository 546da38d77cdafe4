import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';
import { startCardService } from '../support/stripe/card-service.ts';

type Reply = { status: number; body: any };

function refused(r: Reply, field?: string): string {
  assert.equal(r.status, 400, JSON.stringify(r.body));
  assert.equal(r.body.error, 'invalid_request');
  if (field) assert.equal(r.body.field, field);
  assert.doesNotMatch(r.body.message, /body\/|must have required property|must be string/, 'not the raw schema text');
  return r.body.message;
}

describe('a request that does not fit the route is told, in words, which field and what it should be', () => {
  test('a body sending IBAN instead of iban: iban is required, with a body that works, and IBAN is named', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const m = refused(await svc.call('/v1/iban/validate', { key, json: { IBAN: 'DE89370400440532013000' } }), 'iban');
    assert.match(m, /^`iban` is required: send \{"iban": "DE89 3704 0044 0532 0130 00"\}\./);
    assert.match(m, /does not take `IBAN` \(did you mean `iban`\? names are case-sensitive\)/);
    assert.match(m, /Its fields are `iban`, `bic`\./);
  });

  test('an empty body names the missing field and no unknown one', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const m = refused(await svc.call('/v1/iban/validate', { key, json: {} }), 'iban');
    assert.equal(m, '`iban` is required: send {"iban": "DE89 3704 0044 0532 0130 00"}.');
  });

  test('a wrong type names the field, the type it should be and the type sent', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    assert.equal(
      refused(await svc.call('/v1/iban/validate', { key, json: { iban: 12345 } }), 'iban'),
      '`iban` must be a string, not a number.',
    );
    assert.equal(
      refused(await svc.call('/v1/iban/validate', { key, json: { iban: ['DE89'] } }), 'iban'),
      '`iban` must be a string, not an array.',
    );
    const huge = await svc.call('/v1/payment/check', {
      key,
      raw: '{"creditor":{"iban":"DE89370400440532013000","name":"X"},"currency":"EUR","amount":1e400}',
      headers: { 'content-type': 'application/json' },
    });
    assert.match(refused(huge, 'amount'), /not a number too large to read/);
    assert.equal(
      refused(await svc.call('/v1/iban/from-account', { key, json: { country: 'DE', bank_code: 1, account: '1' } })),
      '`bank_code` must be a string, not a number.',
    );
  });

  test('a body that is not an object says so and shows one that is', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const m = refused(await svc.call('/v1/iban/validate', { key, json: ['DE89370400440532013000'] }));
    assert.equal(m, 'The body must be a JSON object such as {"iban": "DE89 3704 0044 0532 0130 00"}, not an array.');
  });

  test('too long, too few and the wrong shape of a batch item are each said with the numbers', async () => {
    const svc = await startService();
    const key = await svc.makePro(await svc.newKey('127.0.0.2'));
    assert.match(
      refused(await svc.call('/v1/iban/validate', { key, json: { iban: 'D'.repeat(10_000) } }), 'iban'),
      /^`iban` must have at most \d+ characters \(it has 10000\)\.$/,
    );
    assert.equal(
      refused(await svc.call('/v1/iban/batch', { key, json: { ibans: [] } }), 'ibans'),
      '`ibans` must hold at least 1 item (it holds 0).',
    );
    assert.equal(
      refused(await svc.call('/v1/iban/batch', { key, json: { ibans: ['DE89370400440532013000', 7] } }), 'ibans'),
      '`ibans[1]` must be a string or a JSON object, not a number.',
    );
    assert.equal(
      refused(await svc.call('/v1/iban/batch', { key, json: { ibans: [{ IBAN: 'DE89370400440532013000' }] } })),
      '`ibans[0].iban` is required.',
    );
  });

  test('a value from a fixed list names the values allowed', async () => {
    const card = await startCardService();
    const m = refused(await card.checkout('pack_2k'), 'product');
    assert.equal(m, '`product` must be one of "pack_1k", "pack_5k", "pack_25k", "pro", not "pack_2k".');
  });

  test('a path parameter that does not fit says it is in the path', async () => {
    const svc = await startService();
    const key = await svc.newKey();
    const m = refused(await svc.call('/v1/ch/clearing/12a45', { key }), 'iid');
    assert.equal(m, '`iid` (in the path) does not have the expected form (got "12a45").');
  });

  test('an IBAN of the wrong length is answered with the length its country takes and the length given', async () => {
    const svc = await startService();
    const key = await svc.makePro(await svc.newKey('127.0.0.2'));
    const r = await svc.call('/v1/iban/validate', { key, json: { iban: 'DE89 3704 0044 0532 0130 0' } });
    assert.equal(r.status, 200);
    const [e] = r.body.errors;
    assert.deepEqual([e.code, e.expected_length, e.length], ['invalid_length', 22, 21]);
    assert.equal(typeof e.message, 'string');
    const batch = await svc.call('/v1/iban/batch', { key, json: { ibans: ['FR76 3000 6000 0112 3456 7890 1894'] } });
    const [b] = batch.body.results[0].errors;
    assert.deepEqual([b.code, b.expected_length, b.length], ['invalid_length', 27, 28]);
  });
});
