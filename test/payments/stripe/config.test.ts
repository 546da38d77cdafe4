import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readStripeConfig } from '../../../src/payments/stripe/config.ts';

test('the card rail is off unless STRIPE_SECRET_KEY is set', () => {
  assert.equal(readStripeConfig({}), null);
  assert.equal(readStripeConfig({ STRIPE_SECRET_KEY: ' ', STRIPE_WEBHOOK_SECRET: 'whsec_x' }), null);
});

test('price ids, the webhook secret and an API base are read when given', () => {
  const settings = readStripeConfig({
    STRIPE_SECRET_KEY: 'sk_test_1',
    STRIPE_WEBHOOK_SECRET: 'whsec_1',
    STRIPE_PRICE_PRO: 'price_pro',
    STRIPE_PRICE_PACK_25K: 'price_25k',
    STRIPE_API_BASE: 'http://127.0.0.1:12111',
  });
  assert.deepEqual(settings, {
    secretKey: 'sk_test_1',
    webhookSecret: 'whsec_1',
    prices: { pro: 'price_pro', pack_25k: 'price_25k' },
    api: { host: '127.0.0.1', port: 12111, protocol: 'http' },
  });
});

test('a secret key without the webhook secret stops the start, naming STRIPE_WEBHOOK_SECRET', () => {
  assert.throws(() => readStripeConfig({ STRIPE_SECRET_KEY: 'sk_test_1' }), /STRIPE_WEBHOOK_SECRET is not/);
  assert.throws(
    () => readStripeConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: ' ' }),
    /STRIPE_WEBHOOK_SECRET/,
  );
});

test('a price that is not a Stripe price id, or a bad API base, stops the start with the variable named', () => {
  assert.throws(
    () => readStripeConfig({ STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_PRICE_PRO: 'prod_123' }),
    /STRIPE_PRICE_PRO/,
  );
  assert.throws(
    () => readStripeConfig({ STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_API_BASE: 'ftp://x' }),
    /STRIPE_API_BASE/,
  );
  assert.throws(
    () => readStripeConfig({ STRIPE_SECRET_KEY: 'sk', STRIPE_WEBHOOK_SECRET: 'whsec_1', STRIPE_API_BASE: 'not a url' }),
    /STRIPE_API_BASE/,
  );
});
