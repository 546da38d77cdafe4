/** The x402 rail's settings from the environment (README, "Turning on x402"). */
import { getDefaultAsset } from '@x402/evm';
import { DomainError } from '../../errors.ts';

export type Address = `0x${string}`;
type Caip2 = `${string}:${string}`;

export interface X402Config {
  facilitatorUrl: string;
  payTo: Address;
  /** CAIP-2 id of the EVM chain payments are made on. */
  network: Caip2;
  /** The token paid in: a 6-decimal USD stablecoin with EIP-3009 (USDC). */
  asset: Address;
  /** The token's EIP-712 domain, which payers sign against. */
  assetName: string;
  assetVersion: string;
}

const isAddress = (value: string | undefined): value is Address => /^0x[0-9a-fA-F]{40}$/.test(value ?? '');
const isEvmNetwork = (value: string): value is Caip2 => /^eip155:[1-9][0-9]*$/.test(value);

function invalid(message: string): DomainError {
  return new DomainError('invalid_config', message);
}

/** null when MOD97_X402_FACILITATOR_URL is unset: the rail is off. */
export function readX402Config(env: Record<string, string | undefined>): X402Config | null {
  const facilitatorUrl = env.MOD97_X402_FACILITATOR_URL?.trim();
  if (!facilitatorUrl) return null;
  if (!URL.canParse(facilitatorUrl) || !/^https?:$/.test(new URL(facilitatorUrl).protocol)) {
    throw invalid('MOD97_X402_FACILITATOR_URL must be an http(s) URL');
  }
  const payTo = env.MOD97_X402_PAY_TO?.trim();
  if (!isAddress(payTo)) throw invalid('MOD97_X402_PAY_TO must be the 0x address that receives payments');
  const network = env.MOD97_X402_NETWORK?.trim() || 'eip155:8453';
  if (!isEvmNetwork(network)) throw invalid('MOD97_X402_NETWORK must be a CAIP-2 EVM network such as eip155:8453');

  const known = knownUsdc(network);
  const asset = env.MOD97_X402_ASSET?.trim() || known?.asset;
  if (!asset) throw invalid(`MOD97_X402_ASSET is required: no default USDC is known for ${network}`);
  if (!isAddress(asset)) throw invalid('MOD97_X402_ASSET must be a 0x token address');
  // The known EIP-712 domain only applies to the known token; another token must name its own.
  const sameToken = known !== null && known.asset.toLowerCase() === asset.toLowerCase();
  const assetName = env.MOD97_X402_ASSET_NAME?.trim() || (sameToken ? known.name : '');
  const assetVersion = env.MOD97_X402_ASSET_VERSION?.trim() || (sameToken ? known.version : '');
  if (!assetName || !assetVersion) {
    throw invalid(
      "MOD97_X402_ASSET_NAME and MOD97_X402_ASSET_VERSION are required for a token other than the network's USDC",
    );
  }
  return {
    facilitatorUrl: facilitatorUrl.replace(/\/+$/, ''),
    payTo,
    network,
    asset,
    assetName,
    assetVersion,
  };
}

function knownUsdc(network: Caip2): { asset: string; name: string; version: string } | null {
  try {
    const found = getDefaultAsset(network, 'USDC');
    return found.decimals === 6 ? found : null;
  } catch {
    return null;
  }
}
