/**
 * Claim by payment and credit packs bought with x402, through the real service: anvil as Base
 * Sepolia with Circle's FiatToken, a local facilitator, the official @x402/fetch client.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { IssuedKey } from '../../../src/keys/service.ts';
import { anvilBinary } from '../../support/x402/chain.ts';
import { ibans, startPaidService, type PaidService } from './paid-service.ts';

const skip = !anvilBinary() && 'anvil (optional dependency, linux-x64 only) is not installed';
// Started at the top level: startService ties its own clean-up to the test that starts it.
const paid = (skip ? null : await startPaidService()) as PaidService;
after(() => paid?.stop());

const usage = async (key: string) => (await paid.service.call('/v1/keys/usage', { key })).body;
const types = (options: { type: string; pack?: string }[]) =>
  options.map((o) => (o.pack ? `${o.type}:${o.pack}` : o.type));

/** Records every key the service makes while `run` goes on. */
async function keysMadeDuring<T>(run: () => Promise<T>): Promise<{ result: T; made: IssuedKey[] }> {
  const keys = paid.service.services.keys;
  const insert = keys.insert;
  const made: IssuedKey[] = [];
  keys.insert = async (spec) => {
    const issued = await insert.call(keys, spec);
    made.push(issued);
    return issued;
  };
  try {
    return { result: await run(), made };
  } finally {
    keys.insert = insert;
  }
}
const plan = (u: { tier: string; basis: string; limit: number; used: number }) => [u.tier, u.basis, u.limit, u.used];

