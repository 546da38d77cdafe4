/** The client with the official x402 payer: a 402 is paid on the local chain and the call answered. */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { Mod97, Mod97Error } from '../src/index.ts';
import { anvilBinary, NETWORK } from '../../../test/support/x402/chain.ts';
import { startPaidService, type PaidService } from '../../../test/payments/x402/paid-service.ts';

const skip = !anvilBinary() && 'anvil (optional dependency, linux-x64 only) is not installed';
const paid = (skip ? null : await startPaidService()) as PaidService;
after(() => paid?.stop());

describe('x402 through the client', { skip }, () => {
  test('without a payer a no-key lookup is a typed 402; with one it is paid and answered', async () => {
    await assert.rejects(
      new Mod97({ baseUrl: paid.service.url }).bic('COBADEFF'),
      (e: unknown) => e instanceof Mod97Error && e.status === 402 && e.code === 'payment_required',
    );
    const payer = await paid.chain.newPayer(1_000_000n);
    const signer = new x402Client().register(NETWORK, new ExactEvmScheme(privateKeyToAccount(payer.privateKey)));
    const client = new Mod97({ baseUrl: paid.service.url, fetch: wrapFetchWithPayment(fetch, signer) });
    const bic = await client.bic('COBADEFF');
    assert.equal(bic.bic11, 'COBADEFFXXX');
    assert.equal(bic.attribution, undefined, 'a paid answer carries no attribution');
    assert.equal(await paid.chain.balanceOf(payer.address), 1_000_000n - 3000n, 'exactly $0.003 moved');
    const batch = await client.batch(['DE89 3704 0044 0532 0130 00', 'GB82 WEST 1234 5698 7654 32']);
    assert.equal(batch.valid, 2);
    assert.equal(await paid.chain.balanceOf(payer.address), 1_000_000n - 3000n - 4000n);
  });
});
