import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMxChecker } from '../../src/mail/mx.ts';
import { startDns, MAIL_DOMAINS, type TestDns } from '../support/mail/dns.ts';
import { captureLog } from '../support/mail/log.ts';

describe('MX look-up of an address domain', () => {
  let dns: TestDns;
  before(async () => {
    dns = await startDns();
  });
  after(() => dns.stop());

  const checker = (timeoutMs = 2000) => {
    const log = captureLog();
    return { log, mx: createMxChecker({ servers: [dns.server], enabled: true, timeoutMs }, log.logger) };
  };

  test('a domain with a mail server is deliverable, asked of the configured ip:port server', async () => {
    const { mx } = checker();
    assert.equal(await mx.check(MAIL_DOMAINS.deliverable), 'ok');
    assert.ok(dns.queries.includes(`${MAIL_DOMAINS.deliverable} MX`));
  });

  test('a null MX ("0 .", RFC 7505) means the domain takes no mail', async () => {
    assert.equal(await checker().mx.check(MAIL_DOMAINS.nullMx), 'undeliverable');
  });

  test('a domain that exists but has no MX record is undeliverable', async () => {
    assert.equal(await checker().mx.check(MAIL_DOMAINS.noMx), 'undeliverable');
  });

  test('a domain that does not exist (NXDOMAIN) is undeliverable', async () => {
    assert.equal(await checker().mx.check(MAIL_DOMAINS.nxdomain), 'undeliverable');
  });

  test('a DNS server that never answers gives unknown within the time limit, and says so in the log', async () => {
    const { mx, log } = checker(300);
    const started = Date.now();
    assert.equal(await mx.check(MAIL_DOMAINS.silent), 'unknown');
    const took = Date.now() - started;
    // Under the default limit (3 s): this call's 300 ms ended it, with room for a busy machine.
    assert.ok(took >= 250 && took < 2500, `took ${took} ms`);
    const warning = log.entries().find((e) => e.domain === MAIL_DOMAINS.silent);
    assert.equal(warning?.level, 40);
    assert.equal(warning?.dnsError, 'ETIMEOUT');
  });

  test('a failing DNS server (SERVFAIL) gives unknown and a log line, not a refusal', async () => {
    const { mx, log } = checker();
    assert.equal(await mx.check(MAIL_DOMAINS.servfail), 'unknown');
    assert.equal(log.entries().find((e) => e.domain === MAIL_DOMAINS.servfail)?.dnsError, 'ESERVFAIL');
  });

  test('look-ups running side by side do not disturb each other', async () => {
    // A roomy budget: on a loaded machine the answering look-ups must not time out.
    const { mx } = checker(2000);
    const verdicts = await Promise.all([
      mx.check(MAIL_DOMAINS.silent),
      mx.check(MAIL_DOMAINS.deliverable),
      mx.check(MAIL_DOMAINS.nullMx),
    ]);
    assert.deepEqual(verdicts, ['unknown', 'ok', 'undeliverable']);
  });

  test('with the check turned off every domain passes and DNS is never asked', async () => {
    const asked = dns.queries.length;
    const mx = createMxChecker({ servers: [dns.server], enabled: false, timeoutMs: 300 }, captureLog().logger);
    assert.equal(await mx.check(MAIL_DOMAINS.nxdomain), 'ok');
    assert.equal(await mx.check(MAIL_DOMAINS.nullMx), 'ok');
    assert.equal(dns.queries.length, asked);
  });

  test('a malformed MOD97_DNS_SERVERS entry is refused at start-up', () => {
    assert.throws(() => createMxChecker({ servers: ['not-an-ip'], enabled: true }, captureLog().logger), {
      code: 'invalid_config',
    });
  });
});
