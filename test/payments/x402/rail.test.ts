/**
 * The x402 rail end to end: a local Base Sepolia (anvil + Circle's FiatToken at the canonical
 * USDC address), a real facilitator, the x402 Fastify plugin on a bare app, and the official
 * @x402/fetch client paying with a viem account. One chain for the whole file.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { x402Plugin } from '../../../src/http/x402.ts';
import { createX402Rail, readX402Config } from '../../../src/payments/x402/index.ts';
import { anvilBinary, NETWORK, startChain, type Chain, type Wallet } from '../../support/x402/chain.ts';
import { INTERNAL_FAILURE_TEXT, startFacilitator, type Facilitator } from '../../support/x402/facilitator.ts';
import { openSqliteStore } from '../../../src/store/sqlite/index.ts';

const skip = !anvilBinary() && 'anvil (optional dependency, linux-x64 only) is not installed';
let chain: Chain;
let facilitator: Facilitator;
let app: FastifyInstance;
let base: string;
const store = openSqliteStore('sqlite::memory:');
const served: string[] = [];

before(async () => {
  if (skip) return;
  chain = await startChain();
  facilitator = await startFacilitator(chain);
  const config = readX402Config({
    MOD97_X402_FACILITATOR_URL: facilitator.url,
    MOD97_X402_PAY_TO: chain.payTo,
    MOD97_X402_NETWORK: NETWORK,
  })!;
  app = Fastify();
  await app.register(x402Plugin, {
    rail: createX402Rail(config, { store, clock: Date.now }),
    publicUrl: 'http://mod97.test',
    optionsFor: async (_req, priceUsd) => [{ type: 'x402', price_usd: priceUsd }],
  });
  const ibans = (body: unknown) => ((body as { ibans?: unknown[] } | null)?.ibans ?? []).length;
  app.post(
    '/v1/iban/batch',
    { config: { x402Price: (req) => 0.002 * ibans(req.body), x402Required: true } },
    async (req) => {
      served.push('batch');
      return { count: ibans(req.body), note: 'handler-output' };
    },
  );
  app.post('/v1/iban/validate', { config: { x402Price: () => 0.005, x402Required: true } }, async () => {
    served.push('validate');
    throw new Error('the handler failed');
  });
  // Stands for a route where keys and quota decide; here every call is out of quota.
  app.get('/v1/bic/:code', { config: { x402Price: () => 0.003 } }, async (req, reply) => {
    if (req.x402Payment) return { bic: 'DEUTDEFF' };
    return reply.code(402).send({ error: 'quota_exhausted', message: 'used up' });
  });
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});

after(async () => {
  await app?.close();
  await facilitator?.stop();
  await chain?.stop();
  await store.close();
});

const payingFetch = (who: Wallet) =>
  wrapFetchWithPayment(
    fetch,
    new x402Client().register(NETWORK, new ExactEvmScheme(privateKeyToAccount(who.privateKey))),
  );

const batch = (n: number): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ ibans: Array.from({ length: n }, () => 'DE89370400440532013000') }),
});

/** Signs a payment for the price the service quotes, without sending it. */
async function signedPayment(path: string, init: RequestInit, who: Wallet = chain.payer): Promise<PaymentPayload> {
  const quoted = await fetch(base + path, init);
  assert.equal(quoted.status, 402);
  const client = new x402HTTPClient(
    new x402Client().register(NETWORK, new ExactEvmScheme(privateKeyToAccount(who.privateKey))),
  );
  return client.createPaymentPayload(
    client.getPaymentRequiredResponse((name) => quoted.headers.get(name), await quoted.json()),
  );
}

const send = (path: string, init: RequestInit, payload: PaymentPayload) =>
  fetch(base + path, {
    ...init,
    headers: {
      ...(init.headers as Record<string, string>),
      ...{ 'PAYMENT-SIGNATURE': encodePaymentSignatureHeader(payload) },
    },
  });

const balances = async (payer = chain.payer.address) => [
  await chain.balanceOf(payer),
  await chain.balanceOf(chain.payTo),
];

function refusalReason(res: Response): string | undefined {
  const header = res.headers.get('payment-required');
  return header ? decodePaymentRequiredHeader(header).error : undefined;
}

