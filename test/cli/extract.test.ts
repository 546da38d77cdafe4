/** `mod97 extract [FILE|-]` as a child process against the real service. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { partsOf } from '../../src/cli/extract.ts';
import { startService } from '../support/app.ts';
import { BIN, finish, mod97 } from './run.ts';

const svc = await startService();
const dir = mkdtempSync(join(tmpdir(), 'mod97-extract-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const INVOICE = `Rechnung RE-2026-00123\nIBAN: DE89 3704 0044 0532 0130 00\nScan: DE89 37O4 0044 0532 0130 00\nTypo: DE89 3704 0044 0532 0130 01\n`;

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

test('prints one line per IBAN (offset, IBAN, verdict, errors); exit 1 when one is not valid', async () => {
  const key = await svc.newKey('127.0.9.2');
  const r = await mod97(['extract', file('invoice.txt', INVOICE)], { MOD97_URL: svc.url, MOD97_API_KEY: key });
  assert.equal(r.code, 1, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 3);
  assert.equal(lines[0], `${INVOICE.indexOf('DE89')}\tDE89 3704 0044 0532 0130 00\tvalid`);
  assert.match(
    lines[1]!,
    new RegExp(
      `^${INVOICE.indexOf('DE89 37O4')}\\tDE89 37O4 0044 0532 0130 00\\tinvalid\\tinvalid_structure, checksum_failed\\tscanned text: read as DE89 3704 0044 0532 0130 00\\?$`,
    ),
  );
  // a typo's suggestions in print form, as the IBAN itself is printed
  assert.match(lines[2]!, /\tinvalid\tchecksum_failed\tdid you mean DE89 3704 0044 0532 0130 00 or /);
});

test('reads standard input with -, exit 0 when every IBAN found is valid', async () => {
  const key = await svc.newKey('127.0.9.3');
  const child = spawn(process.execPath, [BIN, 'extract', '-'], {
    env: { PATH: process.env.PATH ?? '', MOD97_URL: svc.url, MOD97_API_KEY: key },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end('Pay to GB29NWBK60161331926819, thanks.\n');
  const r = await finish(child);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '7\tGB29 NWBK 6016 1331 9268 19\tvalid\n');
});

test('exit 1 when no IBAN is found; exit 2 without a key, for a missing file or a service refusal', async () => {
  const key = await svc.newKey('127.0.9.4');
  const env = { MOD97_URL: svc.url, MOD97_API_KEY: key };
  const none = await mod97(['extract', file('none.txt', 'Order 2026-118, VAT DE123456789.\n')], env);
  assert.deepEqual([none.code, none.stdout, none.stderr], [1, '', 'no IBAN found\n']);
  const noKey = await mod97(['extract', file('k.txt', INVOICE)], { MOD97_URL: svc.url });
  assert.equal(noKey.code, 2);
  assert.match(noKey.stderr, /MOD97_API_KEY/);
  const missing = await mod97(['extract', join(dir, 'absent.txt')], env);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read/);
  const two = await mod97(['extract', 'a.txt', 'b.txt'], env);
  assert.equal(two.code, 2);
  assert.match(two.stderr, /see mod97 extract --help/);
  // One line longer than the service takes: refused by the service, said so, exit 2.
  const long = await mod97(['extract', file('long.txt', 'x'.repeat(20_001))], env);
  assert.equal(long.code, 2);
  assert.match(long.stderr, /\(400 text_too_long\)/);
});

test('a long text is sent in parts cut at line breaks, with offsets into the whole text', async () => {
  const key = await svc.newKey('127.0.9.5');
  const filler = `${'Lorem ipsum dolor sit amet. '.repeat(30)}\n`;
  const text = `${filler.repeat(30)}IBAN DE89370400440532013000\n${filler.repeat(30)}GB29 NWBK 6016 1331 9268 19\n`;
  assert.ok(text.length > 40_000);
  const r = await mod97(['extract', file('long-ok.txt', text)], { MOD97_URL: svc.url, MOD97_API_KEY: key });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => Number(l.split('\t')[0])),
    [text.indexOf('DE89'), text.indexOf('GB29')],
  );
  const usage = await svc.call('/v1/keys/usage', { key });
  assert.equal(usage.body.used, partsOf(text, 20_000).length);
  assert.ok(usage.body.used >= 3);
});

test('partsOf keeps every part within the limit and cuts only after line breaks', () => {
  const text = 'aaaa\nbbbb\ncccc\ndddd';
  assert.deepEqual(partsOf(text, 10), [
    { text: 'aaaa\nbbbb\n', offset: 0 },
    { text: 'cccc\ndddd', offset: 10 },
  ]);
  assert.deepEqual(partsOf('', 10), []);
  assert.deepEqual(partsOf('x'.repeat(12), 10), [{ text: 'x'.repeat(12), offset: 0 }]);
});
