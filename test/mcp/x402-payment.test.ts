/**
 * Paying a tool call with x402 over MCP (x402's MCP transport), with the official SDKs: the MCP
 * client reads the requirements from the refusal, @x402/core's client signs them, and the call
 * sent again with the payment in `_meta["x402/payment"]` is served and settled on the local chain.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { x402Client } from '@x402/core/client';
import type { PaymentRequired } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import { startPaidService, type PaidService } from '../payments/x402/paid-service.ts';
import { anvilBinary, NETWORK } from '../support/x402/chain.ts';
import { connectMcp } from './support.ts';

const skip = !anvilBinary() && 'anvil (optional dependency, linux-x64 only) is not installed';
// Started at the top level: startService ties its own clean-up to the test that starts it.
const paid = (skip ? null : await startPaidService()) as PaidService;
after(() => paid?.stop());

describe('x402 payment of MCP tool calls', { skip }, () => {
  test('with the x402 rail on, paid tools name their x402 price; the free ones name no payment', async () => {
    const mcp = await connectMcp(paid.service.url, { from: '127.0.9.9' });
    const byName = Object.fromEntries((await mcp.client.listTools()).tools.map((t) => [t.name, t]));
    assert.match(byName.check_compliance.description ?? '', /or \$0\.02 per call by x402/);
    assert.match(byName.validate_iban.description ?? '', /pay per call with x402/);
    for (const free of ['get_usage', 'create_key']) assert.doesNotMatch(byName[free].description ?? '', /x402|credits/);
  });

  test('a refused tool call carries the requirements; paying in _meta serves it and returns the settlement', async () => {
    const payer = await paid.chain.newPayer(1_000_000n);
    const before = await paid.balances(payer);
    const mcp = await connectMcp(paid.service.url, { from: '127.0.9.1' });
    const refused = await mcp.client.callTool({ name: 'lookup_bic', arguments: { bic: 'DEUTDEFF' } });
    assert.equal(refused.isError, true);
    const required = refused.structuredContent as unknown as PaymentRequired & {
      error: string;
      message: string;
      options: unknown[];
    };
    // The REST error body, with x402's PaymentRequired beside it.
    assert.equal(required.error, 'payment_required');
    assert.match(
      required.message,
      /^This tool needs an API key or an x402 payment\. Without a key: call the create_key tool/,
    );
    assert.ok(required.options.length > 0);
    assert.equal(required.x402Version, 2);
    assert.equal(required.accepts[0].amount, '3000');
    assert.deepEqual(JSON.parse((refused.content as { text: string }[])[0].text), refused.structuredContent);

    const signer = new x402Client().register(NETWORK, new ExactEvmScheme(privateKeyToAccount(payer.privateKey)));
    const payment = await signer.createPaymentPayload(required);
    const served = await mcp.client.callTool({
      name: 'lookup_bic',
      arguments: { bic: 'DEUTDEFF' },
      _meta: { 'x402/payment': payment },
    });
    assert.equal(served.isError ?? false, false);
    const answer = served.structuredContent as { bic8: string; attribution?: unknown };
    assert.equal(answer.bic8, 'DEUTDEFF');
    assert.equal(answer.attribution, undefined, 'a paid call owes no attribution');
    const settlement = served._meta?.['x402/payment-response'] as { success: boolean; transaction: string };
    assert.equal(settlement.success, true);
    assert.match(settlement.transaction, /^0x[0-9a-f]{64}$/);
    const afterPaying = await paid.balances(payer);
    assert.equal(before.payer - afterPaying.payer, 3000n);
    assert.equal(afterPaying.payTo - before.payTo, 3000n);

    // The same payment again is refused and moves nothing.
    const replay = await mcp.client.callTool({
      name: 'lookup_bic',
      arguments: { bic: 'DEUTDEFF' },
      _meta: { 'x402/payment': payment },
    });
    assert.equal(replay.isError, true);
    // Refused by the store's record or by the chain's spent nonce, whichever sees it first.
    assert.match((replay.structuredContent as { cause: { reason: string } }).cause.reason, /already_used$/);
    assert.deepEqual(await paid.balances(payer), afterPaying);
  });
});
