import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { simpleParser } from 'mailparser';
import { DomainError } from '../../src/errors.ts';
import { createMailer } from '../../src/mail/sender.ts';
import { captureLog } from '../support/mail/log.ts';
import { startSmtp, type TestSmtp } from '../support/mail/smtp.ts';

const FROM = 'mod97 <no-reply@mod97-fixture.eu>';
const freshCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
const codeLines = (text: string) => text.split(/\r?\n/).filter((line) => /^\d{6}$/.test(line));

describe('verification mail over SMTP', () => {
  let smtp: TestSmtp;
  before(async () => {
    smtp = await startSmtp();
  });
  after(() => smtp.stop());

  test('the code arrives on a line of its own, and the subject does not carry it', async () => {
    const log = captureLog();
    const mailer = createMailer({ smtpUrl: smtp.url, from: FROM, outboxDir: '/nonexistent' }, log.logger);
    const code = '042917'; // a leading zero must survive
    await mailer.sendCode('Jane.Doe@post.mod97-fixture.eu', code, 'generate', { expiresInMinutes: 15 });
    mailer.close();

    const mail = await smtp.nextMail('jane.doe@post.mod97-fixture.eu');
    assert.deepEqual(codeLines(mail.text), [code]);
    assert.ok(!mail.subject.includes(code), `subject "${mail.subject}" holds the code`);
    assert.match(mail.subject, /verification code/i);
    assert.equal(mail.from, 'no-reply@mod97-fixture.eu');
    assert.match(mail.text, /email tier/);
    assert.match(mail.text, /valid for 15 minutes/);
    assert.match(
      mail.text,
      /On the mod97 web pages: type it in the "Code" field/,
      'a person on the pages is told where to type it',
    );
    assert.match(
      mail.text,
      /mod97 keys generate --email ADDRESS --code CODE/,
      'an API or CLI caller is told where to send it',
    );
    assert.ok(!log.lines.some((l) => l.includes(code)), 'a log line holds the code');
  });

  test('a claim code names the key it unlocks, and nextCode reads it back', async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, from: FROM, outboxDir: '/nonexistent' }, captureLog().logger);
    const code = freshCode();
    await mailer.sendCode('owner@post.mod97-fixture.eu', code, 'claim', {
      keyPrefix: 'ifk_1a2b',
      expiresInMinutes: 15,
    });
    mailer.close();
    const mail = smtp.messages.at(-1)!;
    assert.match(mail.text, /claim the mod97 API key with prefix ifk_1a2b/);
    assert.equal(await smtp.nextCode('owner@post.mod97-fixture.eu'), code);
  });

  test('a recipient refused by the server gives verification_unavailable, without the code or the server reply', async () => {
    const log = captureLog();
    const mailer = createMailer({ smtpUrl: smtp.url, from: FROM, outboxDir: '/nonexistent' }, log.logger);
    const code = freshCode();
    smtp.failNext(1, { stage: 'rcpt', code: 451 });
    const before = smtp.messages.length;
    await assert.rejects(
      mailer.sendCode('later@post.mod97-fixture.eu', code, 'generate', { expiresInMinutes: 15 }),
      (err) => {
        assert.ok(err instanceof DomainError);
        assert.equal(err.code, 'verification_unavailable');
        assert.ok(!err.message.includes(code));
        assert.ok(!/451|greylist/i.test(err.message), `server reply leaked: ${err.message}`);
        return true;
      },
    );
    assert.equal(smtp.messages.length, before);
    assert.ok(log.entries().some((e) => e.level === 40 && e.responseCode === 451));
    assert.ok(!log.lines.some((l) => l.includes(code)));

    // The failure was the server's answer to one message; the next one goes through.
    await mailer.sendCode('later@post.mod97-fixture.eu', code, 'generate', { expiresInMinutes: 15 });
    assert.equal(await smtp.nextCode('later@post.mod97-fixture.eu'), code);
    mailer.close();
  });

  test('a message refused after DATA gives verification_unavailable', async () => {
    const mailer = createMailer({ smtpUrl: smtp.url, from: FROM, outboxDir: '/nonexistent' }, captureLog().logger);
    smtp.failNext(1, { stage: 'data', code: 554 });
    await assert.rejects(
      mailer.sendCode('refused@post.mod97-fixture.eu', freshCode(), 'claim', {
        keyPrefix: 'ifk_0000',
        expiresInMinutes: 15,
      }),
      { code: 'verification_unavailable' },
    );
    mailer.close();
  });
});

