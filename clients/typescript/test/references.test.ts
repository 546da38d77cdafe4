/** The client's validateReference, createReference and checkPayment against the real service. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Mod97, Mod97Error } from '../src/index.ts';
import { startService } from '../../../test/support/app.ts';

test('validateReference, createReference and checkPayment answer typed, with the quota; refusals are Mod97Error', async () => {
  const svc = await startService();
  const client = new Mod97({ baseUrl: svc.url, apiKey: await svc.newKey('127.0.36.1') });

  const rf = await client.validateReference('RF18 5390 0754 7034');
  assert.deepEqual([rf.type, rf.valid, rf.formatted], ['rf', true, 'RF18 5390 0754 7034']);
  const finnish = await client.validateReference('1234561', { country: 'FI' });
  assert.deepEqual([finnish.type, finnish.formatted], ['fi', '12 34561']);

  const made = await client.createReference({ type: 'be_ogm', from: '0909337554' });
  assert.equal(made.formatted, '+++090/9337/55493+++');
  await assert.rejects(
    client.createReference({ type: 'no_kid', from: '6', algorithm: 'mod11' }),
    (e: unknown) => e instanceof Mod97Error && e.status === 400 && e.code === 'reference_not_creatable',
  );

  const check = await client.checkPayment({
    creditor: { iban: 'DE89 3704 0044 0532 0130 00', name: 'Musterfirma GmbH' },
    amount: 10,
    currency: 'USD',
  });
  assert.equal(check.valid, false);
  assert.deepEqual(
    check.errors.map((e) => [e.code, e.field]),
    [['currency_not_allowed', 'currency']],
  );
  assert.equal(check.iban.bank?.bic, 'COBADEFFXXX');
  assert.deepEqual(check.quota, { used: 4, limit: 25, remaining: 21, month: '2026-11' });
});
