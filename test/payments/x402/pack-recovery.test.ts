/**
 * A pack bought with x402 whose answer was lost (docs/api.md, "POST /v1/credits/buy/{pack}",
 * "A lost answer"): the same request sent again (the same payment, the same Idempotency-Key, from
 * the same caller) within 10 minutes gets the key it bought with a new secret, so that at most one
 * secret of it works, and is charged nothing; anything else that presents the payment again is
 * refused as before. Through the real service, on anvil as Base Sepolia, with signed payments.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { anvilBinary, NETWORK, type Wallet } from '../../support/x402/chain.ts';
import { startPaidService, type PaidService } from './paid-service.ts';

const skip = !anvilBinary() && 'anvil (optional dependency, linux-x64 only) is not installed';
const VALID = 'DE89 3704 0044 0532 0130 00';
// Started at the top level: startService ties its own clean-up to the test that starts it.
const paid = (skip ? null : await startPaidService()) as PaidService;
after(() => paid?.stop());

const header = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

/** The PAYMENT-SIGNATURE header of a payment `who` signs for a 1k pack, as an x402 client makes it. */
async function packPayment(who: Wallet): Promise<Record<string, string>> {
  const refused = await paid.service.call('/v1/credits/buy/1k', {
    method: 'POST',
    headers: { 'PAYMENT-SIGNATURE': 'none' },
  });
  assert.equal(refused.status, 400, refused.text);
  const signer = new x402Client().register(NETWORK, new ExactEvmScheme(privateKeyToAccount(who.privateKey)));
  signer.setSpendControls({ maxAmountPerPayment: '$4' });
  const client = new x402HTTPClient(signer);
  const required = client.getPaymentRequiredResponse(
    (name) => header(refused.headers[name.toLowerCase()]),
    refused.body,
  );
  return client.encodePaymentSignatureHeader(await client.createPaymentPayload(required));
}

const buy = (payment: Record<string, string>, from: string, idempotencyKey?: string, key?: string) =>
  paid.service.call('/v1/credits/buy/1k', {
    method: 'POST',
    headers: { ...payment, ...(idempotencyKey && { 'idempotency-key': idempotencyKey }) },
    from,
    key,
  });

const usage = (key: string) => paid.service.call('/v1/keys/usage', { key });

describe('a lost answer to a pack bought with x402', { skip }, () => {
  test('the same payment and Idempotency-Key sent again get the bought key with a new secret, charged once', async () => {
    const payer = await paid.chain.newPayer(5_000_000n);
    const payment = await packPayment(payer);
    const from = '127.0.10.1';
    const idempotencyKey = randomUUID();
    const first = await buy(payment, from, idempotencyKey);
    assert.equal(first.status, 201, first.text);
    const lost = first.body.api_key as string; // the answer that never reached the buyer
    assert.equal(await paid.chain.balanceOf(payer.address), 1_000_000n);

    const again = await buy(payment, from, idempotencyKey);
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.recovered, true);
    assert.match(again.body.message, /new secret/);
    const secret = again.body.api_key as string;
    assert.match(secret, /^ifk_/);
    assert.notEqual(secret, lost);
    assert.deepEqual(
      [again.body.tier, again.body.pack, again.body.credits, again.body.balance],
      ['credits', '1k', 1000, 1000],
    );
    assert.equal(again.headers['cache-control'], 'no-store');
    assert.equal(await paid.chain.balanceOf(payer.address), 1_000_000n, 'charged once');
    assert.equal((await usage(lost)).status, 401, 'the lost secret no longer works');
    const held = await usage(secret);
    assert.deepEqual([held.body.tier, held.body.limit, held.body.used], ['credits', 1000, 0]);

    // Still the same key: what it used stays used, and only the newest secret works.
    await paid.service.call('/v1/iban/validate', { json: { iban: VALID }, key: secret });
    const third = await buy(payment, from, idempotencyKey);
    assert.equal(third.status, 201, third.text);
    assert.equal(third.body.balance, 999);
    assert.equal((await usage(secret)).status, 401);
    assert.equal((await usage(third.body.api_key)).body.used, 1);
  });

  test('the payment sent again without its Idempotency-Key, with another, from elsewhere or after 10 minutes shows no key', async () => {
    const payer = await paid.chain.newPayer(5_000_000n);
    const payment = await packPayment(payer);
    const from = '127.0.10.2';
    const idempotencyKey = randomUUID();
    const first = await buy(payment, from, idempotencyKey);
    assert.equal(first.status, 201, first.text);

    const tries = [
      await buy(payment, from),
      await buy(payment, from, randomUUID()),
      await buy(payment, '127.0.10.3', idempotencyKey),
      await buy(payment, from, idempotencyKey, await paid.service.newKey(from)),
    ];
    paid.service.clock.advance(10 * 60_000 + 1);
    tries.push(await buy(payment, from, idempotencyKey));
    for (const refused of tries) {
      assert.equal(refused.status, 402, refused.text);
      assert.doesNotMatch(refused.text, /ifk_/);
    }
    assert.equal((await usage(first.body.api_key)).status, 200, 'the key bought keeps its secret');
    assert.equal(await paid.chain.balanceOf(payer.address), 1_000_000n);
  });

  test('a purchase sent with a short Idempotency-Key cannot be recovered: a guessable key would give it away', async () => {
    const payer = await paid.chain.newPayer(5_000_000n);
    const payment = await packPayment(payer);
    const from = '127.0.10.4';
    const first = await buy(payment, from, 'pack-1');
    assert.equal(first.status, 201, first.text);
    const again = await buy(payment, from, 'pack-1');
    assert.equal(again.status, 402, again.text);
    assert.doesNotMatch(again.text, /ifk_/);
    assert.equal((await usage(first.body.api_key)).status, 200);
  });
});
