/** `mod97 qr … --out FILE` and `mod97 qr read FILE` as child processes against the real service. */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startService } from '../support/app.ts';
import { noZbar, zbar } from '../support/zbar.ts';
import { mod97 } from './run.ts';

const svc = await startService();
const dir = mkdtempSync(join(tmpdir(), 'mod97-qr-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SWISS_ARGS = [
  '--iban',
  'CH44 3199 9123 0008 8901 2',
  '--name',
  'Robert Schneider AG',
  '--street',
  'Rue du Lac',
  '--building-number',
  '1268',
  '--postal-code',
  '2501',
  '--town',
  'Biel',
  '--country',
  'CH',
  '--amount',
  '1949.75',
  '--reference',
  '210000000003139471430009017',
];

test('writes a Swiss QR-bill PNG and an EPC SVG, prints the payload; qr read reads the PNG back', async () => {
  const key = await svc.newKey('127.0.9.40');
  const env = { MOD97_URL: svc.url, MOD97_API_KEY: key };
  const png = join(dir, 'bill.png');
  const made = await mod97(['qr', ...SWISS_ARGS, '--out', png], env);
  assert.equal(made.code, 0, made.stderr);
  assert.match(made.stdout, /^SPC\n0200\n1\nCH4431999123000889012\nS\nRobert Schneider AG\n/);
  assert.match(made.stderr, /wrote .*bill\.png \(Swiss QR-bill code\)/);
  assert.equal(readFileSync(png).subarray(1, 4).toString(), 'PNG');
  // What a banking app would scan: the PNG, Swiss cross and all, read by a decoder of its own.
  if (!noZbar) assert.equal(zbar(png), made.stdout.trimEnd());

  const read = await mod97(['qr', 'read', png], env);
  assert.equal(read.code, 0, read.stderr);
  const lines = read.stdout.trimEnd().split('\n');
  assert.equal(lines[0], 'standard\tswiss_qr_bill');
  assert.ok(lines.includes('creditor.address.town\tBiel'), read.stdout);
  assert.ok(lines.includes('amount\t1949.75'));
  assert.ok(lines.includes('currency\tCHF'), 'CHF by default for a CH IBAN');
  assert.equal(lines.at(-1), 'check\tvalid');

  const svg = join(dir, 'giro.svg');
  const epc = await mod97(['qr', '--iban', 'DE89370400440532013000', '--name', 'ACME', '--out', svg], env);
  assert.equal(epc.code, 0, epc.stderr);
  assert.match(readFileSync(svg, 'utf8'), /^<svg /);
  const payloadFile = join(dir, 'payload.txt');
  writeFileSync(payloadFile, `${epc.stdout}`);
  const readText = await mod97(['qr', 'read', payloadFile], env);
  assert.equal(readText.code, 0, readText.stderr);
  assert.ok(readText.stdout.includes('creditor.iban\tDE89370400440532013000'));

  // a warning is said on stderr, and the code is still made
  const warned = await mod97(
    [
      'qr',
      '--iban',
      'DE89370400440532013000',
      '--name',
      'ACME',
      '--reference',
      'RF18539007547034',
      '--remittance',
      'Invoice 7',
    ],
    env,
  );
  assert.equal(warned.code, 0, warned.stderr);
  assert.match(warned.stderr, /^warning: remittance: .* \(reference_and_remittance\)$/m);
  assert.match(warned.stdout, /\nRF18539007547034\n$/);
  writeFileSync(payloadFile, 'BCD\n002\n1\nSCT\nDEUTDEFFXXX\nACME\nDE89370400440532013000\n');
  const readWarned = await mod97(['qr', 'read', payloadFile], env);
  assert.match(readWarned.stdout, /^warning\tcreditor\.bic\tbic_mismatch\t/m);
});

test('a payment that cannot be coded lists each field at fault, exit 1; a wrong --out is usage, exit 2', async () => {
  const key = await svc.newKey('127.0.9.41');
  const env = { MOD97_URL: svc.url, MOD97_API_KEY: key };
  const r = await mod97(['qr', '--iban', 'CH4431999123000889012', '--name', 'X'], env);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /creditor\.address: .*\(address_missing\)/);
  const gif = join(dir, 'x.gif');
  const usage = await mod97(['qr', '--iban', 'DE89370400440532013000', '--name', 'ACME', '--out', gif], env);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /--out names a \.svg or \.png file \(see mod97 qr --help\)/);
  assert.equal(existsSync(gif), false);
});
