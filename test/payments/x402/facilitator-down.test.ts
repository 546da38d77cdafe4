/**
 * A facilitator that stops answering after the service started (docs/api.md, "x402 pay-per-call",
 * refusals): a payment that could not be checked, or not settled, because the facilitator could
 * not be reached is 502 `payments_unavailable` with `cause.reason` `facilitator_unavailable`, no
 * options, and nothing charged; it is not a refused payment. Through the real service, with the
 * official x402 client's payments, on anvil as Base Sepolia.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { x402Client, x402HTTPClient } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { startService, type TestService } from '../../support/app.ts';
import { anvilBinary, NETWORK, type Wallet } from '../../support/x402/chain.ts';
import { startPaidService, type PaidService } from './paid-service.ts';

const skip = !anvilBinary() && 'anvil (optional dependency, linux-x64 only) is not installed';
const IBAN = 'DE89 3704 0044 0532 0130 00';
// Started at the top level: startService ties its own clean-up to the test that starts it.
const paid = (skip ? null : await startPaidService()) as PaidService;
after(() => paid?.stop());

/**
 * The facilitator behind an address of its own that can go away: once `down()` is called (or,
 * with `downAfterVerify`, once it answered a /verify), it stops listening, so that a connection
 * to it is refused, as for a facilitator that stopped.
 */
async function facilitatorProxy(target: string, opts: { downAfterVerify?: boolean } = {}) {
  let server: Server | null = null;
  const down = () =>
    new Promise<void>((resolve) => {
      if (!server) return resolve();
      const closing = server;
      server = null;
      closing.close(() => resolve());
      closing.closeAllConnections();
    });
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = await fetch(target + req.url, {
      method: req.method,
      headers: { 'content-type': 'application/json' },
      body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
    });
    // No connection is kept: every call to the facilitator connects anew.
    res.writeHead(answer.status, { 'content-type': 'application/json', connection: 'close' });
    res.end(await answer.text());
    if (opts.downAfterVerify && req.url === '/verify') res.on('finish', () => void down());
  });
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  after(down);
  return { url: `http://127.0.0.1:${(listening.address() as AddressInfo).port}`, down };
}

const header = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

/** A payment `who` signs for `path`, from the requirements `service` attaches to a refused payment. */
async function signedPayment(service: TestService, who: Wallet, path: string, json?: unknown) {
  const refused = await service.call(path, { method: 'POST', json, headers: { 'PAYMENT-SIGNATURE': 'none' } });
  assert.equal(refused.status, 400, refused.text);
  const signer = new x402Client().register(NETWORK, new ExactEvmScheme(privateKeyToAccount(who.privateKey)));
  // A pack costs more than the client pays at once by default.
  signer.setSpendControls({ maxAmountPerPayment: '$80' });
  const client = new x402HTTPClient(signer);
  const required = client.getPaymentRequiredResponse(
    (name) => header(refused.headers[name.toLowerCase()]),
    refused.body,
  );
  return client.encodePaymentSignatureHeader(await client.createPaymentPayload(required));
}

const serviceVia = (facilitatorUrl: string) =>
  startService({
    env: {
      MOD97_X402_FACILITATOR_URL: facilitatorUrl,
      MOD97_X402_PAY_TO: paid.chain.payTo,
      MOD97_X402_NETWORK: NETWORK,
    },
  });

describe('x402 with a facilitator that went away after start-up', { skip }, () => {
  test('a payment sent while the facilitator cannot be reached is 502 facilitator_unavailable, not a refused payment, and stays good', async () => {
    const proxy = await facilitatorProxy(paid.facilitator.url);
    const service = await serviceVia(proxy.url);
    const payer = await paid.chain.newPayer(1_000_000n);
    const from = '127.0.9.1';
    // The facilitator answers at first: the service knows it, and signs with its requirements.
    const signature = await signedPayment(service, payer, '/v1/iban/validate', { iban: IBAN });
    await proxy.down();

    const before = await paid.balances(payer);
    const res = await service.call('/v1/iban/validate', { json: { iban: IBAN }, headers: signature, from });
    assert.equal(res.status, 502, res.text);
    assert.equal(res.body.error, 'payments_unavailable');
    assert.deepEqual(res.body.cause, { reason: 'facilitator_unavailable' });
    assert.equal(res.body.options, undefined, 'no options: the payment was not refused');
    assert.equal(res.headers['payment-required'], undefined);
    assert.deepEqual(await paid.balances(payer), before, 'nothing was charged');

    // The payment was never checked, so it still pays once a facilitator can be reached.
    const reachable = await serviceVia(paid.facilitator.url);
    const served = await reachable.call('/v1/iban/validate', { json: { iban: IBAN }, headers: signature, from });
    assert.equal(served.status, 200, served.text);
    assert.equal(before.payer - (await paid.balances(payer)).payer, 5000n);
  });

  test('a pack whose settlement cannot reach the facilitator is 502 facilitator_unavailable: no key shown, none live, nothing moved', async () => {
    const proxy = await facilitatorProxy(paid.facilitator.url, { downAfterVerify: true });
    const service = await serviceVia(proxy.url);
    const payer = await paid.chain.newPayer(5_000_000n);
    const signature = await signedPayment(service, payer, '/v1/credits/buy/1k');
    const before = await paid.balances(payer);
    const keys = service.services.keys;
    const insert = keys.insert;
    const made: string[] = [];
    keys.insert = async (spec) => {
      const issued = await insert.call(keys, spec);
      made.push(issued.secret);
      return issued;
    };

    const res = await service.call('/v1/credits/buy/1k', { method: 'POST', headers: signature, from: '127.0.9.2' });
    assert.equal(res.status, 502, res.text);
    assert.equal(res.body.error, 'payments_unavailable');
    assert.deepEqual(res.body.cause, { reason: 'facilitator_unavailable' });
    assert.equal(res.body.options, undefined);
    assert.doesNotMatch(res.text, /ifk_/);
    assert.deepEqual(await paid.balances(payer), before, 'nothing was settled');
    assert.equal(made.length, 1, 'the handler made the key before settling');
    assert.equal((await service.call('/v1/keys/usage', { key: made[0] })).status, 401, 'and it was revoked');
  });
});
