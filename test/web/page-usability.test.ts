/**
 * Pages as a person meets them in Debian's chromium against
 * the real service (with the real SMTP and DNS test servers): the first call's answer comes into
 * view on a phone, try-it asks by the request it sends, the underscores of linked error codes
 * show, no credit pack is offered where none can be bought, /qr says a missing key beside its
 * field and brings the drawn code into view, and the pages speak to people, not to programs.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { MAIL_DOMAINS } from '../support/mail/dns.ts';
import { startMailService, usedKey, type MailService } from '../support/mail/service.ts';
import { startCardService } from '../support/stripe/card-service.ts';
import {
  assertClean,
  button as buttonIn,
  checkPage,
  chromiumMissing,
  openBrowser,
  textbox,
  type Browser,
} from './browser.ts';

const KEY = /^ifk_[0-9a-f]{64}$/;
const PHONE = { width: 360, height: 740 };

const mail: MailService = chromiumMissing ? (null as never) : await startMailService();
const origin: string = mail?.svc.url;
after(() => mail?.svc.close());

/** Where an element is in the window now: its top and bottom, in CSS pixels from the window's top. */
async function inWindow(locator: Locator): Promise<{ top: number; bottom: number; height: number }> {
  return locator.evaluate((node) => {
    const box = node.getBoundingClientRect();
    return { top: box.top, bottom: box.bottom, height: window.innerHeight };
  });
}

/** Whether the focused element is `id` or inside it. */
const focusedIn = (page: Page, id: string) =>
  page.evaluate((id) => Boolean(document.getElementById(id)?.contains(document.activeElement)), id);

