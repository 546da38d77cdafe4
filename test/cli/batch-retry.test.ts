/** `mod97 batch` sends each batch with an Idempotency-Key: a batch whose answer was lost is charged once. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startService } from '../support/app.ts';
import { loopbackServer } from '../support/loopback.ts';
import { austrianIban, creditsKey, mod97 } from './run.ts';

/**
 * In front of the service: the first batch reaches it and is answered, but the connection is cut
 * before the answer reaches mod97; everything else is forwarded both ways. `batchKeys` holds the
 * Idempotency-Key of each batch sent.
 */
async function losingFirstBatchAnswer(service: string): Promise<{ url: string; batchKeys: string[] }> {
  const batchKeys: string[] = [];
  const url = await loopbackServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const answer = await fetch(service + req.url, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const body = Buffer.from(await answer.arrayBuffer());
    if (req.url === '/v1/iban/batch') {
      batchKeys.push(String(req.headers['idempotency-key']));
      if (batchKeys.length === 1) return req.socket.destroy();
    }
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(body);
  });
  return { url, batchKeys };
}

test('a batch whose answer was cut off on the way back is sent again with the same key and charged once', async () => {
  const svc = await startService();
  const key = await svc.newKey('127.0.9.41');
  const dir = mkdtempSync(join(tmpdir(), 'mod97-batch-retry-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'in.csv');
  writeFileSync(input, 'name,iban\nA,DE89370400440532013000\nB,GB82WEST12345698765432\nC,DE89370400440532013001\n');

  const { url, batchKeys } = await losingFirstBatchAnswer(svc.url);

  const r = await mod97(['batch', input, '--column', 'iban'], { MOD97_URL: url, MOD97_API_KEY: key });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /3 rows written/);
  assert.equal(batchKeys.length, 2);
  assert.equal(batchKeys[1], batchKeys[0], 'the retry carries the same Idempotency-Key');
  assert.match(readFileSync(join(dir, 'in.mod97.csv'), 'utf8'), /GB82 WEST 1234 5698 7654 32/);
  assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 3, 'three IBANs, charged once');
});

test('a file of 120 IBANs whose first batch answer is lost is charged 120, once: each batch answer is small enough to be kept for its retry', async () => {
  const svc = await startService();
  const key = await creditsKey(svc, 1000);
  const dir = mkdtempSync(join(tmpdir(), 'mod97-batch-lost-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const input = join(dir, 'in.csv');
  writeFileSync(input, `iban\n${Array.from({ length: 120 }, (_, i) => austrianIban(i + 1)).join('\n')}\n`);
  const { url, batchKeys } = await losingFirstBatchAnswer(svc.url);
  const r = await mod97(['batch', input], { MOD97_URL: url, MOD97_API_KEY: key });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /120 rows written/);
  assert.equal(batchKeys[1], batchKeys[0], 'the lost batch is sent again with its Idempotency-Key');
  assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 120, 'charged once');
});
