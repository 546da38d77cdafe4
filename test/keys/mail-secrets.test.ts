import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startService } from '../support/app.ts';
import { MAIL_DOMAINS } from '../support/mail/dns.ts';

const codeIn = (eml: string) => /^(\d{6})\r?$/m.exec(eml)![1]!;
/** The code as a token of its own, not as a piece of a longer number such as a timestamp. */
const holds = (text: string, code: string) => new RegExp(`(?<!\\d)${code}(?!\\d)`).test(text);

test('with the outbox, codes reach the .eml files only: not the log, not the database; addresses are stored only hashed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mod97-mail-secrets-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const dbPath = join(dir, 'mod97.db');
  const outbox = join(dir, 'outbox');
  const svc = await startService({
    databaseUrl: `sqlite:${dbPath}`,
    env: { MOD97_OUTBOX_DIR: outbox, MOD97_LOG_LEVEL: 'debug', MOD97_MX_CHECK: 'off' },
  });
  const from = '127.0.4.1';
  const newestCode = () => codeIn(readFileSync(join(outbox, readdirSync(outbox).sort().at(-1)!), 'utf8'));

  const anonymous = await svc.newKey(from);
  const generateEmail = `Secret.Person@${MAIL_DOMAINS.deliverable}`;
  assert.equal((await svc.call('/v1/keys/generate', { json: { email: generateEmail }, from })).status, 403);
  const generateCode = newestCode();
  const emailKey = await svc.call('/v1/keys/generate', { json: { email: generateEmail, code: generateCode }, from });
  assert.equal(emailKey.status, 201);

  await svc.call('/v1/iban/validate', { key: anonymous, json: { iban: 'DE89370400440532013000' }, from });
  const claimEmail = `claimer.secret@${MAIL_DOMAINS.deliverable}`;
  assert.equal((await svc.call('/v1/keys/claim', { key: anonymous, json: { email: claimEmail }, from })).status, 202);
  const claimCode = newestCode();
  assert.equal(
    (await svc.call('/v1/keys/claim', { key: anonymous, json: { email: claimEmail, code: claimCode }, from })).status,
    200,
  );

  const log = svc.logs.join('');
  const written = svc.logs.filter((l) => l.includes('verification mail written to the outbox'));
  assert.equal(written.length, 2, 'one outbox line per mail');
  assert.equal(readdirSync(outbox).filter((f) => f.endsWith('.eml')).length, 2);
  await svc.close();
  const db = Buffer.concat([
    readFileSync(dbPath),
    existsSync(`${dbPath}-wal`) ? readFileSync(`${dbPath}-wal`) : Buffer.alloc(0),
  ]).toString('latin1');

  for (const code of [generateCode, claimCode]) {
    assert.equal(holds(log, code), false, 'the log holds a code');
    assert.equal(holds(db, code), false, 'the database holds a code');
  }
  for (const secret of [anonymous, emailKey.body.api_key as string]) {
    assert.equal(log.includes(secret.slice(4)), false, 'the log holds a key');
    assert.equal(db.includes(secret.slice(4)), false, 'the database holds a key');
  }
  for (const address of [generateEmail, claimEmail]) {
    assert.equal(
      db.toLowerCase().includes(address.toLowerCase().split('@')[0]!),
      false,
      'the database holds an address',
    );
  }
  assert.ok(db.includes(anonymous.slice(0, 8)), 'the test reads the right database file');
});
