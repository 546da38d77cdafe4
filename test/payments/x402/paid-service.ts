/**
 * The real mod97 service with its x402 rail on a local Base Sepolia (anvil + Circle's FiatToken)
 * and a local facilitator, plus the official @x402/fetch client sending from any loopback
 * address, so that each test acts as its own network.
 */
import { x402Client } from '@x402/core/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import { startService, type TestService } from '../../support/app.ts';
import { NETWORK, startChain, type Chain, type Wallet } from '../../support/x402/chain.ts';
import { startFacilitator, type Facilitator } from '../../support/x402/facilitator.ts';

export interface PaidService {
  chain: Chain;
  facilitator: Facilitator;
  service: TestService;
  /**
   * The official x402 client paying as `who`, sending from `from`; `sent` keeps every request it
   * made. The client refuses to pay over $1 at once unless `maxPaymentUsd` raises its cap.
   */
  payingFetch(who: Wallet, from: string, maxPaymentUsd?: number): PayingFetch;
  /** USDC held by the payer and by the service's pay-to address. */
  balances(payer: Wallet): Promise<{ payer: bigint; payTo: bigint }>;
  stop(): Promise<void>;
}

export interface PayingFetch {
  (path: string, init?: { method?: string; json?: unknown; key?: string }): Promise<Response>;
  sent: Headers[];
}

export async function startPaidService(): Promise<PaidService> {
  const chain = await startChain();
  const facilitator = await startFacilitator(chain).catch(async (err) => {
    await chain.stop();
    throw err;
  });
  const service = await startService({
    env: { MOD97_X402_FACILITATOR_URL: facilitator.url, MOD97_X402_PAY_TO: chain.payTo, MOD97_X402_NETWORK: NETWORK },
  });

  const payingFetch = (who: Wallet, from: string, maxPaymentUsd?: number): PayingFetch => {
    const sent: Headers[] = [];
    // fetch's shape over the service's checked call, which can bind a source address.
    const fromAddress = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      sent.push(new Headers(request.headers));
      const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
      const headers = Object.fromEntries(request.headers);
      const reply = await service.call(new URL(request.url).pathname, {
        method: request.method,
        raw: body,
        headers,
        from,
      });
      const replyHeaders = new Headers();
      for (const [name, value] of Object.entries(reply.headers))
        if (typeof value === 'string') replyHeaders.set(name, value);
      return new Response(reply.text, { status: reply.status, headers: replyHeaders });
    };
    const client = new x402Client().register(NETWORK, new ExactEvmScheme(privateKeyToAccount(who.privateKey)));
    if (maxPaymentUsd !== undefined) client.setSpendControls({ maxAmountPerPayment: `$${maxPaymentUsd}` });
    const paying = wrapFetchWithPayment(fromAddress, client);
    const fetcher = ((path, init = {}) => {
      const headers: Record<string, string> = {};
      if (init.json !== undefined) headers['content-type'] = 'application/json';
      if (init.key) headers.authorization = `Bearer ${init.key}`;
      return paying(service.url + path, {
        method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
        headers,
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
    }) as PayingFetch;
    fetcher.sent = sent;
    return fetcher;
  };

  return {
    chain,
    facilitator,
    service,
    payingFetch,
    balances: async (payer) => ({
      payer: await chain.balanceOf(payer.address),
      payTo: await chain.balanceOf(chain.payTo),
    }),
    async stop() {
      await service.close();
      await facilitator.stop();
      await chain.stop();
    },
  };
}

/** `n` valid IBANs (the batch route takes 1 to 1000). */
export const ibans = (n: number) => Array.from({ length: n }, () => 'DE89370400440532013000');
