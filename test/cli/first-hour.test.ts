/**
 * The command line in the first hour (issue 37): a claim suggested only when it can succeed, a
 * broken pipe, a key variable a header cannot carry, a tab-separated file, a missing file, and a
 * valid IBAN at a bank no register lists. The built `mod97` in a child process.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { startService } from '../support/app.ts';
import { loopbackServer } from '../support/loopback.ts';
import { finish, mod97, start } from './run.ts';

const svc = await startService();
const at = { MOD97_URL: svc.url };
const dir = mkdtempSync(join(tmpdir(), 'mod97-first-hour-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('keys usage suggests a claim only once the key can be claimed', async () => {
  const key = await svc.newKey('127.0.0.31');
  const fresh = await mod97(['keys', 'usage'], { ...at, MOD97_API_KEY: key });
  assert.equal(fresh.code, 0, fresh.stderr);
  assert.match(
    fresh.stdout,
    /^make the key's first call \(e\.g\. mod97 validate DE89370400440532013000\), then claim it/m,
  );
  assert.doesNotMatch(fresh.stdout, /^claim the key/m);
  // What the suggestion warns of: a claim now is refused.
  const early = await mod97(['keys', 'claim', '--email', 'ada@example.com'], { ...at, MOD97_API_KEY: key });
  assert.match(early.stderr, /403 unused_key/);
  await mod97(['validate', 'DE89370400440532013000'], { ...at, MOD97_API_KEY: key });
  const used = await mod97(['keys', 'usage'], { ...at, MOD97_API_KEY: key });
  assert.match(used.stdout, /^claim the key for 200 a month: mod97 keys claim --email ADDRESS$/m);
});

test('a reader that stops early ends the command quietly: no stack trace, exit 0', async () => {
  for (const args of [['data', 'list'], ['--help'], ['validate', 'DE89370400440532013000']]) {
    const child = start(args, { ...at, MOD97_DATABASE_URL: `sqlite:${join(dir, 'pipe.db')}` });
    // The reading end closed before the command writes, as `| head` does once it has its lines.
    child.stdout!.destroy();
    const ran = await finish(child);
    assert.equal(ran.stderr, '', `${args.join(' ')}: ${ran.stderr}`);
    assert.equal(ran.code, 0, args.join(' '));
  }
});

test('a key variable a header cannot carry is refused naming the variable; the key is never printed, nothing sent', async () => {
  let requests = 0;
  const url = await loopbackServer((_req, res) => {
    requests++;
    res.end('{}');
  });
  const key = `ifk_${'cd34'.repeat(16)}`;
  for (const [value, what] of [
    [`${key.slice(0, 30)}\n${key.slice(30)}`, 'a line break'],
    [`${key.slice(0, 30)}\r\n${key.slice(30)}`, 'a line break'],
    [`${key}\tx`, 'a space or tab'],
    [`Bearer ${key}`, 'the word Bearer before the key (the command adds it)'],
    [`${key.slice(0, 20)}é${key.slice(21)}`, 'a character an HTTP header cannot carry'],
  ]) {
    for (const args of [
      ['validate', 'DE89370400440532013000'],
      ['keys', 'usage'],
    ]) {
      const r = await mod97(args, { MOD97_URL: url, MOD97_API_KEY: value });
      assert.equal(r.code, 2, JSON.stringify(value));
      assert.equal(
        r.stderr,
        `error: MOD97_API_KEY holds ${what}, so it cannot be sent (its value is not shown). Set it to the key alone, e.g. export MOD97_API_KEY=ifk_... with nothing around it. Nothing was sent.\n`,
      );
      assert.equal(r.stderr.includes('cd34cd34'), false, 'the key is not printed');
      assert.doesNotMatch(r.stderr, /cannot reach/);
    }
  }
  // The MCP bridge refuses it at start, before any tool call could fail on it.
  const bridge = await mod97(['mcp'], { MOD97_URL: url, MOD97_API_KEY: `${key.slice(0, 30)}\n${key.slice(30)}` });
  assert.equal(bridge.code, 2);
  assert.match(bridge.stderr, /^error: MOD97_API_KEY holds a line break/);
  assert.equal(bridge.stderr.includes('cd34cd34'), false);
  assert.equal(requests, 0);
});

test('a key with the line break or spaces a file leaves around it is sent without them, as the clients send it', async () => {
  const key = await svc.newKey('127.0.0.34');
  for (const value of [`${key}\n`, `${key}\r\n`, `  ${key}\t`]) {
    const r = await mod97(['keys', 'usage', '--json'], { ...at, MOD97_API_KEY: value });
    assert.equal(r.code, 0, `${JSON.stringify(value)}: ${r.stderr}`);
    assert.equal(JSON.parse(r.stdout).key_prefix, key.slice(0, 8));
  }
});

test('batch names a tab-separated file as such, not as a missing column', async () => {
  const file = join(dir, 'payees.tsv');
  writeFileSync(file, 'name\tiban\nAda\tDE89370400440532013000\n');
  const r = await mod97(['batch', file], { ...at, MOD97_API_KEY: await svc.newKey('127.0.0.32') });
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    `error: ${file} is tab-separated (its header has 1 tabs and no commas or semicolons); mod97 batch reads CSV separated by , or ;. Save it as CSV and run again.\n`,
  );
});

test('extract and batch word a missing file the same way', async () => {
  const env = { ...at, MOD97_API_KEY: await svc.newKey('127.0.0.33') };
  const missing = join(dir, 'nowhere.txt');
  const extract = await mod97(['extract', missing], env);
  const batch = await mod97(['batch', missing], env);
  assert.equal(extract.stderr, `error: cannot read ${missing}: no such file\n`);
  assert.equal(batch.stderr, extract.stderr);
  assert.deepEqual([extract.code, batch.code], [2, 2]);
});

test('validate says when no register lists the bank of a valid IBAN, and names the bank of each suggestion', async () => {
  const r = await mod97(['validate', 'DE89370400420532013001', 'DE89 3704 0044 0532 0130 01'], at);
  const [unlisted, typo] = r.stdout.trim().split('\n');
  assert.equal(unlisted, 'DE89 3704 0042 0532 0130 01\tvalid\tbank not found in the loaded registers');
  assert.match(
    typo,
    /\tdid you mean DE89 3704 0044 0532 0130 00 \(Commerzbank\) or DE89 3704 0042 0532 0130 01 \(bank not found in the loaded registers\)\?$/,
  );
});
