/**
 * The domain without HTTP: keys, quota and the address rules over a real in-memory SQLite
 * store, a movable clock and, for the mailed codes, a real SMTP server on 127.0.0.1.
 */
import { after } from 'node:test';
import { CreationAlert } from '../../src/keys/alert.ts';
import { EmailKeys } from '../../src/keys/email.ts';
import { KeyService } from '../../src/keys/service.ts';
import { MailboxVerification } from '../../src/keys/verification.ts';
import { relayLog } from '../../src/mail/log.ts';
import { createMxChecker } from '../../src/mail/mx.ts';
import { createMailer } from '../../src/mail/sender.ts';
import { Meter } from '../../src/quota/meter.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { testClock } from './app.ts';
import { startSmtp, type TestSmtp } from './mail/smtp.ts';

export function domain() {
  const clock = testClock();
  const store = openSqliteStore('sqlite::memory:');
  after(() => store.close());
  const alert = new CreationAlert(store, clock);
  const keys = new KeyService(store, clock, 'a-test-pepper', alert);
  const meter = new Meter(store, clock, alert);
  return { clock, store, alert, keys, meter };
}

/** The domain with the address rules, mailing its codes to a real SMTP server. */
export async function domainWithMail(): Promise<ReturnType<typeof domain> & { emailKeys: EmailKeys; smtp: TestSmtp }> {
  const d = domain();
  const smtp = await startSmtp();
  const log = relayLog();
  const mailer = createMailer({ smtpUrl: smtp.url, from: 'mod97 <no-reply@localhost>', outboxDir: '' }, log);
  after(async () => {
    await mailer.close();
    await smtp.stop();
  });
  const verification = new MailboxVerification(d.store, d.clock, (value) => d.keys.hash(value), mailer);
  const mx = createMxChecker({ enabled: false }, log);
  const emailKeys = new EmailKeys({ ...d, verification, mx });
  return { ...d, emailKeys, smtp };
}

/** 51 anonymous keys from 17 networks (3 each): the 51st starts a creation alert. */
export async function startAlert(keys: KeyService): Promise<void> {
  for (let n = 1; n <= 17; n++) {
    for (let i = 0; i < 3; i++) await keys.generateAnonymous(`10.99.0.${n}`);
  }
}
