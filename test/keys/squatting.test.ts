/**
 * Address ownership against a real SMTP server, on SQLite and (when MOD97_TEST_POSTGRES_URL is
 * set) PostgreSQL: an address attached to a key without proof never locks its owner out, and
 * every per-address limit counts the mailbox (`+tag` removed, Gmail's dots removed).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { mailboxOf } from '../../src/mail/address.ts';
import { MAIL_DOMAINS } from '../support/mail/dns.ts';
import { startMailService, usedKey } from '../support/mail/service.ts';

const IBAN = 'DE89 3704 0044 0532 0130 00';
const pgUrl = process.env.MOD97_TEST_POSTGRES_URL;
const unique = (name: string) => `${name}${randomBytes(3).toString('hex')}`;
const address = (local: string) => `${local}@${MAIL_DOMAINS.deliverable}`;

/** A PostgreSQL schema of its own, dropped afterwards. */
function pgDatabase(): string {
  const schema = `mod97_squat_${randomBytes(6).toString('hex')}`;
  after(async () => {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });
  return `${pgUrl}${pgUrl!.includes('?') ? '&' : '?'}schema=${schema}`;
}

test('one mailbox, one definition: +tag removed, and dots removed on gmail.com and googlemail.com', () => {
  assert.equal(mailboxOf('Ann+bank@Example.org'), 'ann@example.org');
  assert.equal(mailboxOf('a.n.n@example.org'), 'a.n.n@example.org', 'dots count elsewhere');
  assert.equal(mailboxOf('J.Doe+x@googlemail.com'), 'jdoe@gmail.com');
  assert.equal(mailboxOf('jdoe@gmail.com'), 'jdoe@gmail.com');
  assert.equal(mailboxOf('+only@example.org'), '+only@example.org', 'a tag with no name before it is the name');
});

