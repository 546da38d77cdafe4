/** `mod97 batch` as a child process against the real service on 127.0.0.1. */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { startService } from '../support/app.ts';
import { loopbackServer, UNREACHABLE_URL } from '../support/loopback.ts';
import { austrianIban, creditsKey, finish, mod97, start } from './run.ts';

const dir = mkdtempSync(join(tmpdir(), 'mod97-batch-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const svc = await startService();
const env = (key: string) => ({ MOD97_URL: svc.url, MOD97_API_KEY: key });
const file = (name: string, text: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const ADDED = ['iban_valid', 'iban_formatted', 'iban_errors', 'bank_bic', 'bank_name'];

test('a ;-separated file with BOM, quoted fields, lower-case and spaced IBANs and empty cells', async () => {
  const input = file(
    'suppliers.csv',
    Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(
        `${[
          'Supplier;IBAN;Note',
          '"Müller; Söhne GmbH";de89 3704 0044 0532 0130 00;"says ""hi"""',
          'Nobody;;no account yet',
          '"Two\r\nlines";DE89370400440532013001;x',
          'Blank;   ;spaces only',
          'Short row;GB82 WEST 1234 5698 7654 32',
        ].join('\r\n')}\r\n`,
      ),
    ]),
  );
  const key = await svc.newKey('127.0.9.1');
  const r = await mod97(['batch', input, '--column', 'iban'], env(key));
  assert.equal(r.code, 0, r.stderr);
  const outPath = join(dir, 'suppliers.mod97.csv');
  assert.match(r.stdout, /5 rows written to .*suppliers\.mod97\.csv \(2 valid, 1 invalid, 2 without an IBAN\)/);
  assert.match(r.stderr, /^batch 1: 3 IBANs sent, 5 rows written/m, 'a plain progress line on a non-terminal stderr');
  const bytes = readFileSync(outPath);
  assert.notDeepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'no BOM');
  const text = bytes.toString('utf8');
  assert.ok(text.startsWith('Supplier;IBAN;Note;iban_valid;iban_formatted;iban_errors;bank_bic;bank_name\r\n'));
  const rows = parse(text, { delimiter: ';', relax_column_count: true }) as string[][];
  assert.deepEqual(rows.slice(1), [
    [
      'Müller; Söhne GmbH',
      'de89 3704 0044 0532 0130 00',
      'says "hi"',
      'true',
      'DE89 3704 0044 0532 0130 00',
      '',
      'COBADEFFXXX',
      'Commerzbank',
    ],
    ['Nobody', '', 'no account yet', '', '', '', '', ''],
    ['Two\r\nlines', 'DE89370400440532013001', 'x', 'false', 'DE89 3704 0044 0532 0130 01', 'checksum_failed', '', ''],
    ['Blank', '   ', 'spaces only', '', '', '', '', ''],
    [
      'Short row',
      'GB82 WEST 1234 5698 7654 32',
      '',
      'true',
      'GB82 WEST 1234 5698 7654 32',
      '',
      rows[5]![6]!,
      rows[5]![7]!,
    ],
  ]);
  assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 3, 'empty cells cost nothing');

  const again = await mod97(['batch', input], env(key));
  assert.equal(again.code, 2, 'an existing output is not overwritten without --force or --resume');
  assert.match(again.stderr, /exists: add --resume .* or --force/);
});

test("--bic-column checks each row's BIC against its IBAN's bank in an added bic_matches column", async () => {
  const input = file(
    'invoices.csv',
    [
      'invoice,iban,bic',
      '1,DE89 3704 0044 0532 0130 00,cobadeff xxx',
      '2,DE89 3704 0044 0532 0130 00,DEUTDEFF',
      '3,DE89 3704 0044 0532 0130 00,',
      '4,DE89 3704 0044 0532 0130 00,not-a-bic',
      '5,,COBADEFF',
    ].join('\n'),
  );
  const r = await mod97(['batch', input, '--bic-column', 'BIC'], env(await svc.newKey('127.0.9.7')));
  assert.equal(r.code, 0, r.stderr);
  const rows = parse(readFileSync(join(dir, 'invoices.mod97.csv'), 'utf8')) as string[][];
  assert.deepEqual(rows[0], ['invoice', 'iban', 'bic', ...ADDED, 'bic_matches']);
  assert.deepEqual(
    rows.slice(1).map((row) => [row[0], row[3], row.at(-1)]),
    [
      ['1', 'true', 'true'],
      ['2', 'true', 'false'],
      ['3', 'true', ''],
      ['4', 'true', 'invalid_bic'],
      ['5', '', ''],
    ],
  );
});

