/** `mod97 batch` under hostile or damaged files (docs/api.md, "The `mod97` command"), as a child process against the real service. */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { importFile } from '../../src/data/importers/index.ts';
import { openSqliteStore } from '../../src/store/sqlite/index.ts';
import { startService } from '../support/app.ts';
import { freePort } from '../support/loopback.ts';
import { austrianIban, creditsKey, mod97 } from './run.ts';

const dir = mkdtempSync(join(tmpdir(), 'mod97-batch-trust-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// A bank directory whose names a spreadsheet would run: imported data is not trusted either.
const database = join(dir, 'service.db');
const seed = openSqliteStore(`sqlite:${database}`);
await importFile(
  seed,
  'bundesbank-blz',
  {
    bytes: Buffer.from(
      '"Bankleitzahl";"Merkmal";"Bezeichnung";"PLZ";"Ort";"Kurzbezeichnung";"PAN";"BIC"\n"37040044";"1";"=HYPERLINK(""http://evil.example"",""Commerzbank"")";"50447";"Köln";"x";"";"COBADEFFXXX"\n',
    ),
    name: 'blz.csv',
    asOf: '2026-11-01',
  },
  Date.parse('2026-11-21T12:00:00Z'),
  { force: true }, // one bank where the bundled directory has thousands
);
seed.close?.();
const svc = await startService({ databaseUrl: `sqlite:${database}` });
after(() => svc.close());
const env = (key: string) => ({ MOD97_URL: svc.url, MOD97_API_KEY: key });
const file = (name: string, text: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const used = async (key: string) => (await svc.call('/v1/keys/usage', { key })).body.used as number;
const FORMULA = /^[=+\-@\t\r]/;

test('no added cell starts with = + - @ tab or CR (a leading quote instead); input cells are copied as they are', async () => {
  const input = file(
    'formulas.csv',
    [
      'name,iban',
      '=1+1,=1+1',
      'plus,+DE89370400440532013000',
      'at,@DE89370400440532013000',
      'bank,DE89370400440532013000',
      '-2,-DE89',
    ].join('\n'),
  );
  const key = await creditsKey(svc, 100);
  const r = await mod97(['batch', input], env(key));
  assert.equal(r.code, 0, r.stderr);
  const rows = parse(readFileSync(join(dir, 'formulas.mod97.csv'), 'utf8')) as string[][];
  assert.deepEqual(
    rows.slice(1).map((row) => row.slice(0, 2)),
    [
      ['=1+1', '=1+1'],
      ['plus', '+DE89370400440532013000'],
      ['at', '@DE89370400440532013000'],
      ['bank', 'DE89370400440532013000'],
      ['-2', '-DE89'],
    ],
    'input cells unchanged',
  );
  for (const row of rows.slice(1))
    for (const cell of row.slice(2)) assert.doesNotMatch(cell, FORMULA, `added cell ${JSON.stringify(cell)}`);
  const bank = rows.find((row) => row[0] === 'bank')!;
  assert.deepEqual(bank.slice(2), [
    'true',
    'DE89 3704 0044 0532 0130 00',
    '',
    'COBADEFFXXX',
    `'=HYPERLINK("http://evil.example","Commerzbank")`,
  ]);
  assert.equal(
    rows.find((row) => row[0] === '=1+1')![3],
    "'=1+1",
    'the service echoes the cell; the quote keeps it inert',
  );
});

test('an IBAN cell over 64 characters is answered invalid_request locally and the rest of the file goes on', async () => {
  const long = `DE89 ${'3704 '.repeat(15)}`;
  const input = file(
    'long.csv',
    `id,iban\n1,${austrianIban(1)}\n2,${long}\n3,${austrianIban(2)}\n4,${'X'.repeat(5000)}\n`,
  );
  const key = await creditsKey(svc, 100);
  const r = await mod97(['batch', input], env(key));
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /4 rows, 2 distinct IBANs: 2 requests \(2 cells over 64 characters answered invalid without sending\)/,
  );
  const rows = parse(readFileSync(join(dir, 'long.mod97.csv'), 'utf8')) as string[][];
  assert.deepEqual(
    rows.slice(1).map((row) => [row[0], row[2], row[4]]),
    [
      ['1', 'true', ''],
      ['2', 'false', 'invalid_request'],
      ['3', 'true', ''],
      ['4', 'false', 'invalid_request'],
    ],
  );
  assert.equal(rows[4]![1], 'X'.repeat(5000), 'the cell itself is copied');
  assert.equal(await used(key), 2, 'the long cells were not sent');
});

test("rows ending in CR LF, LF or a lone CR are read alike: no CR is left in a cell, and the header's ending is written", async () => {
  const key = await creditsKey(svc, 100);
  for (const [name, text, eol] of [
    ['lf-then-crlf.csv', `id,iban\n1,${austrianIban(1)}\r\n2,${austrianIban(2)}\r\n`, '\n'],
    ['crlf-then-lf.csv', `id,iban\r\n1,${austrianIban(1)}\n2,${austrianIban(2)}\n`, '\r\n'],
    ['cr.csv', `id,iban\r1,${austrianIban(1)}\r2,${austrianIban(2)}\r`, '\r'],
  ] as const) {
    const r = await mod97(['batch', file(name, text)], env(key));
    assert.equal(r.code, 0, `${name}: ${r.stderr}`);
    const written = readFileSync(join(dir, name.replace('.csv', '.mod97.csv')), 'utf8');
    const rows = written.split(eol).filter(Boolean);
    assert.equal(rows.length, 3, name);
    assert.deepEqual(
      rows.slice(1).map((row) => row.split(',').slice(0, 3)),
      [
        ['1', austrianIban(1), 'true'],
        ['2', austrianIban(2), 'true'],
      ],
      name,
    );
    assert.equal(written.replaceAll(eol, '').includes('\r'), false, `${name}: no stray CR`);
  }
});

test('an input that is not UTF-8 is refused with its line number, and nothing is written or sent', async () => {
  const input = file(
    'latin1.csv',
    Buffer.concat([
      Buffer.from(`name,iban\nA,${austrianIban(1)}\n`),
      Buffer.from(`M\xfcller,${austrianIban(2)}\n`, 'latin1'),
    ]),
  );
  const key = await creditsKey(svc, 100);
  const r = await mod97(['batch', input], env(key));
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^error: \S+latin1\.csv is not UTF-8: line 3 has byte 0xFC .*save the file as UTF-8/m);
  assert.equal(existsSync(join(dir, 'latin1.mod97.csv')), false);
  assert.equal(await used(key), 0);
});

test('a row wider than the header is refused with its line number, and nothing is written', async () => {
  const input = file(
    'wide.csv',
    `name,iban\nA,${austrianIban(1)}\n"B, Ltd",${austrianIban(2)}\nC, Ltd,${austrianIban(3)}\n`,
  );
  const key = await creditsKey(svc, 100);
  const r = await mod97(['batch', input], env(key));
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^error: \S+wide\.csv line 4 has 3 fields, more than the 2 of the header/m);
  assert.equal(existsSync(join(dir, 'wide.mod97.csv')), false);
  assert.equal(await used(key), 0);
});

