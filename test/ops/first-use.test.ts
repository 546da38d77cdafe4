/**
 * What the server loads on first use rather than at start (docs/benchmarks.md, "Start-up")
 * answers as before on that first use, in the bundle as `npm start` runs it: QR drawing and
 * reading with their codecs, and country names from ICU.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { startProcess } from '../multiprocess/processes.ts';

const EPC_BODY = {
  creditor: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX', name: 'ACME GmbH' },
  amount: '149.90',
  currency: 'EUR',
  reference: 'RF18 5390 0754 7034',
};

test('the first QR code, QR read, BIC lookup and territory code of a process answer as the routes document', async () => {
  const proc = await startProcess({ MOD97_DATABASE_URL: 'sqlite::memory:' });
  after(() => proc.stop('SIGKILL'));
  const post = async (path: string, body: unknown, key?: string) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (key) headers.authorization = `Bearer ${key}`;
    const reply = await fetch(`${proc.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: reply.status, body: await reply.json() };
  };
  const key: string = (await post('/v1/keys/generate', {})).body.api_key;

  const drawn = await post('/v1/payment/qr', { ...EPC_BODY, format: 'png' }, key);
  assert.equal(drawn.status, 200);
  assert.equal(Buffer.from(drawn.body.image.data, 'base64').subarray(1, 4).toString(), 'PNG');
  const read = await post('/v1/payment/qr/read', { image: drawn.body.image.data }, key);
  assert.equal(read.status, 200);
  assert.equal(read.body.payload, drawn.body.payload);

  const bic = await fetch(`${proc.url}/v1/bic/COBADEFFXXX`, { headers: { authorization: `Bearer ${key}` } });
  assert.deepEqual((await bic.json()).country, { code: 'DE', name: 'Germany' });

  const territory = await post('/v1/iban/validate', { iban: 'GP14 2004 1010 0505 0001 3M02 606' });
  assert.equal(
    territory.body.errors[0].message,
    'GP is not an IBAN country code: IBANs of Guadeloupe are issued under FR (France).',
  );
});
