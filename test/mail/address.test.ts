import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import { checkAddress, checkAddressSyntax, isDisposable } from '../../src/mail/address.ts';
import { createMxChecker, type MxChecker } from '../../src/mail/mx.ts';
import { startDns, MAIL_DOMAINS, type TestDns } from '../support/mail/dns.ts';
import { captureLog } from '../support/mail/log.ts';

const require = createRequire(import.meta.url);
const npmList = (
  require('disposable-email-domains-js') as { disposableEmailBlocklist: () => string[] }
).disposableEmailBlocklist();

describe('address syntax', () => {
  test('an ordinary address is accepted, with its domain lower-cased and its local part kept', () => {
    assert.equal(checkAddressSyntax('Jane.Doe+iban@Post.MOD97-Fixture.EU'), 'Jane.Doe+iban@post.mod97-fixture.eu');
  });

  test('white space around a pasted address is dropped', () => {
    assert.equal(checkAddressSyntax('  anna@post.mod97-fixture.eu\n'), 'anna@post.mod97-fixture.eu');
  });

  test('an internationalised domain is given in its ASCII form', () => {
    assert.equal(checkAddressSyntax('anna@Bücher.de'), 'anna@xn--bcher-kva.de');
  });

  test('the length limits are 64 for the local part and 254 in all', () => {
    const domain = `${'d'.repeat(63)}.${'e'.repeat(63)}.${'f'.repeat(63)}.eu`; // 194 characters
    assert.equal(checkAddressSyntax(`${'a'.repeat(59)}@${domain}`).length, 254);
    assert.throws(() => checkAddressSyntax(`${'a'.repeat(60)}@${domain}`), { code: 'invalid_email' });
    assert.ok(checkAddressSyntax(`${'l'.repeat(64)}@post.mod97-fixture.eu`));
    assert.throws(() => checkAddressSyntax(`${'l'.repeat(65)}@post.mod97-fixture.eu`), { code: 'invalid_email' });
  });

  const malformed = [
    '',
    'plain-text',
    'no-domain@',
    '@no-local.eu',
    'two@@ats.eu',
    'a@b@c.eu',
    'with space@post.eu',
    'tab\there@post.eu',
    'a@nodot',
    'a@post.e',
    'a@post.123',
    'a@post.e1',
    '.lead@post.eu',
    'trail.@post.eu',
    'dou..ble@post.eu',
    'a@-lead.eu',
    'a@trail-.eu',
    'a@dou..ble.eu',
    'a@post.eu.',
    'a@under_score.eu',
    'a@[192.0.2.1]',
    'a@192.0.2.1',
    '"quoted"@post.eu',
    'jürgen@post.eu', // non-ASCII local parts are refused on purpose
    'comma,list@post.eu',
    'jane@post.eu, eve@post.eu',
    `a@${'x'.repeat(64)}.eu`,
  ];
  for (const address of malformed) {
    test(`${JSON.stringify(address)} is not an address (invalid_email)`, () => {
      assert.throws(() => checkAddressSyntax(address), { name: 'DomainError', code: 'invalid_email' });
    });
  }
});

describe('throwaway and placeholder domains', () => {
  test('domains on the npm list are throwaway, in any case', () => {
    assert.ok(npmList.length > 1000, 'the npm list is loaded');
    for (const domain of ['mailinator.com', npmList[0]!, npmList[npmList.length - 1]!, 'MAILINATOR.COM']) {
      assert.equal(isDisposable(domain), true, domain);
    }
  });

  test('throwaway domains that appeared after 2022 are refused (the list is a maintained one)', () => {
    for (const domain of ['10minemail.com', '1secmail.space']) assert.equal(isDisposable(domain), true, domain);
  });

  test('a subdomain of a listed domain is throwaway too', () => {
    assert.equal(isDisposable('inbox.mailinator.com'), true);
    assert.equal(isDisposable(`deep.sub.${npmList[npmList.length - 1]}`), true);
  });

  test('the reserved placeholder names are refused', () => {
    for (const domain of [
      'example.com',
      'example.net',
      'example.org',
      'example.de',
      'mail.example.com',
      'example.co.uk',
      'example.com.au',
      'EXAMPLE.CO.UK',
      'foo.test',
      'x.invalid',
      'localhost',
      'app.localhost',
      'shop.example',
    ]) {
      assert.equal(isDisposable(domain), true, domain);
    }
  });

  test('ordinary domains, even ones that contain a listed name, are not', () => {
    for (const domain of [
      'gmail.com',
      'example-bank.eu',
      'myexample.com',
      'examples.org',
      'mailinator.com.evil-twin.eu',
      'testing.eu',
      MAIL_DOMAINS.deliverable,
    ]) {
      assert.equal(isDisposable(domain), false, domain);
    }
  });
});

describe('all address checks, in order', () => {
  let dns: TestDns;
  let mx: MxChecker;
  before(async () => {
    dns = await startDns();
    mx = createMxChecker({ servers: [dns.server], enabled: true, timeoutMs: 300 }, captureLog().logger);
  });
  after(() => dns.stop());

  test('a good address on claim comes back normalised', async () => {
    assert.equal(
      await checkAddress(` Jane@${MAIL_DOMAINS.deliverable.toUpperCase()} `, { mx }),
      `Jane@${MAIL_DOMAINS.deliverable}`,
    );
  });

  test('syntax is judged first, then the domain list, and DNS is not asked for either', async () => {
    const asked = dns.queries.length;
    await assert.rejects(checkAddress('jane at mailinator.com', { mx }), { code: 'invalid_email' });
    await assert.rejects(checkAddress('jane@mailinator.com', { mx }), { code: 'disposable_email' });
    await assert.rejects(checkAddress('jane@example.com', { mx }), { code: 'disposable_email' });
    assert.equal(dns.queries.length, asked);
  });

  test('on claim, a domain without a mail server is undeliverable_email', async () => {
    for (const domain of [MAIL_DOMAINS.nullMx, MAIL_DOMAINS.noMx, MAIL_DOMAINS.nxdomain]) {
      await assert.rejects(checkAddress(`jane@${domain}`, { mx }), { code: 'undeliverable_email' }, domain);
    }
  });

  test('on claim, a DNS time-out does not refuse the address', async () => {
    assert.equal(await checkAddress(`jane@${MAIL_DOMAINS.silent}`, { mx }), `jane@${MAIL_DOMAINS.silent}`);
  });

  test('without an MX checker (generate) the domain is not looked up', async () => {
    const asked = dns.queries.length;
    assert.equal(await checkAddress(`jane@${MAIL_DOMAINS.nullMx}`), `jane@${MAIL_DOMAINS.nullMx}`);
    assert.equal(dns.queries.length, asked);
  });
});