test('--resume refuses an output with a blank line, a deleted row or extra rows, and leaves it as it was', async () => {
  const input = file('resume.csv', `id,iban\n${[1, 2, 3, 4].map((i) => `${i},${austrianIban(i)}`).join('\n')}\n`);
  const key = await creditsKey(svc, 100);
  const out = join(dir, 'resume-out.csv');
  assert.equal((await mod97(['batch', input, '--out', out], env(key))).code, 0);
  const lines = readFileSync(out, 'utf8').split('\n');
  const cases: [string, string, RegExp][] = [
    ['blank line', [...lines.slice(0, 2), '', ...lines.slice(2, 4), ''].join('\n'), /line 3 is blank/],
    [
      'deleted row',
      [lines[0], lines[1], lines[3], ''].join('\n'),
      /row 2 of \S+ \(its last\) is not row 2 of \S+resume\.csv/,
    ],
    ['extra rows', [...lines.slice(0, 5), lines[4], ''].join('\n'), /holds 5 rows, \S+resume\.csv only 4/],
    // docs/api.md ("The `mod97` command"): every earlier row is checked, not only the last
    [
      'edited middle row',
      [lines[0], lines[1], lines[2].replace(/^2,/, '20,'), lines[3], ''].join('\n'),
      /row 2 of \S+ is not row 2 of \S+resume\.csv/,
    ],
  ];
  const before = await used(key);
  for (const [what, text, message] of cases) {
    writeFileSync(out, text);
    const r = await mod97(['batch', input, '--out', out, '--resume'], env(key));
    assert.equal(r.code, 2, `${what}: ${r.stderr}`);
    assert.match(r.stderr, message, what);
    assert.match(r.stderr, /--force/, what);
    assert.equal(readFileSync(out, 'utf8'), text, `${what}: the output is kept as it was`);
  }
  assert.equal(await used(key), before, 'nothing sent');
  // an output whose last row is the input's row of the same number goes on
  writeFileSync(out, [...lines.slice(0, 3), ''].join('\n'));
  const resumed = await mod97(['batch', input, '--out', out, '--resume'], env(key));
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(
    resumed.stdout,
    /^4 rows written to \S+ \(4 valid, 0 invalid, 0 without an IBAN\), 2 of them in this run/m,
  );
});