describe('x402 pay-per-call', { skip }, () => {
  test('an unpaid call answers 402 with requirements for the exact price in Base Sepolia USDC', async () => {
    const res = await fetch(`${base}/v1/iban/batch`, batch(3));
    assert.equal(res.status, 402);
    const body = await res.json();
    assert.equal(body.error, 'payment_required');
    assert.deepEqual(body.options, [{ type: 'x402', price_usd: 0.006 }], 'the options the app gives for this price');
    const [offer] = decodePaymentRequiredHeader(res.headers.get('payment-required')!).accepts;
    assert.equal(offer.amount, '6000');
    assert.equal(offer.asset, chain.usdc);
    assert.equal(offer.payTo, chain.payTo);
    assert.equal(offer.network, 'eip155:84532');
    assert.deepEqual(offer.extra, { name: 'USDC', version: '2' });
  });

  test('a paid batch of 3 moves exactly $0.006 of USDC from the payer to the service', async () => {
    const [payerBefore, payToBefore] = await balances();
    const res = await payingFetch(chain.payer)(`${base}/v1/iban/batch`, batch(3));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { count: 3, note: 'handler-output' });
    const receipt = decodePaymentResponseHeader(res.headers.get('payment-response')!);
    assert.equal(receipt.success, true);
    assert.match(receipt.transaction, /^0x[0-9a-f]{64}$/);
    const [payerAfter, payToAfter] = await balances();
    assert.equal(payerBefore - payerAfter, 6000n);
    assert.equal(payToAfter - payToBefore, 6000n);
    assert.equal(receipt.payer?.toLowerCase(), chain.payer.address.toLowerCase());
  });

  test('any 402 on a priced route offers x402, and paying it gets the answer', async () => {
    const unpaid = await fetch(`${base}/v1/bic/DEUTDEFF`);
    assert.equal(unpaid.status, 402);
    assert.equal((await unpaid.json()).error, 'quota_exhausted');
    assert.equal(decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!).accepts[0].amount, '3000');
    const paid = await payingFetch(chain.payer)(`${base}/v1/bic/DEUTDEFF`);
    assert.equal(paid.status, 200);
    assert.deepEqual(await paid.json(), { bic: 'DEUTDEFF' });
  });

  test('a payment with a tampered signature is refused and moves nothing', async () => {
    const payload = await signedPayment('/v1/iban/batch', batch(1));
    const signature = payload.payload.signature as string;
    const flipped = signature.slice(0, 10) + (signature[10] === 'a' ? 'b' : 'a') + signature.slice(11);
    const before = await balances();
    const res = await send('/v1/iban/batch', batch(1), {
      ...payload,
      payload: { ...payload.payload, signature: flipped },
    });
    assert.equal(res.status, 402);
    assert.doesNotMatch(await res.text(), /handler-output/);
    assert.equal(refusalReason(res), 'invalid_exact_evm_signature');
    assert.deepEqual(await balances(), before);
  });

  test('a payment for less than the price is refused, whether the offer or the authorization is altered', async () => {
    const payload = await signedPayment('/v1/iban/batch', batch(5));
    const auth = payload.payload.authorization as Record<string, string>;
    const before = await balances();
    const cheaperOffer = await send('/v1/iban/batch', batch(5), {
      ...payload,
      accepted: { ...payload.accepted, amount: '1' },
      payload: { ...payload.payload, authorization: { ...auth, value: '1' } },
    });
    assert.equal(cheaperOffer.status, 402);
    assert.equal(refusalReason(cheaperOffer), 'payment_does_not_match_price');
    const cheaperAuthorization = await send('/v1/iban/batch', batch(5), {
      ...payload,
      payload: { ...payload.payload, authorization: { ...auth, value: '1' } },
    });
    assert.equal(cheaperAuthorization.status, 402);
    assert.deepEqual(await balances(), before);
  });

  test('a payment signed for a smaller batch does not pay for a bigger one', async () => {
    const payload = await signedPayment('/v1/iban/batch', batch(1));
    const res = await send('/v1/iban/batch', batch(2), payload);
    assert.equal(res.status, 402);
    assert.equal(refusalReason(res), 'payment_does_not_match_price');
  });

  test('a payment sent again is refused and is charged only once', async () => {
    const payload = await signedPayment('/v1/iban/batch', batch(2));
    const [payerBefore] = await balances();
    const first = await send('/v1/iban/batch', batch(2), payload);
    assert.equal(first.status, 200);
    const servedBefore = served.length;
    const replay = await send('/v1/iban/batch', batch(2), payload);
    assert.equal(replay.status, 402);
    assert.doesNotMatch(await replay.text(), /handler-output/);
    assert.equal(refusalReason(replay), 'invalid_exact_evm_nonce_already_used');
    assert.equal(served.length, servedBefore, 'the handler does not run for a replay');
    const [payerAfter] = await balances();
    assert.equal(payerBefore - payerAfter, 4000n);
  });

  test('a payment on record is refused even when the chain has forgotten it (a reorg dropped its transfer)', async () => {
    const payload = await signedPayment('/v1/iban/batch', batch(1));
    const rewind = await chain.snapshot();
    assert.equal((await send('/v1/iban/batch', batch(1), payload)).status, 200);
    await rewind();
    const servedBefore = served.length;
    const replay = await send('/v1/iban/batch', batch(1), payload);
    assert.equal(replay.status, 402);
    assert.equal(refusalReason(replay), 'payment_already_used');
    assert.equal(served.length, servedBefore, 'the handler does not run for a replay');
  });

  test('the same payment sent twice at once is served and charged once', async () => {
    const payload = await signedPayment('/v1/iban/batch', batch(4));
    const [payerBefore] = await balances();
    const answers = await Promise.all([
      send('/v1/iban/batch', batch(4), payload),
      send('/v1/iban/batch', batch(4), payload),
    ]);
    const bodies = await Promise.all(answers.map((res) => res.text()));
    assert.deepEqual(answers.map((res) => res.status).sort(), [200, 402]);
    assert.equal(bodies.filter((body) => body.includes('handler-output')).length, 1);
    const [payerAfter] = await balances();
    assert.equal(payerBefore - payerAfter, 8000n);
  });

  test('a payer without USDC is refused', async () => {
    const broke = await chain.newPayer(0n);
    const before = await balances();
    const res = await payingFetch(broke)(`${base}/v1/iban/batch`, batch(1));
    assert.equal(res.status, 402);
    assert.doesNotMatch(await res.text(), /handler-output/);
    assert.equal(refusalReason(res), 'invalid_exact_evm_insufficient_balance');
    assert.deepEqual(await balances(), before);
  });

  test('a call whose handler fails is not charged', async () => {
    const before = await balances();
    const res = await payingFetch(chain.payer)(`${base}/v1/iban/validate`, { method: 'POST' });
    assert.equal(res.status, 500);
    assert.equal(res.headers.get('payment-response'), null);
    assert.deepEqual(await balances(), before);
  });

  test('when settlement fails the client gets 402, not the answer, and no facilitator internals', async () => {
    const before = await balances();
    facilitator.failNextSettle();
    const res = await payingFetch(chain.payer)(`${base}/v1/iban/batch`, batch(1));
    assert.equal(res.status, 402);
    const body = await res.text();
    assert.doesNotMatch(body, /handler-output/);
    assert.equal(JSON.parse(body).cause.reason, 'settlement_failed');
    assert.deepEqual(JSON.parse(body).options, [{ type: 'x402', price_usd: 0.002 }]);
    assert.ok(!body.includes(INTERNAL_FAILURE_TEXT) && !JSON.stringify([...res.headers]).includes('10.0.0.7'));
    assert.ok(res.headers.get('payment-required'), 'the client can pay again');
    assert.deepEqual(await balances(), before);
  });

  test('a payment header that is not a payment is refused with 400 (x402 HTTP transport)', async () => {
    const res = await fetch(`${base}/v1/iban/batch`, {
      ...batch(1),
      headers: { 'content-type': 'application/json', 'PAYMENT-SIGNATURE': 'not-base64-json' },
    });
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.cause.reason, 'malformed_payment');
    assert.deepEqual(body.options, [{ type: 'x402', price_usd: 0.002 }]);
  });
});
