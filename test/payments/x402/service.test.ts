/**
 * x402 pay-per-call through the real service: anvil as Base Sepolia with Circle's FiatToken,
 * a local facilitator, and the official x402 client. One chain for the whole file.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { startService } from '../../support/app.ts';
import { anvilBinary, NETWORK, type Wallet } from '../../support/x402/chain.ts';
import { ibans, startPaidService, type PaidService } from './paid-service.ts';

const skip = !anvilBinary() && 'anvil (optional dependency, linux-x64 only) is not installed';
const IBAN = 'DE89 3704 0044 0532 0130 00';
// Started at the top level: startService ties its own clean-up to the test that starts it.
const paid = (skip ? null : await startPaidService()) as PaidService;
after(() => paid?.stop());

const header = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);
const amountAsked = (value: string | string[] | undefined) =>
  decodePaymentRequiredHeader(header(value)!).accepts[0].amount;

/**
 * A client that pays up front, without first being refused: it reads the requirements the
 * service attaches to any refused payment, signs them, and sends the call with its payment.
 */
async function payUpFront(who: Wallet, path: string, opts: { json: unknown; key?: string; from: string }) {
  const refused = await paid.service.call(path, { ...opts, headers: { 'PAYMENT-SIGNATURE': 'none' } });
  // x402's HTTP transport: a payment that does not decode is 400, still with the requirements.
  assert.equal(refused.status, 400);
  const client = new x402HTTPClient(
    new x402Client().register(NETWORK, new ExactEvmScheme(privateKeyToAccount(who.privateKey))),
  );
  const required = client.getPaymentRequiredResponse(
    (name) => header(refused.headers[name.toLowerCase()]),
    refused.body,
  );
  const signature = client.encodePaymentSignatureHeader(await client.createPaymentPayload(required));
  return paid.service.call(path, { ...opts, headers: signature });
}

