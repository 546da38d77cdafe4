import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readCliConfig, readConfig } from '../src/config.ts';

describe('configuration (README, "Configuration")', () => {
  test('no variables at all gives the embedded defaults', () => {
    const c = readConfig({});
    assert.equal(c.port, 3000);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.databaseUrl, 'sqlite:./data/mod97.db');
    assert.equal(c.outboxDir, './data/outbox');
    assert.equal(c.publicUrl, 'http://localhost:3000');
    assert.equal(c.mxCheck, true);
    assert.equal(c.smtpUrl, null);
    assert.equal(c.mailFrom, 'mod97 <no-reply@localhost>');
    assert.deepEqual([c.trustProxy, c.dnsServers, c.keyPepper], [[], [], null]);
  });

  test('an empty or blank variable counts as unset, for every variable', () => {
    const names = [
      'PORT',
      'HOST',
      'MOD97_PUBLIC_URL',
      'MOD97_DATABASE_URL',
      'MOD97_SMTP_URL',
      'MOD97_MAIL_FROM',
      'MOD97_OUTBOX_DIR',
      'MOD97_DNS_SERVERS',
      'MOD97_MX_CHECK',
      'MOD97_TRUST_PROXY',
      'MOD97_KEY_PEPPER',
      'MOD97_LOG_LEVEL',
      'STRIPE_SECRET_KEY',
    ];
    const blank = readConfig(Object.fromEntries(names.map((n, i) => [n, i % 2 ? '' : ' '])));
    assert.deepEqual(blank, readConfig({}));
    assert.equal(blank.stripe, null, 'a blank STRIPE_SECRET_KEY leaves the card rail off');
  });

  test('set values are used', () => {
    const c = readConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      MOD97_DATABASE_URL: 'sqlite::memory:',
      MOD97_MX_CHECK: 'OFF',
      MOD97_TRUST_PROXY: '10.0.0.0/8, 192.0.2.1',
      MOD97_OUTBOX_DIR: '/tmp/outbox',
    });
    assert.deepEqual(
      [c.port, c.host, c.databaseUrl, c.mxCheck, c.outboxDir],
      [8080, '0.0.0.0', 'sqlite::memory:', false, '/tmp/outbox'],
    );
    assert.equal(c.publicUrl, 'http://localhost:8080', 'the public URL follows PORT');
    assert.deepEqual(c.trustProxy, ['10.0.0.0/8', '192.0.2.1']);
    assert.equal(
      readConfig({ MOD97_PUBLIC_URL: 'https://api.example.com/' }).publicUrl,
      'https://api.example.com',
      'no trailing slash',
    );
  });

  test('a PORT that is not a port number is refused', () => {
    for (const PORT of ['abc', '-1', '70000', '3000.5', '1e3']) {
      assert.throws(() => readConfig({ PORT }), /PORT must be a port number/, PORT);
    }
  });

  test('the config is read once into a frozen object: nothing can change it afterwards', () => {
    const c = readConfig({ MOD97_DATA_URL_OFAC_SDN: 'https://a.example/1.csv, https://a.example/2.csv' });
    assert.throws(() => Object.assign(c, { publicUrl: 'http://elsewhere' }), TypeError);
    assert.deepEqual(c.dataUrls, { MOD97_DATA_URL_OFAC_SDN: ['https://a.example/1.csv', 'https://a.example/2.csv'] });
    const cli = readCliConfig({ MOD97_URL: 'http://127.0.0.1:4000', MOD97_API_KEY: ' ', PORT: 'not a port' });
    assert.deepEqual(
      [cli.serviceUrl, cli.apiKey],
      ['http://127.0.0.1:4000', null],
      'the command reads only its own settings',
    );
  });

  test('one half of a payment rail stops the start, naming the other half', () => {
    const halves: [Record<string, string>, RegExp][] = [
      [{ STRIPE_SECRET_KEY: 'sk_test_1' }, /STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not/],
      [{ STRIPE_WEBHOOK_SECRET: 'whsec_1' }, /STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is not/],
      [{ MOD97_X402_FACILITATOR_URL: 'https://f.example' }, /FACILITATOR_URL is set but MOD97_X402_PAY_TO is not/],
      [{ MOD97_X402_PAY_TO: `0x${'1'.repeat(40)}` }, /PAY_TO is set but MOD97_X402_FACILITATOR_URL is not/],
      [{ MOD97_X402_NETWORK: 'eip155:84532' }, /MOD97_X402_NETWORK is set but MOD97_X402_FACILITATOR_URL is not/],
      [{ STRIPE_PRICE_PRO: 'price_x' }, /STRIPE_PRICE_PRO is set but STRIPE_SECRET_KEY is not/],
    ];
    for (const [env, message] of halves) {
      assert.throws(
        () => readConfig(env),
        (err: Error & { code?: string }) => err.code === 'invalid_config' && message.test(err.message),
        JSON.stringify(env),
      );
    }
    const both = readConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' });
    assert.equal(both.stripe?.webhookSecret, 'whsec_1');
  });

  test('a pepper shorter than 32 bytes is refused; 32 bytes and more are taken', () => {
    for (const pepper of ['abc', 'x'.repeat(31)]) {
      assert.throws(
        () => readConfig({ MOD97_KEY_PEPPER: pepper }),
        new RegExp(`MOD97_KEY_PEPPER is ${pepper.length} bytes long; it must be at least 32`),
      );
    }
    assert.equal(readConfig({ MOD97_KEY_PEPPER: 'x'.repeat(32) }).keyPepper, 'x'.repeat(32));
    const hex = 'ab'.repeat(32);
    assert.equal(readConfig({ MOD97_KEY_PEPPER: hex }).keyPepper, hex);
  });
});