test('a key that runs out mid-file stops after its last whole batch (exit 3); --resume finishes with a new key', async () => {
  const lines = ['id,iban'];
  for (let i = 1; i <= 40; i++) lines.push(`${i},${i % 10 === 0 ? '' : austrianIban(i)}`);
  const input = file('payroll.csv', `${lines.join('\n')}\n`);
  const out = join(dir, 'payroll-clean.csv');
  const first = await svc.newKey('127.0.9.2');
  const stopped = await mod97(['batch', input, '--out', out], env(first));
  assert.equal(stopped.code, 3, stopped.stderr);
  assert.match(stopped.stderr, /payroll\.csv: 40 rows, 36 distinct IBANs: 36 requests\n/, 'the cost, before sending');
  assert.match(stopped.stderr, /the key has 25 of 25 requests left \(month 2026-11\)/);
  assert.match(stopped.stderr, /warning: the file needs 11 more requests than the key has left/);
  assert.match(stopped.stderr, /stopped: the key's quota is used up/);
  assert.match(stopped.stderr, /mod97 keys claim --email/);
  assert.match(stopped.stderr, /mod97 batch \S+payroll\.csv --out \S+payroll-clean\.csv --resume/);
  const partial = parse(readFileSync(out, 'utf8')) as string[][];
  assert.deepEqual(partial[0], ['id', 'iban', ...ADDED]);
  // the key had 25: the rows up to the 25th IBAN (row 27, with rows 10 and 20 empty)
  assert.deepEqual(
    partial.slice(1).map((r) => r[0]),
    Array.from({ length: 27 }, (_, i) => String(i + 1)),
  );
  assert.equal((await svc.call('/v1/keys/usage', { key: first })).body.used, 25);

  const second = await svc.newKey('127.0.9.3');
  const resumed = await mod97(['batch', input, '--out', out, '--resume'], env(second));
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /resuming after row 27/);
  assert.match(resumed.stderr, /13 rows after the 27 already in \S+payroll-clean\.csv, 11 distinct IBANs: 11 requests/);
  assert.match(
    resumed.stdout,
    /^40 rows written to \S+payroll-clean\.csv \(36 valid, 0 invalid, 4 without an IBAN\), 13 of them in this run; 11 IBANs sent$/m,
    'the summary counts the whole file',
  );
  const whole = parse(readFileSync(out, 'utf8')) as string[][];
  assert.deepEqual(
    whole.slice(1).map((r) => r[0]),
    Array.from({ length: 40 }, (_, i) => String(i + 1)),
  );
  for (const row of whole.slice(1)) assert.equal(row[2], Number(row[0]) % 10 === 0 ? '' : 'true');
  assert.equal((await svc.call('/v1/keys/usage', { key: second })).body.used, 11, 'no row sent twice');
});

test('--resume with no output yet starts from the first row; batches are at most 50 IBANs', async () => {
  const lines = ['iban'];
  for (let i = 0; i < 125; i++) lines.push(austrianIban(i));
  const input = file('many.csv', `${lines.join('\n')}\n`);
  const out = join(dir, 'many-out.csv');
  assert.equal(existsSync(out), false);
  const r = await mod97(['batch', input, '--out', out, '--resume'], env(await creditsKey(svc, 10_000)));
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    [...r.stderr.matchAll(/^batch \d+: (\d+) IBANs sent/gm)].map((m) => Number(m[1])),
    [50, 50, 25],
  );
  assert.equal((parse(readFileSync(out, 'utf8')) as string[][]).length, 126);
});

test('Ctrl-C leaves a valid output of whole batches, and --resume completes it', async () => {
  const lines = ['n;iban'];
  for (let i = 1; i <= 4_000; i++) lines.push(`${i};${austrianIban(i)}`);
  const input = file('large.csv', `${lines.join('\n')}\n`);
  const out = join(dir, 'large-out.csv');
  const key = await creditsKey(svc, 10_000);
  const child = start(['batch', input, '--out', out], env(key));
  const done = finish(child);
  await new Promise<void>((resolve) =>
    child.stderr!.on('data', (d: Buffer) => {
      if (/^batch 1:/m.test(String(d))) resolve();
    }),
  );
  child.kill('SIGINT');
  const interrupted = await done;
  assert.equal(interrupted.code, 130, interrupted.stderr);
  assert.match(interrupted.stderr, /interrupted: .*--resume/s);
  const partial = parse(readFileSync(out, 'utf8'), { delimiter: ';' }) as string[][];
  const written = partial.length - 1;
  assert.ok(written > 0 && written < 4_000 && written % 50 === 0, `whole batches: ${written}`);
  assert.deepEqual(partial[written]!.slice(0, 3), [String(written), austrianIban(written), 'true']);

  const resumed = await mod97(['batch', input, '--out', out, '--resume'], env(key));
  assert.equal(resumed.code, 0, resumed.stderr);
  const whole = parse(readFileSync(out, 'utf8'), { delimiter: ';' }) as string[][];
  assert.equal(whole.length, 4_001);
  assert.ok(whole.slice(1).every((row, i) => row[0] === String(i + 1) && row[2] === 'true'));
  assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 4_000, 'each row sent once');
});