describe('x402 pay-per-call through the service', { skip }, () => {
  test('a paid validate call moves exactly $0.005, answers with a receipt, no attribution, and uses no trial call', async () => {
    const payer = await paid.chain.newPayer(1_000_000n);
    const before = await paid.balances(payer);
    const res = await payUpFront(payer, '/v1/iban/validate', { json: { iban: IBAN }, from: '127.0.1.1' });
    assert.equal(res.status, 200);
    assert.equal(res.body.valid, true);
    assert.equal(res.body.attribution, undefined);
    assert.equal(res.body.trial, undefined);
    const receipt = decodePaymentResponseHeader(header(res.headers['payment-response'])!);
    assert.equal(receipt.success, true);
    assert.equal(receipt.payer?.toLowerCase(), payer.address.toLowerCase());
    const after = await paid.balances(payer);
    assert.equal(before.payer - after.payer, 5000n);
    assert.equal(after.payTo - before.payTo, 5000n);
    const trial = await paid.service.call('/v1/keys/usage', { from: '127.0.1.1' });
    assert.equal(trial.body.used, 0, 'the no-key trial is untouched');
  });

  test('a paid call presenting a key draws none of its quota', async () => {
    const payer = await paid.chain.newPayer(1_000_000n);
    const key = await paid.service.newKey('127.0.1.2');
    const res = await payUpFront(payer, '/v1/iban/validate', { json: { iban: IBAN }, key, from: '127.0.1.2' });
    assert.equal(res.status, 200);
    assert.ok(res.headers['payment-response']);
    assert.equal(res.headers['x-quota-used'], '0');
    assert.equal((await paid.service.call('/v1/keys/usage', { key })).body.used, 0);
    assert.equal(await paid.chain.balanceOf(payer.address), 995_000n);
  });

  test('a paid call presenting a free key carries no attribution', async () => {
    const payer = await paid.chain.newPayer(1_000_000n);
    const key = await paid.service.newKey('127.0.1.3');
    const res = await payUpFront(payer, '/v1/iban/validate', { json: { iban: IBAN }, key, from: '127.0.1.3' });
    assert.equal(res.status, 200);
    assert.equal(res.body.attribution, undefined);
  });

  test('a trial-exhausted client gets our 402 and x402 requirements, then pays and gets its answer', async () => {
    const from = '127.0.2.1';
    for (let i = 0; i < 25; i++)
      assert.equal((await paid.service.call('/v1/iban/validate', { json: { iban: IBAN }, from })).status, 200);
    const refused = await paid.service.call('/v1/iban/validate', { json: { iban: IBAN }, from });
    assert.equal(refused.status, 402);
    assert.equal(refused.body.error, 'payment_required');
    assert.equal(refused.body.cause.reason, 'trial_exhausted');
    assert.deepEqual(
      refused.body.options.find((o: { type: string }) => o.type === 'x402'),
      { type: 'x402', price_usd: 0.005 },
    );
    assert.equal(amountAsked(refused.headers['payment-required']), '5000');

    const payer = await paid.chain.newPayer(1_000_000n);
    const pay = paid.payingFetch(payer, from);
    const res = await pay('/v1/iban/validate', { json: { iban: IBAN } });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).valid, true);
    assert.ok(res.headers.get('payment-response'));
    assert.equal(pay.sent.length, 2, 'refused once, then paid');
    assert.equal(await paid.chain.balanceOf(payer.address), 995_000n);
  });

  test("a quota-exhausted key's 402 carries x402 requirements, and paying gets the answer", async () => {
    const from = '127.0.3.1';
    const key = await paid.service.newKey(from);
    assert.equal((await paid.service.call('/v1/iban/batch', { json: { ibans: ibans(25) }, key, from })).status, 200);
    const refused = await paid.service.call('/v1/iban/validate', { json: { iban: IBAN }, key, from });
    assert.equal(refused.status, 402);
    assert.equal(refused.body.error, 'quota_exhausted');
    assert.equal(refused.headers['x-quota-exhausted'], 'true');
    assert.equal(amountAsked(refused.headers['payment-required']), '5000');

    const payer = await paid.chain.newPayer(1_000_000n);
    const res = await paid.payingFetch(payer, from)('/v1/iban/validate', { json: { iban: IBAN }, key });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-quota-used'), '25');
    assert.equal(await paid.chain.balanceOf(payer.address), 995_000n);
  });

  test('a no-key call to a route without the trial is told it needs a key or an x402 payment', async () => {
    const refused = await paid.service.call('/v1/iban/batch', { json: { ibans: ibans(1) }, from: '127.0.2.9' });
    assert.equal(refused.status, 402);
    assert.equal(refused.body.message, 'This route needs an API key or an x402 payment.');
    assert.ok(refused.body.options.some((o: { type: string }) => o.type === 'x402'));
  });

  test('a payment sent again is refused and charged once', async () => {
    const payer = await paid.chain.newPayer(1_000_000n);
    const pay = paid.payingFetch(payer, '127.0.7.1');
    assert.equal((await pay('/v1/iban/batch', { json: { ibans: ibans(2) } })).status, 200);
    const signature = pay.sent[1].get('payment-signature')!;
    const replay = await paid.service.call('/v1/iban/batch', {
      json: { ibans: ibans(2) },
      headers: { 'PAYMENT-SIGNATURE': signature },
      from: '127.0.7.1',
    });
    assert.equal(replay.status, 402);
    assert.equal(replay.body.error, 'payment_required');
    assert.equal(replay.body.cause.reason, 'invalid_exact_evm_nonce_already_used');
    assert.equal(replay.body.results, undefined);
    assert.equal(replay.headers['payment-response'], undefined);
    assert.equal(await paid.chain.balanceOf(payer.address), 996_000n);
  });

  test('a payment that does not decode is 400 invalid_payment, with our options and the requirements', async () => {
    const from = '127.0.9.1';
    const key = await paid.service.newKey(from);
    const res = await paid.service.call('/v1/iban/validate', {
      json: { iban: IBAN },
      key,
      headers: { 'PAYMENT-SIGNATURE': 'not-a-payment' },
      from,
    });
    assert.deepEqual([res.status, res.body.error], [400, 'invalid_payment']);
    assert.equal(res.body.cause.reason, 'malformed_payment');
    assert.deepEqual(
      res.body.options.map((o: { type: string }) => o.type),
      ['claim', 'credits', 'credits', 'credits', 'x402', 'wait'],
    );
    assert.deepEqual(
      res.body.options.find((o: { type: string }) => o.type === 'x402'),
      { type: 'x402', price_usd: 0.005 },
    );
    assert.equal(amountAsked(res.headers['payment-required']), '5000');
  });

  test('a paid call answered 400 is not settled, and its payment is still good for a valid call', async () => {
    const payer = await paid.chain.newPayer(1_000_000n);
    const before = await paid.balances(payer);
    const pay = paid.payingFetch(payer, '127.0.8.1');
    const res = await pay('/v1/iban/batch', { json: { ibans: [42] } });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error, 'invalid_request');
    assert.equal(res.headers.get('payment-response'), null);
    assert.deepEqual(await paid.balances(payer), before);

    const signature = pay.sent[1].get('payment-signature')!;
    const reused = await paid.service.call('/v1/iban/batch', {
      json: { ibans: ibans(1) },
      headers: { 'PAYMENT-SIGNATURE': signature },
      from: '127.0.8.1',
    });
    assert.equal(reused.status, 200);
    assert.equal(before.payer - (await paid.balances(payer)).payer, 2000n);
  });
});

test('with the x402 rail off, a 402 offers no x402 payment and packs cannot be bought', async () => {
  const service = await startService();
  const refused = await service.call('/v1/iban/batch', { json: { ibans: ibans(1) } });
  assert.equal(refused.status, 402);
  assert.equal(refused.body.message, 'This route needs an API key.');
  assert.equal(refused.headers['payment-required'], undefined);
  assert.equal(
    refused.body.options.some((o: { type: string }) => o.type === 'x402' || o.type === 'credits'),
    false,
  );
  const buy = await service.call('/v1/credits/buy/1k', { method: 'POST' });
  assert.equal(buy.status, 404);
  assert.equal(buy.body.error, 'not_found');
});
