/**
 * A real x402 facilitator on 127.0.0.1: @x402/core's x402Facilitator with @x402/evm's exact
 * scheme, settling on the local chain with a funded account. It serves the three endpoints
 * HTTPFacilitatorClient calls: GET /supported, POST /verify, POST /settle.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { x402Facilitator } from '@x402/core/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { createWalletClient, http, publicActions } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { localChain, NETWORK, type Chain } from './chain.ts';

export interface Facilitator {
  url: string;
  /** The next /settle answers 500 with an internal-looking message, and moves nothing. */
  failNextSettle(): void;
  stop(): Promise<void>;
}

/** Text the settlement-failure test checks never reaches the API's client. */
export const INTERNAL_FAILURE_TEXT = 'rpc node 10.0.0.7 refused: nonce too low (internal detail)';

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export async function startFacilitator(chain: Chain): Promise<Facilitator> {
  const account = privateKeyToAccount(chain.facilitatorAccount.privateKey);
  const client = createWalletClient({
    account,
    chain: localChain(chain.rpcUrl),
    transport: http(chain.rpcUrl),
    pollingInterval: 50,
  }).extend(publicActions);
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) => client.readContract(args as Parameters<typeof client.readContract>[0]),
    verifyTypedData: (args) => client.verifyTypedData(args as Parameters<typeof client.verifyTypedData>[0]),
    writeContract: (args) => client.writeContract(args as Parameters<typeof client.writeContract>[0]),
    sendTransaction: (args) => client.sendTransaction(args),
    waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
    getCode: (args) => client.getCode(args),
  });
  const facilitator = new x402Facilitator().register(NETWORK, new ExactEvmScheme(signer));

  let failSettle = false;
  const server = createServer(async (req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    try {
      if (req.method === 'GET' && req.url === '/supported') return reply(200, facilitator.getSupported());
      if (req.method !== 'POST' || (req.url !== '/verify' && req.url !== '/settle'))
        return reply(404, { error: 'not found' });
      const { paymentPayload, paymentRequirements } = (await readJson(req)) as Parameters<
        typeof facilitator.verify
      > extends [infer P, infer R]
        ? { paymentPayload: P; paymentRequirements: R }
        : never;
      if (req.url === '/verify') return reply(200, await facilitator.verify(paymentPayload, paymentRequirements));
      if (failSettle) {
        failSettle = false;
        return reply(500, { error: INTERNAL_FAILURE_TEXT });
      }
      return reply(200, await facilitator.settle(paymentPayload, paymentRequirements));
    } catch (err) {
      reply(500, { error: err instanceof Error ? err.message : String(err) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    failNextSettle() {
      failSettle = true;
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