test('each distinct IBAN is sent once and its answer copied to every row; the cost is printed before sending', async () => {
  const distinct = Array.from({ length: 17 }, (_, i) => austrianIban(i + 1));
  const spelled = (iban: string, n: number) =>
    n % 3 === 0 ? iban.toLowerCase() : n % 3 === 1 ? iban.replace(/(.{4})/g, '$1 ').trim() : iban;
  const lines = ['n,iban'];
  for (let n = 0; n < 2000; n++) lines.push(`${n},${n % 50 === 49 ? '' : spelled(distinct[n % 17]!, n)}`);
  const input = file('repeated.csv', `${lines.join('\n')}\n`);
  const key = await creditsKey(svc, 1000);
  const r = await mod97(['batch', input], env(key));
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stderr,
    /^\S+repeated\.csv: 2000 rows, 17 distinct IBANs: 17 requests\n.*the key has 1000 of 1000 requests left/m,
  );
  assert.ok(r.stderr.indexOf('17 requests') < r.stderr.indexOf('batch 1:'), 'the cost comes before anything is sent');
  assert.equal(await used(key), 17);
  const rows = parse(readFileSync(join(dir, 'repeated.mod97.csv'), 'utf8')) as string[][];
  assert.equal(rows.length, 2001);
  for (const row of rows.slice(1)) {
    const n = Number(row[0]);
    if (n % 50 === 49) assert.deepEqual(row.slice(2), ['', '', '', '', ''], `row ${n}`);
    else assert.equal(row[3]!.replace(/ /g, ''), distinct[n % 17], `row ${n}`);
  }
  assert.match(r.stdout, /2000 rows written to .* \(1960 valid, 0 invalid, 40 without an IBAN\); 17 IBANs sent/);
});

test('--dry-run prints the cost and what the key has left, and writes and sends nothing', async () => {
  const input = file('plan.csv', `iban\n${austrianIban(1)}\n${austrianIban(1)}\n${austrianIban(2)}\n`);
  const key = await svc.newKey('127.0.9.20');
  const r = await mod97(['batch', input, '--dry-run'], env(key));
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stdout,
    `${input}: 3 rows, 2 distinct IBANs: 2 requests\nthe key has 25 of 25 requests left (month 2026-11)\n`,
  );
  assert.equal(existsSync(join(dir, 'plan.mod97.csv')), false);
  assert.equal(await used(key), 0);
});

test('a file that cannot be read says why; an unreachable service is named with its URL', async () => {
  const key = await creditsKey(svc, 10);
  const missing = await mod97(['batch', join(dir, 'nope.csv')], env(key));
  assert.equal(missing.code, 2);
  assert.equal(missing.stderr, `error: cannot read ${join(dir, 'nope.csv')}: no such file\n`);
  mkdirSync(join(dir, 'folder.csv'));
  const folder = await mod97(['batch', join(dir, 'folder.csv')], env(key));
  assert.equal(folder.code, 2);
  assert.match(folder.stderr, /^error: cannot read \S+folder\.csv: it is a directory/);
  const input = file('down.csv', `iban\n${austrianIban(1)}\n`);
  const port = await freePort();
  const down = await mod97(['batch', input, '--out', join(dir, 'down-out.csv')], {
    MOD97_URL: `http://127.0.0.1:${port}`,
    MOD97_API_KEY: key,
  });
  assert.equal(down.code, 2);
  assert.equal(
    down.stderr,
    `error: cannot reach http://127.0.0.1:${port} (MOD97_URL): connection refused (is the service running?)\n`,
  );
});

test('a usage error is one line that points to the help, not the whole help', async () => {
  for (const [args, line] of [
    [['batch'], 'error: give a CSV file (see mod97 batch --help)'],
    [
      ['batch', 'a.csv', '--colum', 'x'],
      'error: unknown option --colum; did you mean --column? (see mod97 batch --help)',
    ],
    [['batch', 'a.csv', '--nope'], 'error: unknown option --nope (see mod97 batch --help)'],
    [['batch', 'a.csv', '--column'], 'error: --column needs a value (see mod97 batch --help)'],
    [['keys', 'claim', '--code'], 'error: --code needs a value (see mod97 keys --help)'],
    [['validate'], 'error: give at least one IBAN (see mod97 validate --help)'],
    [['nonsense'], 'error: unknown command "nonsense" (see mod97 --help)'],
    [['valdiate', 'DE89'], 'error: unknown command "valdiate"; did you mean validate? (see mod97 --help)'],
    [['keys', 'generat'], 'error: unknown keys command "generat"; did you mean generate? (see mod97 keys --help)'],
    [
      ['data', 'improt', 'x', 'y'],
      'error: unknown data command "improt"; did you mean import? (see mod97 data --help)',
    ],
  ] as const) {
    const r = await mod97([...args], { MOD97_URL: svc.url });
    assert.equal(r.code, 2, args.join(' '));
    assert.equal(r.stderr, `${line}\n`, args.join(' '));
  }
});