describe('claims and packs paid with x402', { skip }, () => {
  test('x402 payments made with an anonymous key add up, and reaching $1.00 claims it for 200 requests once', async () => {
    const from = '127.0.4.1';
    const key = await paid.service.newKey(from);
    const payer = await paid.chain.newPayer(2_000_000n);
    const pay = paid.payingFetch(payer, from);
    // The x402 client pays only when refused, so the key's 25 monthly requests go first.
    assert.equal((await paid.service.call('/v1/iban/batch', { json: { ibans: ibans(25) }, key, from })).status, 200);

    assert.equal((await pay('/v1/iban/validate', { json: { iban: 'DE89370400440532013000' }, key })).status, 200);
    const partway = await usage(key);
    assert.deepEqual(plan(partway), ['anonymous', 'monthly', 25, 25]);
    assert.equal(partway.claim.paid_so_far_usd, 0.005);
    assert.equal(partway.claim.paid_needed_usd, 1);
    assert.deepEqual(partway.claim.methods, ['email_code', 'x402', 'credits']);

    const big = await pay('/v1/iban/batch', { json: { ibans: ibans(500) }, key });
    assert.equal(big.status, 200);
    assert.equal((await big.json()).count, 500);
    const claimed = await usage(key);
    assert.deepEqual(plan(claimed), ['claimed', 'lifetime', 200, 0]);
    assert.equal(claimed.claim, undefined);
    assert.equal(await paid.chain.balanceOf(payer.address), 2_000_000n - 1_005_000n);
  });

  test('a 1k pack paid by x402 gives a credits key holding 1000 credits; a batch draws them and a 400 gives them back', async () => {
    const payer = await paid.chain.newPayer(5_000_000n);
    const before = await paid.balances(payer);
    const res = await paid.payingFetch(payer, '127.0.5.1', 4)('/v1/credits/buy/1k', { method: 'POST' });
    assert.equal(res.status, 201);
    assert.ok(res.headers.get('payment-response'));
    const bought = await res.json();
    assert.match(bought.api_key, /^ifk_[0-9a-f]{64}$/);
    assert.deepEqual(
      [bought.tier, bought.basis, bought.pack, bought.credits, bought.balance, bought.price_usd, bought.claimed_key],
      ['credits', 'credits', '1k', 1000, 1000, 4, undefined],
    );
    const after = await paid.balances(payer);
    assert.equal(before.payer - after.payer, 4_000_000n);
    assert.equal(after.payTo - before.payTo, 4_000_000n);

    const key = bought.api_key as string;
    const fresh = await usage(key);
    assert.deepEqual([fresh.basis, fresh.limit, fresh.remaining], ['credits', 1000, 1000]);
    const batch = await paid.service.call('/v1/iban/batch', { json: { ibans: ibans(7) }, key });
    assert.equal(batch.status, 200);
    assert.equal(batch.body.attribution, undefined);
    assert.equal(batch.headers['x-quota-remaining'], '993');
    const refused = await paid.service.call('/v1/iban/batch', { json: { ibans: [1, 2, 3] }, key });
    assert.equal(refused.status, 400);
    assert.equal(refused.headers['x-quota-remaining'], '993');
    const drawn = await usage(key);
    assert.deepEqual([drawn.used, drawn.remaining], [7, 993]);
  });

  test('a pack bought while presenting an anonymous key claims that key for 200 requests once', async () => {
    const from = '127.0.6.1';
    const key = await paid.service.newKey(from);
    const payer = await paid.chain.newPayer(5_000_000n);
    const res = await paid.payingFetch(payer, from, 4)('/v1/credits/buy/1k', { method: 'POST', key });
    assert.equal(res.status, 201);
    const bought = await res.json();
    const prefix = (await usage(key)).key_prefix;
    assert.deepEqual(bought.claimed_key, { key_prefix: prefix, tier: 'claimed', basis: 'lifetime', limit: 200 });
    assert.deepEqual(plan(await usage(key)), ['claimed', 'lifetime', 200, 0]);
    assert.deepEqual(plan(await usage(bought.api_key)), ['credits', 'credits', 1000, 0]);
    assert.equal(await paid.chain.balanceOf(payer.address), 1_000_000n);
  });

  test('a pack route without a payment answers 402 offering this pack by x402 and the other packs', async () => {
    const res = await paid.service.call('/v1/credits/buy/5k', { method: 'POST', from: '127.0.6.3' });
    assert.equal(res.status, 402);
    assert.deepEqual([res.body.error, res.body.cause.reason], ['payment_required', 'payment_required']);
    assert.deepEqual(res.body.options, [
      { type: 'credits', pack: '1k', credits: 1000, price_usd: 4, url: `${paid.service.url}/v1/credits/buy/1k` },
      { type: 'credits', pack: '25k', credits: 25000, price_usd: 80, url: `${paid.service.url}/v1/credits/buy/25k` },
      { type: 'x402', price_usd: 20 },
    ]);
    assert.equal(decodePaymentRequiredHeader(res.headers['payment-required'] as string).accepts[0].amount, '20000000');
    // The payment is judged before any body: a broken or foreign one changes nothing.
    for (const [raw, type] of [
      ['{nope', 'application/json'],
      ['hello', 'text/plain'],
    ]) {
      const odd = await paid.service.call('/v1/credits/buy/5k', {
        method: 'POST',
        from: '127.0.6.3',
        raw: Buffer.from(raw),
        headers: { 'content-type': type },
      });
      assert.deepEqual([odd.status, odd.body.cause?.reason], [402, 'payment_required'], `${type} ${raw}`);
    }
  });

  test('a pack refused for a malformed payment still offers how to pay', async () => {
    const res = await paid.service.call('/v1/credits/buy/1k', {
      method: 'POST',
      headers: { 'PAYMENT-SIGNATURE': 'not-a-payment' },
      from: '127.0.6.4',
    });
    assert.deepEqual([res.status, res.body.error], [400, 'invalid_payment']);
    assert.equal(res.body.cause.reason, 'malformed_payment');
    assert.deepEqual(types(res.body.options), ['credits:5k', 'credits:25k', 'x402']);
    assert.ok(res.headers['payment-required']);
  });

  test('a pack whose payment fails to settle shows no key, leaves none live, claims nothing and moves nothing', async () => {
    const from = '127.0.6.2';
    const key = await paid.service.newKey(from);
    const payer = await paid.chain.newPayer(5_000_000n);
    const before = await paid.balances(payer);
    paid.facilitator.failNextSettle();
    const { result: res, made } = await keysMadeDuring(() =>
      paid.payingFetch(payer, from, 4)('/v1/credits/buy/1k', { method: 'POST', key }),
    );
    assert.equal(res.status, 402);
    const text = await res.text();
    const body = JSON.parse(text);
    assert.equal(body.cause.reason, 'settlement_failed');
    assert.deepEqual(types(body.options), ['credits:5k', 'credits:25k', 'x402']);
    assert.doesNotMatch(text, /ifk_|10\.0\.0\.7/);
    assert.ok(res.headers.get('payment-required'), 'the client can pay again');
    assert.deepEqual(plan(await usage(key)), ['anonymous', 'monthly', 25, 0]);
    assert.deepEqual(await paid.balances(payer), before);

    assert.deepEqual(
      made.map((m) => m.key.tier),
      ['credits'],
      'the handler made the key before settling',
    );
    const unpaid = await paid.service.call('/v1/keys/usage', { key: made[0].secret });
    assert.equal(unpaid.status, 401, 'the unpaid credits key does not work');
    assert.equal(unpaid.body.error, 'invalid_api_key');
    assert.notEqual((await paid.service.services.store.keyById(made[0].key.id))?.revokedAt, null);
  });

  test('a paid pack whose claim step fails still gives the buyer a working key, and the failure is logged', async () => {
    const from = '127.0.6.5';
    const key = await paid.service.newKey(from);
    const payer = await paid.chain.newPayer(5_000_000n);
    const store = paid.service.services.store;
    const changePlan = store.changePlan;
    store.changePlan = async () => {
      throw new Error('the store failed after settlement');
    };
    let res: Response;
    try {
      res = await paid.payingFetch(payer, from, 4)('/v1/credits/buy/1k', { method: 'POST', key });
    } finally {
      store.changePlan = changePlan;
    }
    assert.equal(res.status, 201);
    assert.ok(res.headers.get('payment-response'));
    const bought = await res.json();
    assert.deepEqual(plan(await usage(bought.api_key)), ['credits', 'credits', 1000, 0]);
    assert.equal(await paid.chain.balanceOf(payer.address), 1_000_000n);
    const logged = paid.service.logs
      .map((line) => JSON.parse(line))
      .find((l) => l.msg === 'x402: the step after settlement failed');
    assert.ok(logged, 'the failure is logged');
    assert.match(logged.txHash, /^0x[0-9a-f]{64}$/);
    assert.equal(logged.err.message, 'the store failed after settlement');
  });

  test('a pack whose settled payment cannot be recorded still gives the buyer its key, and a replay of it is refused', async () => {
    const payer = await paid.chain.newPayer(5_000_000n);
    const store = paid.service.services.store;
    const recordPayment = store.recordPayment;
    store.recordPayment = async () => {
      throw new Error('the payments table is unreachable');
    };
    const pay = paid.payingFetch(payer, '127.0.6.6', 4);
    let res: Response;
    try {
      res = await pay('/v1/credits/buy/1k', { method: 'POST' });
    } finally {
      store.recordPayment = recordPayment;
    }
    assert.equal(res.status, 201);
    const bought = await res.json();
    assert.deepEqual(plan(await usage(bought.api_key)), ['credits', 'credits', 1000, 0]);
    assert.equal(await paid.chain.balanceOf(payer.address), 1_000_000n);
    const logged = paid.service.logs
      .map((line) => JSON.parse(line))
      .find((l) => l.msg === 'x402: a settled payment could not be recorded');
    assert.match(logged?.txHash ?? '', /^0x[0-9a-f]{64}$/);
    // The chain has spent the authorisation's nonce, so the unrecorded payment cannot buy twice.
    const signature = pay.sent.map((h) => h.get('payment-signature')).find(Boolean)!;
    const replay = await paid.service.call('/v1/credits/buy/1k', {
      method: 'POST',
      headers: { 'payment-signature': signature },
    });
    assert.equal(replay.status, 402);
    assert.equal(await paid.chain.balanceOf(payer.address), 1_000_000n);
  });
});
