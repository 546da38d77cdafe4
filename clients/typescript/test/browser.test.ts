/**
 * mod97-client as a web app loads it: the built dist/index.js, imported as an ES module by a page
 * of another origin in chromium, calls the service across origins (CORS): with a key (the quota
 * readable on the answer), with the no-key trial, a POST with its Idempotency-Key, and usage. A
 * key route, same-origin only, fails with a message that names CORS.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startService } from '../../../test/support/app.ts';
import { openOtherOrigin } from '../../../test/support/other-origin.ts';
import { chromiumMissing } from '../../../test/web/browser.ts';
import type * as Client from '../src/index.ts';

const BUILT = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const IBAN = 'DE89 3704 0044 0532 0130 00';
/** Where the page imports the client from (its own origin). */
const SRC = '/mod97-client.js';

describe('the built client in a page of another origin', { skip: chromiumMissing }, async () => {
  // scripts/test.sh builds before the tests run; this file does not build again (others read dist/).
  assert.ok(existsSync(BUILT), `${BUILT} is missing: run \`npm run build\` first`);
  const svc = await startService();
  const key = await svc.newKey('127.0.0.1');
  const { page, problems } = await openOtherOrigin({
    [SRC]: ['text/javascript; charset=utf-8', readFileSync(BUILT, 'utf8')],
  });

  test('with a key: answers typed as in Node, with the quota of each', async () => {
    const seen = await page.evaluate(
      async ({ src, baseUrl, apiKey, iban }) => {
        const { Mod97 }: typeof Client = await import(src);
        const client = new Mod97({ baseUrl, apiKey });
        const one = await client.validate(iban);
        const many = await client.batch([iban, 'GB82WEST12345698765432']);
        const bic = await client.bic('COBADEFF');
        const usage = await client.usage();
        return {
          valid: one.valid,
          quota: one.quota,
          batch: [many.valid, many.quota?.used],
          bic: bic.bic11,
          usage: [usage.used, usage.quota?.remaining],
        };
      },
      { src: SRC, baseUrl: svc.url, apiKey: key, iban: IBAN },
    );
    assert.deepEqual(seen, {
      valid: true,
      quota: { used: 1, limit: 25, remaining: 24, month: '2026-11' },
      batch: [2, 3],
      bic: 'COBADEFFXXX',
      usage: [4, 21],
    });
  });

  test('without a key: the trial validates', async () => {
    const valid = await page.evaluate(
      async ({ src, baseUrl, iban }) => {
        const { Mod97 }: typeof Client = await import(src);
        return (await new Mod97({ baseUrl }).validate(iban)).valid;
      },
      { src: SRC, baseUrl: svc.url, iban: IBAN },
    );
    assert.equal(valid, true);
  });

  test('a key route fails as connection_failed, saying the browser may have blocked it by CORS', async () => {
    const error = await page.evaluate(
      async ({ src, baseUrl, apiKey }) => {
        const { Mod97, Mod97Error }: typeof Client = await import(src);
        try {
          await new Mod97({ baseUrl, apiKey, retries: 0 }).rotate();
          return null;
        } catch (e) {
          return e instanceof Mod97Error ? { status: e.status, code: e.code, message: e.message } : String(e);
        }
      },
      { src: SRC, baseUrl: svc.url, apiKey: key },
    );
    assert.ok(error && typeof error === 'object', String(error));
    assert.equal(error.status, 0);
    assert.equal(error.code, 'connection_failed');
    assert.match(error.message, /blocked the call by CORS/);
    assert.match(error.message, /key routes \(generate, rotate, claim\)/);
    // The key was not rotated: the browser never sent the call.
    assert.equal((await svc.call('/v1/keys/usage', { key })).status, 200);
    assert.deepEqual(problems, []);
  });
});