test('Ctrl-C then --resume never sends an IBAN twice: the answers already written are copied (charged = distinct IBANs)', async () => {
  // 20,000 rows, each of 10,000 IBANs twice (row i and row i + 10,000)
  const lines = ['n;iban'];
  for (let i = 1; i <= 20_000; i++) lines.push(`${i};${austrianIban(((i - 1) % 10_000) + 1)}`);
  const input = file('twice.csv', `${lines.join('\n')}\n`);
  const out = join(dir, 'twice-out.csv');
  const key = await creditsKey(svc, 100_000);
  const child = start(['batch', input, '--out', out], env(key));
  const done = finish(child);
  await new Promise<void>((resolve) =>
    child.stderr!.on('data', (d: Buffer) => {
      if (/^batch 1:/m.test(String(d))) resolve();
    }),
  );
  child.kill('SIGINT');
  const interrupted = await done;
  assert.equal(interrupted.code, 130, interrupted.stderr);
  const written = (parse(readFileSync(out, 'utf8'), { delimiter: ';' }) as string[][]).length - 1;
  assert.ok(written > 0 && written < 10_000, `stopped mid-way: ${written} rows`);

  const resumed = await mod97(['batch', input, '--out', out, '--resume'], env(key));
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, new RegExp(`10000 distinct IBANs: ${10_000 - written} requests`));
  const whole = parse(readFileSync(out, 'utf8'), { delimiter: ';' }) as string[][];
  assert.equal(whole.length, 20_001);
  assert.ok(whole.slice(1).every((row, i) => row[0] === String(i + 1) && row[2] === 'true'));
  // the rows copied from the output are the answers a run without Ctrl-C writes
  assert.deepEqual(whole[10_001]!.slice(1), whole[1]!.slice(1));
  assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 10_000, 'charged once per distinct IBAN');
});

test('a Ctrl-C that comes after the last row is written does not stop the run: it is finished (exit 0)', async () => {
  const input = file('short.csv', `iban\n${[1, 2, 3].map((i) => austrianIban(i)).join('\n')}\n`);
  const out = join(dir, 'short-out.csv');
  const key = await creditsKey(svc, 100);
  // A proxy that holds the one batch request until the command has been sent Ctrl-C.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  let asked = () => {};
  const batchAsked = new Promise<void>((r) => (asked = r));
  const url = await loopbackServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    if (req.url === '/v1/iban/batch') {
      asked();
      await held;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([h]) => h !== 'host' && h !== 'connection'));
    const answer = await fetch(svc.url + req.url, {
      method: req.method,
      headers: headers as Record<string, string>,
      body: req.method === 'GET' ? undefined : body,
    });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  const child = start(['batch', input, '--out', out], { MOD97_URL: url, MOD97_API_KEY: key });
  const done = finish(child);
  await batchAsked;
  child.kill('SIGINT');
  await new Promise((r) => setTimeout(r, 200));
  release();
  const r = await done;
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stderr, /interrupted|--resume/);
  assert.match(r.stdout, /^3 rows written to /m);
  assert.equal((parse(readFileSync(out, 'utf8')) as string[][]).length, 4);
});

test("a reader of the progress that goes away (| head) does not stop a paid run: the file is finished, and the exit code is the run's", async () => {
  const input = file(
    'piped.csv',
    `iban\n${Array.from({ length: 2500 }, (_, i) => austrianIban(i + 100)).join('\n')}\n`,
  );
  const out = join(dir, 'piped-out.csv');
  const key = await creditsKey(svc, 3000);
  const child = start(['batch', input, '--out', out], { MOD97_URL: svc.url, MOD97_API_KEY: key });
  // As `| head -1` does: read the first line, then close the pipe.
  await new Promise<void>((read) => child.stderr!.once('data', () => read()));
  child.stdout!.destroy();
  child.stderr!.destroy();
  const code = await new Promise<number | null>((exited) => child.on('close', (c) => exited(c)));
  assert.equal(code, 0);
  assert.equal((parse(readFileSync(out, 'utf8')) as string[][]).length, 2501, 'every row written');
});

