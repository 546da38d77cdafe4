/** `mod97 batch`'s record of the last row of each IBAN (src/cli/last-rows.ts). */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { LastRows } from '../../src/cli/last-rows.ts';
import { austrianIban } from './run.ts';

test('each IBAN names its last row; distinct IBANs are counted; an IBAN of no row has none', () => {
  const rows = new LastRows();
  rows.set('DE89370400440532013000', 1);
  rows.set('GB82WEST12345698765432', 2);
  rows.set('DE89370400440532013000', 3);
  assert.equal(rows.get('DE89370400440532013000'), 3);
  assert.equal(rows.get('GB82WEST12345698765432'), 2);
  assert.equal(rows.get('FR1420041010050500013M02606'), undefined);
  assert.equal(rows.has('FR1420041010050500013M02606'), false);
  assert.equal(rows.size, 2);
});

test('past its first few thousand IBANs it grows and keeps every one', () => {
  const rows = new LastRows();
  for (let n = 1; n <= 50_000; n++) rows.set(austrianIban(n), n);
  for (let n = 1; n <= 50_000; n += 7) rows.set(austrianIban(n), 50_000 + n);
  assert.equal(rows.size, 50_000);
  for (let n = 1; n <= 50_000; n++) assert.equal(rows.get(austrianIban(n)), n % 7 === 1 ? 50_000 + n : n, `IBAN ${n}`);
});

test('a million distinct IBANs fit in a process whose heap is capped at 16 MB (a Map of them took about 100 MB)', async () => {
  const module = fileURLToPath(new URL('../../src/cli/last-rows.ts', import.meta.url));
  const script = `
    const { LastRows } = await import(${JSON.stringify(module)});
    const rows = new LastRows();
    for (let n = 1; n <= 1_000_000; n++) rows.set('AT' + String(n).padStart(18, '0'), n);
    if (rows.size !== 1_000_000 || rows.get('AT' + String(777).padStart(18, '0')) !== 777) process.exit(3);
  `;
  const run = promisify(execFile);
  const args = ['--max-old-space-size=16', '--import', 'tsx', '--input-type=module', '-e', script];
  // A heap that outgrows the cap ends the process (exit 134): execFile rejects, and so does the test.
  await run(process.execPath, args, { timeout: 60_000 });
});
