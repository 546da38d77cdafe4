import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readX402Config } from '../../../src/payments/x402/config.ts';

const PAY_TO = '0x1111111111111111111111111111111111111111';
const on = (more: Record<string, string> = {}) => ({
  MOD97_X402_FACILITATOR_URL: 'https://facilitator.example/',
  MOD97_X402_PAY_TO: PAY_TO,
  ...more,
});

test('the x402 rail is off when no facilitator is configured', () => {
  assert.equal(readX402Config({}), null);
  assert.equal(readX402Config({ MOD97_X402_PAY_TO: PAY_TO, MOD97_X402_FACILITATOR_URL: ' ' }), null);
});

test('with only a facilitator and a payee, payments are in USDC on Base', () => {
  assert.deepEqual(readX402Config(on()), {
    facilitatorUrl: 'https://facilitator.example',
    payTo: PAY_TO,
    network: 'eip155:8453',
    asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    assetName: 'USD Coin',
    assetVersion: '2',
  });
});

test('on Base Sepolia the default token is its USDC with the EIP-712 name "USDC"', () => {
  const config = readX402Config(on({ MOD97_X402_NETWORK: 'eip155:84532' }))!;
  assert.equal(config.asset, '0x036CbD53842c5426634e7929541eC2318f3dCF7e');
  assert.equal(config.assetName, 'USDC');
  assert.equal(config.assetVersion, '2');
});

test('a rail without a valid payee address refuses to start', () => {
  assert.throws(() => readX402Config({ MOD97_X402_FACILITATOR_URL: 'https://f.example' }), /MOD97_X402_PAY_TO/);
  assert.throws(() => readX402Config(on({ MOD97_X402_PAY_TO: '0x123' })), /MOD97_X402_PAY_TO/);
});

test('a facilitator address that is not http(s) and a network that is not CAIP-2 EVM are refused', () => {
  assert.throws(() => readX402Config(on({ MOD97_X402_FACILITATOR_URL: 'ftp://f.example' })), /FACILITATOR_URL/);
  assert.throws(() => readX402Config(on({ MOD97_X402_NETWORK: 'base' })), /MOD97_X402_NETWORK/);
});

test('another token, or a network with no known USDC, must name the token and its EIP-712 domain', () => {
  const token = '0x2222222222222222222222222222222222222222';
  assert.throws(() => readX402Config(on({ MOD97_X402_NETWORK: 'eip155:999999' })), /MOD97_X402_ASSET is required/);
  assert.throws(() => readX402Config(on({ MOD97_X402_ASSET: token })), /ASSET_NAME/);
  const config = readX402Config(
    on({ MOD97_X402_ASSET: token, MOD97_X402_ASSET_NAME: 'Dollar', MOD97_X402_ASSET_VERSION: '1' }),
  )!;
  assert.deepEqual([config.asset, config.assetName, config.assetVersion], [token, 'Dollar', '1']);
});