test('an output cut in the middle of a row is trimmed to its last whole row before resuming', async () => {
  const input = file('cut.csv', 'iban\nDE89370400440532013000\nGB82WEST12345698765432\nNL91ABNA0417164300\n');
  const out = file(
    'cut-out.csv',
    'iban,iban_valid,iban_formatted,iban_errors,bank_bic,bank_name\nDE89370400440532013000,true,DE89 3704 0044 0532 0130 00,,COBADEFFXXX,Commerzbank\nGB82WEST1234',
  );
  const r = await mod97(['batch', input, '--out', out, '--resume'], env(await creditsKey(svc, 100)));
  assert.equal(r.code, 0, r.stderr);
  const rows = parse(readFileSync(out, 'utf8')) as string[][];
  assert.deepEqual(
    rows.map((row) => [row[0], row[1]]),
    [
      ['iban', 'iban_valid'],
      ['DE89370400440532013000', 'true'],
      ['GB82WEST12345698765432', 'true'],
      ['NL91ABNA0417164300', 'true'],
    ],
  );
});

test('a file without the IBAN column, or no key, is a usage error (exit 2) and sends nothing', async () => {
  const input = file('nocol.csv', 'name,account\nA,DE89370400440532013000\n');
  const key = await svc.newKey('127.0.9.4');
  const out = join(dir, 'nocol-out.csv');
  const r = await mod97(['batch', input, '--out', out], env(key));
  assert.equal(r.code, 2);
  assert.match(r.stderr, /no column "iban" in the header .*\(name, account\); name it with --column/);
  assert.equal(existsSync(out), false, 'a wrong --column leaves no output behind');
  const corrected = await mod97(['batch', input, '--out', out, '--column', 'account'], env(key));
  assert.equal(corrected.code, 0, 'the corrected run needs no --force');
  const noKey = await mod97(['batch', input, '--column', 'account'], { MOD97_URL: svc.url });
  assert.equal(noKey.code, 2);
  assert.match(noKey.stderr, /needs a key in MOD97_API_KEY/);
  const down = await mod97(['batch', input, '--column', 'account', '--out', join(dir, 'down-out.csv')], {
    MOD97_URL: UNREACHABLE_URL,
    MOD97_API_KEY: key,
  });
  assert.equal(down.code, 2, 'a service that cannot be reached is a service error');
  assert.match(down.stderr, /^error: cannot reach http:\/\/127\.0\.0\.1:\d+ \(MOD97_URL\): connection refused/m);
  assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 1, 'only the corrected run sent');
  // An output folder that does not exist is said before anything is sent, not after it is paid for.
  const nowhere = await mod97(
    ['batch', input, '--column', 'account', '--out', join(dir, 'no-such', 'x.csv')],
    env(key),
  );
  assert.deepEqual(
    [nowhere.code, nowhere.stderr],
    [2, `error: cannot write ${join(dir, 'no-such', 'x.csv')}: the folder ${join(dir, 'no-such')} does not exist\n`],
  );
  assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 1, 'nothing sent');
});

test('an earlier output given as the input is refused before anything is sent, not given the columns twice', async () => {
  const input = file('once.csv', 'iban\nDE89370400440532013000\n');
  const key = await svc.newKey('127.0.9.6');
  assert.equal((await mod97(['batch', input], env(key))).code, 0);
  const again = await mod97(['batch', join(dir, 'once.mod97.csv'), '--out', join(dir, 'again.csv')], env(key));
  assert.equal(again.code, 2);
  assert.match(
    again.stderr,
    /once\.mod97\.csv already has the columns mod97 batch adds \(iban_valid, .*\): it is an earlier output/,
  );
  assert.equal(existsSync(join(dir, 'again.csv')), false);
  assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 1, 'only the first run sent');
});

test('a file that is not valid CSV stops with exit 2 before anything is written', async () => {
  const input = file('broken.csv', 'iban\nDE89370400440532013000\n"DE89 3704\n');
  const out = join(dir, 'broken-out.csv');
  const r = await mod97(['batch', input, '--out', out], env(await creditsKey(svc, 100)));
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /broken\.csv is not valid CSV: Quote Not Closed/);
  assert.equal(existsSync(out), false);
});