describe('verification mail when the SMTP server is unreachable', () => {
  let silent: Server;
  let silentPort = 0;
  before(async () => {
    // Accepts connections and never says hello: a hung mail server.
    silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentPort = (silent.address() as { port: number }).port;
  });
  after(() => new Promise<void>((resolve) => silent.close(() => resolve())));

  test('a closed port gives verification_unavailable at once', async () => {
    const closed = await startSmtp();
    const url = closed.url;
    await closed.stop();
    const mailer = createMailer({ smtpUrl: url, from: FROM, outboxDir: '/nonexistent' }, captureLog().logger);
    await assert.rejects(
      mailer.sendCode('a@post.mod97-fixture.eu', freshCode(), 'generate', { expiresInMinutes: 15 }),
      {
        code: 'verification_unavailable',
      },
    );
    mailer.close();
  });

  test('a server that never greets gives verification_unavailable within the time limit', async () => {
    const mailer = createMailer(
      { smtpUrl: `smtp://127.0.0.1:${silentPort}`, from: FROM, outboxDir: '/nonexistent', timeoutMs: 600 },
      captureLog().logger,
    );
    const started = Date.now();
    await assert.rejects(
      mailer.sendCode('a@post.mod97-fixture.eu', freshCode(), 'generate', { expiresInMinutes: 15 }),
      {
        code: 'verification_unavailable',
      },
    );
    // Under the default limit's wait for a greeting (5 s): this mailer's 600 ms ended it, with room for a busy machine.
    assert.ok(Date.now() - started < 4000, `took ${Date.now() - started} ms`);
    mailer.close();
  });

  test('an SMTP URL of another scheme is refused at start-up', () => {
    assert.throws(
      () => createMailer({ smtpUrl: 'http://127.0.0.1:25', from: FROM, outboxDir: '/x' }, captureLog().logger),
      {
        code: 'invalid_config',
      },
    );
  });
});

describe('verification mail without SMTP (outbox folder)', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'mod97-outbox-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  test('each message becomes one .eml file, and the log line names the file but not the code', async () => {
    const outboxDir = join(root, 'data', 'outbox'); // does not exist yet
    const log = captureLog();
    const mailer = createMailer({ from: FROM, outboxDir }, log.logger);
    const first = freshCode();
    const second = freshCode();
    await mailer.sendCode('first@post.mod97-fixture.eu', first, 'generate', { expiresInMinutes: 15 });
    await mailer.sendCode('second@post.mod97-fixture.eu', second, 'claim', {
      keyPrefix: 'ifk_9f8e',
      expiresInMinutes: 15,
    });
    mailer.close();

    const files = (await readdir(outboxDir)).sort();
    assert.equal(files.length, 2);
    assert.ok(files.every((f) => f.endsWith('.eml')));

    const parsed = await Promise.all(files.map(async (f) => simpleParser(await readFile(join(outboxDir, f)))));
    const byRecipient = new Map(parsed.map((p) => [(Array.isArray(p.to) ? p.to[0] : p.to)!.text, p]));
    const firstMail = byRecipient.get('first@post.mod97-fixture.eu')!;
    assert.deepEqual(codeLines(firstMail.text ?? ''), [first]);
    assert.ok(!(firstMail.subject ?? '').includes(first));
    assert.match(byRecipient.get('second@post.mod97-fixture.eu')!.text ?? '', /prefix ifk_9f8e/);

    const written = log.entries().filter((e) => e.msg === 'verification mail written to the outbox');
    assert.equal(written.length, 2);
    assert.deepEqual(
      written.map((e) => e.to),
      ['first@post.mod97-fixture.eu', 'second@post.mod97-fixture.eu'],
    );
    assert.deepEqual(written.map((e) => String(e.file).slice(outboxDir.length + 1)).sort(), files);
    assert.ok(!log.lines.some((l) => l.includes(first) || l.includes(second)), 'a log line holds a code');
  });

  test('an outbox that cannot be written gives verification_unavailable', async () => {
    const blocker = join(root, 'a-file');
    await writeFile(blocker, 'not a folder');
    const mailer = createMailer({ from: FROM, outboxDir: join(blocker, 'outbox') }, captureLog().logger);
    await assert.rejects(
      mailer.sendCode('a@post.mod97-fixture.eu', freshCode(), 'generate', { expiresInMinutes: 15 }),
      {
        code: 'verification_unavailable',
      },
    );
  });
});
