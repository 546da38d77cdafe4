/**
 * The first hour on the pages (issue 37), in Debian's chromium against the real service with
 * the real SMTP and DNS test servers: a key made on /keys/new reaches claimed without being
 * typed, a valid IBAN at a bank no register lists says so, suggestions name their banks, try-it
 * asks before it rotates, and /keys/new says how many keys a network makes.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LIMITS } from '../../src/plans.ts';
import { MAIL_DOMAINS } from '../support/mail/dns.ts';
import { startMailService, type MailService } from '../support/mail/service.ts';
import {
  assertClean,
  assertNothingStored,
  button as buttonIn,
  checkPage,
  chromiumMissing,
  openBrowser,
  SCREENSHOTS,
  textbox,
  type Browser,
} from './browser.ts';

const KEY = /^ifk_[0-9a-f]{64}$/;
const UNLISTED = 'bank not found in the loaded registers';

const mail: MailService = chromiumMissing ? (null as never) : await startMailService();
const origin: string = mail?.svc.url;
after(() => mail?.svc.close());

describe('the first hour in a browser', { skip: chromiumMissing }, () => {
  let b: Browser;
  before(async () => {
    b = await openBrowser(origin);
  });
  after(async () => {
    await b?.close();
  });
  const field = (label: string) => textbox(b.page, label);
  const button = (label: string | RegExp) => buttonIn(b.page, label);
  const result = () => b.page.locator('#validate-result');

  test('a typo shows its suggestions in print form with their banks; one at an unlisted bank says so', async () => {
    await b.page.goto(`${origin}/`);
    await field('IBAN').fill('DE89 3704 0044 0532 0130 01');
    await button('Validate').click();
    await b.page.getByText('Not a valid IBAN').waitFor();
    const suggestions = result().locator('button.suggestion');
    assert.deepEqual(await suggestions.allTextContents(), [
      'DE89 3704 0044 0532 0130 00Commerzbank',
      `DE89 3704 0042 0532 0130 01${UNLISTED}`,
    ]);
    await checkPage(b, origin, 'first-hour-suggestions');
    // Each suggestion is a button that validates it: the unlisted one is valid, but not green.
    await button(/^DE89 3704 0042 0532 0130 01/).click();
    await b.page.locator('.notice.warn .status', { hasText: `Valid IBAN · ${UNLISTED}` }).waitFor();
    assert.equal(await field('IBAN').inputValue(), 'DE89 3704 0042 0532 0130 01');
    assert.match((await result().textContent()) ?? '', /Banknot found in the loaded registers \(bank code 37040042\)/);
    assert.match((await result().textContent()) ?? '', /confirm the IBAN with the payee/);
    await checkPage(b, origin, 'first-hour-unlisted');
    // The known bank's suggestion is the usual green verdict.
    await field('IBAN').fill('DE89 3704 0044 0532 0130 01');
    await button('Validate').click();
    await button(/^DE89 3704 0044 0532 0130 00/).click();
    await b.page.locator('.notice.good .status', { hasText: /^Valid IBAN$/ }).waitFor();
    assert.match((await result().textContent()) ?? '', /Commerzbank/);
  });

  test('a key made on /keys/new makes its first call and is claimed without being typed, then is never offered a claim', async () => {
    await b.page.goto(`${origin}/keys/new`);
    const rule = (await b.page.locator('#keys-per-day').textContent()) ?? '';
    assert.match(
      rule,
      new RegExp(
        `at most ${LIMITS.keysPerNetworkPerDay} free keys a day \\(UTC\\), keys with an e-mail address included`,
      ),
    );
    // No payment rail is on here, so no pack is offered (page-findings.test.ts holds both cases).
    assert.match(rule, /use a key you already have or claim it .*, or come back for a new key on the next day \(UTC\)/);
    await button('Create key').click();
    await b.page.locator('#created').waitFor();
    const secret = ((await b.page.locator('#secret').textContent()) ?? '').trim();
    assert.match(secret, KEY);
    await checkPage(b, origin, 'first-hour-created');

    // Claiming now would be refused (unused_key): the page offers the first call instead.
    await b.page.getByRole('link', { name: 'Make the first call' }).click();
    await b.page.waitForURL(`${origin}/`);
    await b.page.getByText('Counted on your key', { exact: false }).waitFor();
    assert.equal(await field('API key').inputValue(), secret, 'the key is carried to /');
    assert.equal(await field('IBAN').inputValue(), 'DE89 3704 0044 0532 0130 00');
    assert.equal(
      (await mail.svc.call('/v1/keys/usage', { key: secret })).body.used,
      1,
      'the first call counted on the key',
    );
    await checkPage(b, origin, 'first-hour-first-call');

    await b.page.getByRole('link', { name: 'Claim it' }).click();
    await b.page.waitForURL(`${origin}/claim`);
    await b.page.getByText('is filled in', { exact: false }).waitFor();
    assert.equal(await field('API key').inputValue(), secret, 'the key is carried to /claim');
    const email = `journey-${Date.now()}@${MAIL_DOMAINS.deliverable}`;
    await field('E-mail address').fill(email);
    await button('Send code').click();
    await b.page.getByText('Code sent.').waitFor();
    await field('Code').fill(await mail.smtp.nextCode(email));
    await button('Claim').click();
    await b.page.getByText('Your key is claimed.').waitFor();
    assert.equal((await mail.svc.call('/v1/keys/usage', { key: secret })).body.tier, 'claimed');
    await checkPage(b, origin, 'first-hour-claimed');

    // Claimed: no page offers a claim any more.
    await b.page.goto(`${origin}/`);
    await field('IBAN').fill('DE89 3704 0044 0532 0130 00');
    await button('Validate').click();
    await b.page.getByText('There is nothing to claim', { exact: false }).waitFor();
    assert.equal(await b.page.getByRole('link', { name: 'Claim it' }).count(), 0);
    await b.page.goto(`${origin}/usage`);
    await b.page.locator('#usage:not([hidden])').waitFor();
    assert.equal(await field('API key').inputValue(), secret, 'the key is carried to /usage and shown at once');
    assert.doesNotMatch((await b.page.locator('#usage-actions').textContent()) ?? '', /[Cc]laim/);
    await b.page.goto(`${origin}/claim`);
    await b.page.getByText('has nothing to claim', { exact: false }).waitFor();
    assert.equal(await field('API key').inputValue(), '', 'a claimed key is not filled in for a claim');
    await checkPage(b, origin, 'first-hour-claim-nothing');
    await assertNothingStored(b);
    assertClean(b, origin);
    // Rotated elsewhere (here, through the API): the dead key is refused once, then forgotten.
    await mail.svc.call('/v1/keys/rotate', { method: 'POST', key: secret });
    await b.page.goto(`${origin}/usage`);
    await b.page.getByText('The API key is unknown, rotated or revoked', { exact: false }).waitFor();
    await b.page.goto(`${origin}/usage`);
    assert.equal(await field('API key').inputValue(), '', 'a dead key is not filled in again');
  });

  test('usage offers a claim only after the first call', async () => {
    const fresh = await mail.svc.newKey('127.0.0.41');
    await b.page.goto(`${origin}/usage`);
    await field('API key').fill(fresh);
    await button('Show usage').click();
    await b.page.getByText('has made no call yet', { exact: false }).waitFor();
    assert.equal(await b.page.getByRole('link', { name: /^Claim it for/ }).count(), 0);
    await mail.svc.call('/v1/iban/validate', { key: fresh, json: { iban: 'DE89370400440532013000' } });
    await button('Show usage').click();
    await b.page.getByRole('link', { name: `Claim it for ${LIMITS.freePerMonth} requests a month` }).waitFor();
  });

  test('docs: try-it asks before it rotates, then puts the new key in the field', async () => {
    const key = await mail.svc.newKey('127.0.0.42');
    await b.page.goto(`${origin}/docs`);
    await field('API key').fill(key);
    const rotate = b.page.locator('#rotateKey');
    await rotate.getByRole('button', { name: 'Send request' }).click();
    const confirm = rotate.getByRole('button', { name: /^Confirm: rotate now/ });
    await confirm.waitFor();
    assert.equal((await mail.svc.call('/v1/keys/usage', { key })).status, 200, 'nothing sent before the confirmation');
    await checkPage(b, origin, 'first-hour-docs-confirm');
    // The try-it box itself, for people to look at (the page runs past the full screenshot's 8,000 px).
    await rotate
      .locator('.try')
      .screenshot({ path: join(SCREENSHOTS, 'first-hour-docs-confirm-box.jpg'), type: 'jpeg' });
    await confirm.click();
    await rotate.locator('.try-result .status', { hasText: 'Answer 200' }).waitFor();
    const fresh = await field('API key').inputValue();
    assert.match(fresh, KEY);
    assert.notEqual(fresh, key);
    assert.equal((await mail.svc.call('/v1/keys/usage', { key })).status, 401, 'the old key is dead');
    assert.equal(
      await b.page.evaluate(() => sessionStorage.getItem('mod97.api_key')),
      fresh,
      'the tab carries the new key',
    );
    assert.equal((await mail.svc.call('/v1/keys/usage', { key: fresh })).status, 200);
    assert.match((await rotate.locator('.try-result').textContent()) ?? '', /now in the API key field above/);
    assert.equal(await rotate.getByRole('button', { name: 'Send request' }).count(), 1, 'the next call asks again');
    // A call that changes no key is sent at once.
    const validate = b.page.locator('#validateIban');
    await validate.getByRole('button', { name: 'Send request' }).click();
    await validate.locator('.try-result .status', { hasText: 'Answer 200' }).waitFor();
    await checkPage(b, origin, 'first-hour-docs-rotated');
  });

  test("keys/new: after the network's third key of the day, what to do instead", async () => {
    // The browser's network (127.0.0.1) made one key above; the rest of its day's keys now.
    for (;;) {
      const r = await mail.svc.call('/v1/keys/generate', { method: 'POST', from: '127.0.0.1' });
      if (r.status === 429) break;
      assert.equal(r.status, 201);
    }
    await b.page.goto(`${origin}/keys/new`);
    await button('Create key').click();
    const refusal = b.page.locator('#create-error');
    await refusal.getByText('No key was created.').waitFor();
    assert.match((await refusal.textContent()) ?? '', /This network has created 3 free keys today/);
    for (const link of ['see its usage', 'claim it'])
      assert.equal(await refusal.getByRole('link', { name: link }).count(), 1, link);
    assert.equal(await refusal.getByRole('link', { name: 'buy a credit pack' }).count(), 0, 'no rail, no pack');
    await checkPage(b, origin, 'first-hour-keys-limit');
  });
});
