import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startService } from './support/app.ts';

test('after creating, using and rotating keys, no key secret is in the SQLite file, its WAL or the log', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mod97-secrets-'));
  const dbPath = join(dir, 'mod97.db');
  const svc = await startService({ databaseUrl: `sqlite:${dbPath}`, env: { MOD97_LOG_LEVEL: 'debug' } });
  const secrets: string[] = [];
  for (let i = 0; i < 3; i++) {
    const key = await svc.newKey(`127.0.0.${i + 2}`);
    secrets.push(key);
    await svc.call('/v1/iban/validate', { key, json: { iban: 'DE89370400440532013000' } });
    await svc.call(`/v1/keys/usage?key=${key}`);
    await svc.call('/v1/iban/validate', { key, json: { iban: 'DE89370400440532013000', copy: key } });
  }
  const rotated = await svc.call('/v1/keys/rotate', { method: 'POST', key: secrets[0] });
  secrets.push(rotated.body.api_key);
  svc.app.log.info({ headers: { authorization: `Bearer ${secrets[1]}` } }, `a careless line with ${secrets[2]}`);
  const bytes = Buffer.concat([
    readFileSync(dbPath),
    existsSync(`${dbPath}-wal`) ? readFileSync(`${dbPath}-wal`) : Buffer.alloc(0),
  ]);
  const log = svc.logs.join('');
  await svc.close();
  const dbBytes = Buffer.concat([
    readFileSync(dbPath),
    existsSync(`${dbPath}-wal`) ? readFileSync(`${dbPath}-wal`) : Buffer.alloc(0),
  ]);
  assert.ok(log.length > 0, 'the log captured something');
  for (const secret of secrets) {
    const hex = secret.slice(4);
    assert.equal(bytes.includes(hex), false, 'the database (while open) holds no secret');
    assert.equal(dbBytes.includes(hex), false, 'the database (after close) holds no secret');
    assert.equal(log.includes(hex), false, 'the log holds no secret');
  }
  assert.ok(
    bytes.includes(secrets[1].slice(0, 8)),
    'the key prefix is stored, so the test is looking at the right file',
  );
  rmSync(dir, { recursive: true, force: true });
});
