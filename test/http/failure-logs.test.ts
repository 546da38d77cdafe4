import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startService } from '../support/app.ts';
import { MAIL_DOMAINS } from '../support/mail/dns.ts';

const entries = (logs: string[]) => logs.map((line) => JSON.parse(line) as Record<string, any>);

describe('what is logged', () => {
  test('an expected 503 (a rail that is off) is one warn line with its code and no stack', async () => {
    const svc = await startService();
    for (let i = 0; i < 3; i++) {
      const r = await svc.call('/v1/card/checkout', { json: { product: 'pack_1k' } });
      assert.equal(r.status, 503);
      assert.equal(r.body.error, 'card_payments_unavailable');
    }
    const html = await svc.call('/v1/card/success?session_id=cs_x', { headers: { accept: 'text/html' } });
    assert.equal(html.status, 503);
    const lines = entries(svc.logs);
    assert.deepEqual(
      lines.filter((l) => l.level >= 50),
      [],
      'nothing at error level',
    );
    const warned = lines.filter((l) => l.level === 40 && l.error === 'card_payments_unavailable');
    assert.equal(warned.length, 4);
    for (const l of warned) {
      assert.equal(l.status, 503);
      assert.equal(JSON.stringify(l).includes('stack'), false);
    }
  });

  test('recipient addresses never reach the log in plain text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mod97-log-address-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    const svc = await startService({ env: { MOD97_OUTBOX_DIR: dir, MOD97_MX_CHECK: 'off', MOD97_LOG_LEVEL: 'debug' } });
    const key = await svc.newKey('127.0.6.1');
    await svc.call('/v1/iban/validate', { key, json: { iban: 'DE89370400440532013000' }, from: '127.0.6.1' });
    const email = `Private.Person+invoices@${MAIL_DOMAINS.deliverable}`;
    const r = await svc.call('/v1/keys/claim', { key, json: { email }, from: '127.0.6.1' });
    assert.equal(r.status, 202, r.text);
    const mailLines = entries(svc.logs).filter((l) => /verification mail/.test(l.msg));
    assert.equal(mailLines.length, 1, 'the mail was logged');
    const all = svc.logs.join('').toLowerCase();
    for (const part of ['private.person', email.toLowerCase()]) {
      assert.equal(all.includes(part), false, `"${part}" is in the log`);
    }
    assert.equal(mailLines[0].to, '[address]');
  });
});