/** The text of the elements a field's aria-describedby names: what a screen reader says after its name. */
const description = (field: Locator) =>
  field.evaluate((input) =>
    (input.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );

/**
 * The strokes a person sees, top to bottom, in the column of pixels through the middle of each
 * underscore of a linked code: an underscore that shows is a stroke of its own, apart from the
 * link's underline; one the underline covers is a single stroke with it.
 */
async function strokesThroughUnderscores(page: Page, link: Locator): Promise<number[]> {
  await link.scrollIntoViewIfNeeded();
  const box = await link.boundingBox();
  assert.ok(box);
  const xs = await link.evaluate((a) => {
    const text = a.querySelector('code')?.firstChild as Text;
    const middles: number[] = [];
    for (let i = text.data.indexOf('_'); i >= 0; i = text.data.indexOf('_', i + 1)) {
      const range = document.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      const r = range.getBoundingClientRect();
      middles.push(r.x + r.width / 2);
    }
    return middles;
  });
  assert.ok(xs.length > 0, 'a code with an underscore');
  const clip = { x: box.x - 2, y: box.y - 2, width: box.width + 4, height: box.height + 6 };
  const png = PNG.sync.read(await page.screenshot({ clip, type: 'png' }));
  const ink = (x: number, y: number) => {
    const o = (y * png.width + x) * 4;
    // Against the background at the clip's corner, outside the link.
    return (
      Math.abs(png.data[o] - png.data[0]) +
        Math.abs(png.data[o + 1] - png.data[1]) +
        Math.abs(png.data[o + 2] - png.data[2]) >
      120
    );
  };
  return xs.map((x) => {
    const column = Math.round(x - clip.x);
    let strokes = 0;
    for (let y = 0; y < png.height; y++) if (ink(column, y) && (y === 0 || !ink(column, y - 1))) strokes++;
    return strokes;
  });
}

describe('pages as a person meets them, in a browser', { skip: chromiumMissing }, () => {
  let b: Browser;
  before(async () => {
    b = await openBrowser(origin);
  });
  after(async () => {
    await b?.close();
  });
  const field = (label: string) => textbox(b.page, label);
  const button = (label: string | RegExp, within: Page | Locator = b.page) => buttonIn(within, label);

  test('on a phone, "Make the first call" brings its answer and the "Claim it" step into view, with focus', async () => {
    await b.page.setViewportSize(PHONE);
    await b.page.goto(`${origin}/keys/new`);
    await button('Create key').click();
    await b.page.locator('#created').waitFor();
    await b.page.getByRole('link', { name: 'Make the first call' }).click();
    await b.page.waitForURL(`${origin}/`);
    await b.page.getByText('Counted on your key', { exact: false }).waitFor();
    await b.page.waitForFunction(() => document.getElementById('validate-result')?.contains(document.activeElement));
    assert.ok(await focusedIn(b.page, 'validate-result'), 'the answer has the focus, not <body>');
    const answer = await inWindow(b.page.locator('#validate-result'));
    assert.ok(answer.top >= 0 && answer.top < answer.height, `the answer starts in the window (at ${answer.top})`);
    const claim = await inWindow(b.page.getByRole('link', { name: 'Claim it' }));
    assert.ok(
      claim.top >= 0 && claim.bottom <= claim.height,
      `"Claim it" is in the window (${claim.top}–${claim.bottom})`,
    );
    await b.page.setViewportSize({ width: 1280, height: 900 });
    await checkPage(b, origin, 'usability-first-call');
  });

  test('/keys/new: a mailed code is asked for in words for the page, not as the API member', async () => {
    // The browser's network made a key just now: an address is asked to prove its mailbox.
    const email = `findings-${Date.now()}@${MAIL_DOMAINS.deliverable}`;
    await b.page.goto(`${origin}/keys/new`);
    await field('E-mail address').fill(email);
    await button('Create key').click();
    await field('Code').waitFor();
    const said = (await b.page.locator('#create-error').textContent()) ?? '';
    assert.match(said, /we mailed a 6-digit code to/);
    assert.match(said, /Type the code in the Code field/);
    assert.doesNotMatch(said, /request again with|`|\bwith code\b/, said);
    await mail.smtp.nextCode(email);
  });

  test('/claim: "Code sent" says to type the code in the Code field, not to send `code` with the same `email`', async () => {
    const key = await usedKey(mail.svc, '127.0.0.61');
    const email = `findings-claim-${Date.now()}@${MAIL_DOMAINS.deliverable}`;
    await b.page.goto(`${origin}/claim`);
    await field('API key').fill(key);
    await field('E-mail address').fill(email);
    await button('Send code').click();
    await b.page.getByText('Code sent.').waitFor();
    const said = (await b.page.locator('#claim-result').textContent()) ?? '';
    assert.match(said, /We mailed a 6-digit code to/);
    assert.match(said, /Type it in the Code field within \d+ minutes, then press "Claim"/);
    assert.doesNotMatch(said, /as code|same email|`/, said);
    const code = await mail.smtp.nextCode(email);
    // "Claim" with the field empty or short asks for the 6 digits: no try is spent on it
    for (const typed of ['', '12']) {
      await field('Code').fill(typed);
      await button('Claim').click();
      await b.page.getByText('Type the 6-digit code from the mail first.').waitFor();
    }
    await field('Code').fill(code === '000000' ? '111111' : '000000');
    await button('Claim').click();
    await b.page.getByText('You have 4 attempts left.').waitFor();
  });

  test('a key with nothing to claim is said in words, on / and on /claim', async () => {
    const made = await mail.svc.call('/v1/keys/generate', {
      method: 'POST',
      json: { email: `findings-email-${Date.now()}@${MAIL_DOMAINS.deliverable}` },
      from: '127.0.0.62',
    });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.tier, 'email');
    await b.page.goto(`${origin}/`);
    await field('IBAN').fill('DE89 3704 0044 0532 0130 00');
    await field('API key').fill(made.body.api_key);
    await button('Validate').click();
    await b.page.getByText('nothing to claim', { exact: false }).waitFor();
    const home = (await b.page.locator('#validate-result').textContent()) ?? '';
    assert.doesNotMatch(home, /\ba email\b|\ban? \w+ key, with/i, home);
    assert.match(home, /It was made with an e-mail address, so it already has what a claim gives/);
    // The key the tab carries now: /claim says it has nothing to claim, and why.
    await b.page.goto(`${origin}/claim`);
    await b.page.getByText('has nothing to claim', { exact: false }).waitFor();
    const claim = (await b.page.locator('#claim-result').textContent()) ?? '';
    assert.doesNotMatch(claim, /\ba email\b/i, claim);
    assert.match(claim, /made with an e-mail address/);
    assertClean(b, origin);
  });

  test("a key whose month is used up is shown the API's next steps on / and /qr: claim it, or wait for the reset", async () => {
    const key = await mail.svc.newKey('127.0.0.63');
    for (let i = 0; i < 25; i++)
      await mail.svc.call('/v1/iban/validate', { json: { iban: 'DE89370400440532013000' }, key, from: '127.0.0.63' });
    await b.page.goto(`${origin}/`);
    await field('IBAN').fill('DE89 3704 0044 0532 0130 00');
    await field('API key').fill(key);
    await button('Validate').click();
    const claim = b.page.locator('#validate-result').getByRole('link', { name: 'Claim this key' });
    await claim.waitFor();
    assert.equal(await claim.getAttribute('href'), '/claim');
    const home = (await b.page.locator('#validate-result').textContent()) ?? '';
    assert.match(home, /it then has 200 requests a month/);
    assert.match(home, /Or wait: this key's requests start again on \d{1,2} [A-Z][a-z]+ \d{4}\./);
    assert.doesNotMatch(home, /Get a free key/, 'a key holder is not sent to make a second key');
    await b.page.goto(`${origin}/qr`);
    await field('API key').fill(key);
    await field('Paid to (name)').fill('ACME GmbH');
    await field('IBAN').fill('DE89 3704 0044 0532 0130 00');
    await b.page.locator('#qr-result').getByRole('link', { name: 'Claim this key' }).waitFor();
  });

  test('a refused press keeps the focus on its button, not on the page (keyboard and screen-reader users keep their place)', async () => {
    await b.page.goto(`${origin}/usage`);
    await field('API key').fill(`ifk_${'c'.repeat(64)}`);
    await button('Show usage').focus();
    await b.page.keyboard.press('Enter');
    await b.page.locator('#usage-error').getByText('key', { exact: false }).first().waitFor();
    assert.equal(await b.page.evaluate(() => document.activeElement?.textContent?.trim()), 'Show usage');
  });

  test('/docs: a path typed into any try-it asks before it rotates the key, whatever section sends it', async () => {
    const key = await mail.svc.newKey('127.0.0.63');
    await b.page.goto(`${origin}/docs`);
    await field('API key').fill(key);
    const validate = b.page.locator('#validateIban');
    const path = validate.getByRole('textbox', { name: /^Path of POST/ });
    await path.fill('/v1/keys/rotate');
    await button('Send request', validate).click();
    await button(/^Confirm: rotate now/, validate).waitFor();
    assert.equal((await mail.svc.call('/v1/keys/usage', { key })).status, 200, 'nothing sent before the confirmation');
    // Another path is another request: the confirmation is withdrawn, and a validation is sent at once.
    await path.fill('/v1/iban/validate');
    assert.equal(await button('Send request', validate).count(), 1);
    await button('Send request', validate).click();
    await validate.locator('.try-result .status', { hasText: 'Answer 200' }).waitFor();
    // Another spelling of the same route asks too; the confirmation sends it.
    await path.fill('/v1/keys/%72otate');
    await button('Send request', validate).click();
    await button(/^Confirm: rotate now/, validate).click();
    await validate.locator('.try-result .status', { hasText: 'Answer 200' }).waitFor();
    await validate.getByText('now in the API key field above', { exact: false }).waitFor();
    assert.equal((await mail.svc.call('/v1/keys/usage', { key })).status, 401, 'rotated once confirmed');
    assert.match(await field('API key').inputValue(), KEY);
    assertClean(b, origin);
  });

  test('/docs: the underscores of a linked error code show apart from its underline, at 1280 and 360 px', async () => {
    await b.page.goto(`${origin}/docs`);
    for (const viewport of [{ width: 1280, height: 900 }, PHONE]) {
      await b.page.setViewportSize(viewport);
      for (const code of ['key_in_url', 'invalid_api_key', 'request_timeout']) {
        const link = b.page.locator('#validateIban').getByRole('link', { name: code, exact: true });
        const strokes = await strokesThroughUnderscores(b.page, link);
        assert.ok(
          strokes.every((n) => n >= 2),
          `${code} at ${viewport.width} px: ${strokes.join(', ')} strokes through its underscores`,
        );
      }
    }
    await b.page.setViewportSize({ width: 1280, height: 900 });
  });

  test('/qr: a missing key is said beside the API key field, which takes the focus', async () => {
    await b.page.goto(`${origin}/qr`);
    // No key of this tab: the field starts empty.
    await b.page.evaluate(() => sessionStorage.clear());
    await b.page.goto(`${origin}/qr`);
    await b.page.getByLabel('Paid to (name)', { exact: true }).fill('ACME GmbH');
    await b.page.getByLabel('IBAN', { exact: true }).fill('DE89 3704 0044 0532 0130 00');
    await button('Draw the code').click();
    const keyField = field('API key');
    await b.page.waitForFunction(() => document.activeElement?.id === 'api-key');
    assert.equal(await keyField.getAttribute('aria-invalid'), 'true');
    assert.match(await description(keyField), /Type your API key first/);
    assert.ok(await b.page.locator('#err-api-key').isVisible());
    assert.doesNotMatch((await b.page.locator('#qr-result').textContent()) ?? '', /API key/);
    await checkPage(b, origin, 'usability-qr-no-key');
    // Typed: the error goes, and the code is drawn.
    await keyField.fill(await mail.svc.newKey('127.0.0.64'));
    await b.page.getByText('EPC QR code, ready to scan').waitFor();
    assert.equal(await keyField.getAttribute('aria-invalid'), null);
    assert.ok(await b.page.locator('#err-api-key').isHidden());
  });

  test('/qr on a phone: after "Draw the code" the code is in view, with the focus on what it says', async () => {
    const key = await mail.svc.newKey('127.0.0.65');
    await b.page.setViewportSize(PHONE);
    await b.page.goto(`${origin}/qr`);
    await field('API key').fill(key);
    await b.page.getByLabel('Paid to (name)', { exact: true }).fill('ACME GmbH');
    await b.page.getByLabel('IBAN', { exact: true }).fill('DE89 3704 0044 0532 0130 00');
    await b.page.getByLabel('Amount', { exact: false }).fill('12.50');
    await button('Draw the code').click();
    await b.page.getByText('EPC QR code, ready to scan').waitFor();
    await b.page.waitForFunction(() => document.getElementById('qr-result')?.contains(document.activeElement));
    const image = await inWindow(b.page.locator('#qr-image'));
    assert.ok(
      image.top >= 0 && image.bottom <= image.height,
      `the code is in the window (${image.top}–${image.bottom})`,
    );
    // A payment the API refuses: the first field at fault is brought into view instead.
    await b.page.getByLabel('IBAN', { exact: true }).fill('DE89 3704 0044 0532 0130 01');
    await button('Draw the code').click();
    await b.page.getByText('This payment cannot be coded yet.').waitFor();
    await b.page.waitForFunction(() => document.activeElement?.id === 'qr-iban');
    const iban = await inWindow(b.page.locator('#err-qr-iban'));
    assert.ok(iban.top >= 0 && iban.bottom <= iban.height, `the IBAN's error is in the window (${iban.top})`);
    await b.page.setViewportSize({ width: 1280, height: 900 });
    assertClean(b, origin);
  });

  test("/keys/new without a payment rail: after the network's third key, what works, and no pack to buy", async () => {
    await b.page.goto(`${origin}/keys/new`);
    const rule = b.page.locator('#keys-per-day');
    assert.match(
      (await rule.textContent()) ?? '',
      /use a key you already have or claim it .*, or come back for a new key on the next day \(UTC\)/,
    );
    assert.equal(await rule.getByRole('link', { name: 'buy a credit pack' }).count(), 0);
    assert.equal(await rule.locator('a[href="/pricing"]').count(), 0);
    // The browser's network (127.0.0.1) spends the rest of its day's keys.
    for (;;) {
      const r = await mail.svc.call('/v1/keys/generate', { method: 'POST', from: '127.0.0.1' });
      if (r.status === 429) break;
      assert.equal(r.status, 201);
    }
    await button('Create key').click();
    const refusal = b.page.locator('#create-error');
    await refusal.getByText('No key was created.').waitFor();
    for (const link of ['see its usage', 'claim it'])
      assert.equal(await refusal.getByRole('link', { name: link }).count(), 1, link);
    assert.equal(await refusal.getByRole('link', { name: 'buy a credit pack' }).count(), 0);
    assert.match((await refusal.textContent()) ?? '', /come back for a new key on the next day \(UTC\)/);
    await checkPage(b, origin, 'usability-keys-limit');
  });
});

describe('/keys/new with the card rail on', { skip: chromiumMissing }, () => {
  test('offers a credit pack after the third key, since one can be bought', async () => {
    const card = await startCardService();
    after(() => card.service.close());
    const b = await openBrowser(card.service.url);
    after(() => b.close());
    await b.page.goto(`${card.service.url}/keys/new`);
    const rule = b.page.locator('#keys-per-day');
    assert.equal(await rule.getByRole('link', { name: 'buy a credit pack' }).count(), 1);
    assert.doesNotMatch((await rule.textContent()) ?? '', /come back/);
  });
});
