/** The client's paymentQr and readPaymentQr against the real service: a code made, read back, and a refusal as Mod97Error. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Mod97, Mod97Error } from '../src/index.ts';
import { startService } from '../../../test/support/app.ts';

test('paymentQr makes a PNG that readPaymentQr reads back; an uncodable payment is payment_data_invalid', async () => {
  const svc = await startService();
  const client = new Mod97({ baseUrl: svc.url, apiKey: await svc.newKey('127.0.9.30') });
  const payment = {
    creditor: { iban: 'DE89370400440532013000', name: 'ACME GmbH' },
    amount: 12.5,
    currency: 'EUR',
    remittance: 'Invoice 118',
  };
  const made = await client.paymentQr({ ...payment, format: 'png' });
  assert.equal(made.standard, 'epc');
  assert.equal(made.image?.media_type, 'image/png');
  const read = await client.readPaymentQr({ image: made.image?.data });
  assert.equal(read.payload, made.payload);
  assert.deepEqual(read.fields, { ...payment, amount: '12.50', standard: 'epc' });
  assert.equal(read.quota?.used, 2);
  // The format as an option, as the Python client's payment_qr(payment, format=...) takes it.
  const asOption = await client.paymentQr(payment, { format: 'payload' });
  assert.deepEqual([asOption.payload, asOption.image], [made.payload, undefined]);
  await assert.rejects(
    client.paymentQr({ ...payment, currency: 'CHF', standard: 'swiss_qr_bill' }),
    (e: unknown) =>
      e instanceof Mod97Error &&
      e.status === 422 &&
      e.code === 'payment_data_invalid' &&
      Array.isArray(e.body.errors) &&
      e.body.errors.some((x: { field: string }) => x.field === 'creditor.address'),
  );
  await svc.close();
});