for (const engine of ['sqlite', 'postgres'] as const) {
  const skip = engine === 'postgres' && !pgUrl ? 'MOD97_TEST_POSTGRES_URL is not set' : false;
  describe(`address ownership (${engine})`, { skip }, () => {
    const database = () => (engine === 'postgres' ? pgDatabase() : undefined);

    test('an address squatted by generate: its owner gets a code, not 429, and takes it; the squatter keeps an anonymous key', async () => {
      const { svc, smtp } = await startMailService({ databaseUrl: database() });
      const email = address(unique('ann'));
      // From a network with no recent key, no proof is asked: anyone can name any address.
      const squat = await svc.call('/v1/keys/generate', { method: 'POST', json: { email }, from: '127.61.0.1' });
      assert.equal(squat.status, 201, squat.text);
      const squatKey = squat.body.api_key as string;
      for (let i = 0; i < 3; i++) {
        assert.equal((await svc.call('/v1/iban/validate', { key: squatKey, json: { iban: IBAN } })).status, 200);
      }

      const asked = await svc.call('/v1/keys/generate', { method: 'POST', json: { email }, from: '127.61.0.2' });
      assert.equal(asked.status, 403, asked.text);
      assert.equal(asked.body.error, 'verification_required');
      const code = await smtp.nextCode(email);
      const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
      const refused = await svc.call('/v1/keys/generate', {
        method: 'POST',
        json: { email, code: wrong },
        from: '127.61.0.2',
      });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error, 'verification_failed');
      const proved = await svc.call('/v1/keys/generate', { method: 'POST', json: { email, code }, from: '127.61.0.2' });
      assert.equal(proved.status, 201, proved.text);
      assert.equal(proved.body.tier, 'email');
      assert.equal(proved.body.email, email);

      const squatter = await svc.call('/v1/keys/usage', { key: squatKey });
      assert.equal(squatter.status, 200, 'the squatter keeps a working key');
      assert.equal(squatter.body.tier, 'anonymous');
      assert.equal(squatter.body.limit, 25);
      assert.equal(squatter.body.used, 3, 'its counters are kept');

      // Now held with proof: the address's limits apply to everyone again.
      const again = await svc.call('/v1/keys/generate', { method: 'POST', json: { email }, from: '127.61.0.3' });
      assert.equal(again.status, 429, again.text);
      assert.equal(again.body.error, 'rate_limited');
    });

    test('an address squatted by generate: a claim naming it is 403 with a code, and the right code claims it', async () => {
      const { svc, smtp } = await startMailService({ databaseUrl: database() });
      const email = address(unique('bob'));
      const squat = await svc.call('/v1/keys/generate', { method: 'POST', json: { email }, from: '127.62.0.1' });
      assert.equal(squat.status, 201, squat.text);
      const owner = await usedKey(svc, '127.62.0.2');

      const asked = await svc.call('/v1/keys/claim', { key: owner, json: { email }, from: '127.62.0.2' });
      assert.equal(asked.status, 403, asked.text);
      assert.equal(asked.body.error, 'verification_required');
      const code = await smtp.nextCode(email);
      const claimed = await svc.call('/v1/keys/claim', { key: owner, json: { email, code }, from: '127.62.0.2' });
      assert.equal(claimed.status, 200, claimed.text);
      assert.equal(claimed.body.tier, 'claimed');
      const squatter = await svc.call('/v1/keys/usage', { key: squat.body.api_key });
      assert.equal(squatter.body.tier, 'anonymous');
      assert.equal(squatter.body.limit, 25);
    });

    test('plus-addressing gives one mailbox one e-mail key, not five', async () => {
      const { svc, smtp } = await startMailService({ databaseUrl: database() });
      const name = unique('carol');
      const first = await svc.call('/v1/keys/generate', {
        method: 'POST',
        json: { email: address(`${name}+1`) },
        from: '127.63.0.1',
      });
      assert.equal(first.status, 201, first.text);
      const replies = [];
      for (let i = 2; i <= 5; i++) {
        replies.push(
          await svc.call('/v1/keys/generate', {
            method: 'POST',
            json: { email: address(`${name}+${i}`) },
            from: `127.63.0.${i}`,
          }),
        );
      }
      assert.deepEqual(
        replies.map((r) => `${r.status} ${r.body.error}`),
        Array(4).fill('403 verification_required'),
        'the tagged variants are the held address: a code, never a second key without one',
      );
      // Taking it with a code moves the one key: the earlier holder is anonymous again.
      const code = await smtp.nextCode(address(`${name}+5`));
      const taken = await svc.call('/v1/keys/generate', {
        method: 'POST',
        json: { email: address(`${name}+5`), code },
        from: '127.63.0.5',
      });
      assert.equal(taken.status, 201, taken.text);
      assert.equal((await svc.call('/v1/keys/usage', { key: first.body.api_key })).body.tier, 'anonymous');
      const sixth = await svc.call('/v1/keys/generate', {
        method: 'POST',
        json: { email: address(`${name}+6`) },
        from: '127.63.0.6',
      });
      assert.equal(sixth.status, 429, sixth.text);
    });

    test("Gmail's dots and googlemail.com are one mailbox for the limits", async () => {
      const { svc, smtp } = await startMailService({ databaseUrl: database() });
      const name = unique('jdoe');
      // A network that already had a key today: the address is proved with a code.
      await svc.newKey('127.64.0.1');
      const email = `${name}@gmail.com`;
      const asked = await svc.call('/v1/keys/generate', { method: 'POST', json: { email }, from: '127.64.0.1' });
      assert.equal(asked.status, 403, asked.text);
      const code = await smtp.nextCode(email);
      const proved = await svc.call('/v1/keys/generate', { method: 'POST', json: { email, code }, from: '127.64.0.1' });
      assert.equal(proved.status, 201, proved.text);
      const dotted = `${name.slice(0, 1)}.${name.slice(1)}+news@googlemail.com`;
      const other = await svc.call('/v1/keys/generate', {
        method: 'POST',
        json: { email: dotted },
        from: '127.64.0.2',
      });
      assert.equal(other.status, 429, other.text);
      assert.equal(other.body.error, 'rate_limited');
    });
  });
}
