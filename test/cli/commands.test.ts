/** `mod97 validate`, `keys`, `--help`, `mcp` and the refusal of a key on the command line, as child processes. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startService } from '../support/app.ts';
import { freePort, loopbackServer } from '../support/loopback.ts';
import { finish, mod97, start } from './run.ts';

const svc = await startService();
const at = { MOD97_URL: svc.url };

test('validate prints one line per IBAN; exit 0 when all are valid, 1 when one is not', async () => {
  const ok = await mod97(['validate', 'DE89 3704 0044 0532 0130 00', 'gb82west12345698765432'], at);
  assert.equal(ok.code, 0, ok.stderr);
  // GB82 WEST… is the registry's example: a valid IBAN at a sort code no loaded register lists.
  assert.equal(
    ok.stdout,
    'DE89 3704 0044 0532 0130 00\tvalid\nGB82 WEST 1234 5698 7654 32\tvalid\tbank not found in the loaded registers\n',
  );
  const bad = await mod97(['validate', 'DE89370400440532013000', 'DE89370400440532013001'], at);
  assert.equal(bad.code, 1);
  assert.match(
    bad.stdout,
    /^DE89 3704 0044 0532 0130 01\tinvalid\tchecksum_failed: [A-Z][^\t]{10,}\tdid you mean /m,
    'each error code with what it means',
  );
  // An argument the service will not read as an IBAN is that argument's line; the rest are checked.
  const long = 'X'.repeat(70);
  const mixed = await mod97(['validate', 'DE89370400440532013000', long, 'GB82WEST12345698765432'], at);
  assert.equal(mixed.code, 1, mixed.stderr);
  const lines = mixed.stdout.trim().split('\n');
  assert.deepEqual(
    lines.map((l) => l.split('\t').slice(0, 2).join(' ')),
    ['DE89 3704 0044 0532 0130 00 valid', `${long} invalid`, 'GB82 WEST 1234 5698 7654 32 valid'],
  );
  assert.match(lines[1] ?? '', /\tinvalid_request: /);
});

test('validate --json prints the service answer, one JSON object per IBAN', async () => {
  const r = await mod97(['validate', '--json', 'DE89370400440532013000', 'DE89370400440532013001'], at);
  assert.equal(r.code, 1, r.stderr);
  const answers = r.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.equal(answers.length, 2);
  assert.equal(answers[0].valid, true);
  assert.equal(answers[0].bank.bic, 'COBADEFFXXX');
  assert.equal(answers[1].valid, false);
  assert.equal(answers[1].errors[0].code, 'checksum_failed');
  assert.equal(typeof answers[1].errors[0].message, 'string');
});

test('validate exits 2 on a usage error or when the service cannot be reached', async () => {
  const none = await mod97(['validate'], at);
  assert.equal(none.code, 2);
  assert.equal(none.stderr, 'error: give at least one IBAN (see mod97 validate --help)\n');
  const unknownOption = await mod97(['validate', '--nope', 'DE89'], at);
  assert.equal(unknownOption.code, 2);
  assert.equal(unknownOption.stderr, 'error: unknown option --nope (see mod97 validate --help)\n');
  const port = await freePort();
  const down = await mod97(['validate', 'DE89370400440532013000'], { MOD97_URL: `http://127.0.0.1:${port}` });
  assert.equal(down.code, 2);
  assert.equal(
    down.stderr,
    `error: cannot reach http://127.0.0.1:${port} (MOD97_URL): connection refused (is the service running?)\n`,
  );
});

test('keys generate, usage and rotate', async () => {
  const generated = await mod97(['keys', 'generate'], at);
  assert.equal(generated.code, 0, generated.stderr);
  const key = /^api_key: (ifk_[0-9a-f]{64})$/m.exec(generated.stdout)?.[1];
  assert.ok(key, generated.stdout);
  assert.match(generated.stdout, /export MOD97_API_KEY=ifk_/);
  await mod97(['validate', 'DE89370400440532013000'], { ...at, MOD97_API_KEY: key });
  const usage = await mod97(['keys', 'usage'], { ...at, MOD97_API_KEY: key });
  assert.equal(usage.code, 0, usage.stderr);
  assert.match(usage.stdout, /^1 of 25 used, 24 left \(monthly, month 2026-11\); tier anonymous, key ifk_/);
  const json = await mod97(['keys', 'usage', '--json'], { ...at, MOD97_API_KEY: key });
  assert.equal(JSON.parse(json.stdout).remaining, 24);
  const rotated = await mod97(['keys', 'rotate'], { ...at, MOD97_API_KEY: key });
  assert.equal(rotated.code, 0, rotated.stderr);
  const next = /^api_key: (ifk_[0-9a-f]{64})$/m.exec(rotated.stdout)?.[1];
  assert.ok(next && next !== key);
  const old = await mod97(['keys', 'usage'], { ...at, MOD97_API_KEY: key });
  assert.equal(old.code, 2);
  assert.match(old.stderr, /\(401 invalid_api_key\)/);
  const claim = await mod97(['keys', 'claim'], { ...at, MOD97_API_KEY: next });
  assert.equal(claim.code, 2);
  assert.match(claim.stderr, /keys claim needs --email/);
});

test('a key on the command line is a usage error: exit 2, nothing sent, the key not echoed', async () => {
  let requests = 0;
  const url = await loopbackServer((_req, res) => {
    requests++;
    res.end('{}');
  });
  const key = `ifk_${'ab12'.repeat(16)}`;
  for (const args of [
    ['validate', 'DE89370400440532013000', '--api-key', key],
    ['batch', 'file.csv', `--key=${key}`],
    ['keys', 'usage', key],
    ['validate', key],
    ['keys', 'rotate', '--api-key'],
  ]) {
    const r = await mod97(args, { MOD97_URL: url });
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, /only from MOD97_API_KEY.*Nothing was sent/);
    assert.equal(r.stderr.includes('ab12ab12'), false, 'the key is not echoed');
    assert.equal(r.stdout, '');
  }
  assert.equal(requests, 0);
});

test('--help on every command prints its usage and exits 0', async () => {
  for (const [args, words] of [
    [['--help'], /usage: mod97 <command>/],
    [['validate', '--help'], /usage: mod97 validate \[--json\] IBAN.*\n(.*\n)* {2}--json /],
    [
      ['batch', '--help'],
      /usage: mod97 batch FILE\.csv \[--column iban\] \[--bic-column NAME\] \[--out OUT\.csv\] \[--resume\] \[--force\] \[--dry-run\]\n(.*\n)* {2}--dry-run /,
    ],
    [['keys', '--help'], /mod97 keys generate .*\n.*mod97 keys usage/],
    [['keys', 'claim', '--help'], /mod97 keys claim --email ADDRESS/],
    [['data', '--help'], /mod97 data import <kind> <file>/],
    [['serve', '--help'], /usage: mod97 serve/],
    [['mcp', '--help'], /usage: mod97 mcp/],
  ] as const) {
    const r = await mod97([...args], {});
    assert.equal(r.code, 0, args.join(' '));
    assert.match(r.stdout, words);
  }
});

test('serve runs the service until SIGTERM', async () => {
  const port = await freePort();
  const child = start(['serve'], {
    PORT: String(port),
    MOD97_DATABASE_URL: 'sqlite::memory:',
    MOD97_LOG_LEVEL: 'warn',
  });
  const done = finish(child);
  let ready = false;
  for (let i = 0; i < 100 && !ready; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    ready = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
  }
  assert.ok(ready, 'the service answered /healthz');
  child.kill('SIGTERM');
  assert.equal((await done).code, 0);
});
