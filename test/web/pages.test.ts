/**
 * The pages for people, in a real browser (Debian's chromium) against the real service on
 * 127.0.0.1, with the real SMTP and DNS test servers for the mailed codes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { LIMITS, PACKS, PRO_PRICE_USD_PER_MONTH } from '../../src/plans.ts';
import { MAIL_DOMAINS } from '../support/mail/dns.ts';
import { startMailService, type MailService } from '../support/mail/service.ts';
import { startCardService } from '../support/stripe/card-service.ts';
import { assertClean, assertNothingStored, checkPage, chromiumMissing, openBrowser, type Browser } from './browser.ts';

const PAGES = ['/', '/pricing', '/keys/new', '/claim', '/usage', '/qr', '/docs', '/terms'];
const KEY = /ifk_[0-9a-f]{64}/;

// Started at the top level: a server started inside a `before` hook would stop when the hook ends.
const mail: MailService = chromiumMissing ? (null as never) : await startMailService();
const origin: string = mail?.svc.url;

describe('pages in a browser', { skip: chromiumMissing }, () => {
  let b: Browser;
  before(async () => {
    b = await openBrowser(origin);
  });
  after(async () => {
    await b?.close();
  });
  const name = (role: 'textbox' | 'button', label: string) => b.page.getByRole(role, { name: label, exact: true });

  test('every page answers 200 HTML with the security headers, and holds in the browser', async () => {
    for (const path of PAGES) {
      const r = await mail.svc.call(path, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
      assert.equal(r.status, 200, path);
      assert.match(String(r.headers['content-type']), /^text\/html/, path);
      const csp = String(r.headers['content-security-policy']);
      assert.match(csp, /default-src 'self'/, path);
      assert.match(csp, /frame-ancestors 'none'/, path);
      assert.doesNotMatch(csp, /unsafe-inline/, path);
      assert.equal(r.headers['x-content-type-options'], 'nosniff', path);
      assert.equal(r.headers['referrer-policy'], 'no-referrer', path);
      const visit = await b.page.goto(origin + path);
      assert.equal(visit?.status(), 200, path);
      await checkPage(b, origin, path === '/' ? 'home' : path.slice(1).replace('/', '-'));
    }
  });

  test('/ answers JSON to a program and HTML only when the browser ranks it higher', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.9']) {
      const r = await mail.svc.call('/', accept ? { headers: { accept } } : {});
      assert.equal(r.body.name, 'mod97', String(accept));
    }
    const html = await mail.svc.call('/', { headers: { accept: 'text/html, application/json;q=0.9' } });
    assert.match(html.text, /<!doctype html>/);
  });

  test('a mistyped address shows a page naming the page meant, with the others; a program gets the JSON 404', async () => {
    const visit = await b.page.goto(`${origin}/keys/nwe`);
    assert.equal(visit?.status(), 404);
    assert.match(String(visit?.headers()['content-type']), /^text\/html/);
    await b.page.getByRole('heading', { name: 'There is no page here' }).waitFor();
    // Chromium logs the page's own 404 as a console error; that status is this page's point.
    const dropOwn404 = (path: string) => {
      const own = `console: Failed to load resource: the server responded with a status of 404 (Not Found) (${origin}${path})`;
      assert.deepEqual(b.problems.splice(b.problems.indexOf(own), 1), [own]);
    };
    dropOwn404('/keys/nwe');
    assert.equal(
      await b.page.getByRole('main').getByRole('link', { name: 'Get a key' }).count(),
      2,
      'named and listed',
    );
    await checkPage(b, origin, 'not-found');
    await b.page.getByRole('main').getByRole('link', { name: 'Get a key' }).first().click();
    await b.page.waitForURL(`${origin}/keys/new`);

    await b.page.goto(`${origin}/nothing-like-any-page`);
    dropOwn404('/nothing-like-any-page');
    assertClean(b, origin);
    assert.match((await b.page.getByRole('main').textContent()) ?? '', /mistyped/);
    assert.equal(await b.page.getByRole('main').getByRole('link', { name: 'QR codes' }).count(), 1);
    const program = await mail.svc.call('/keys/nwe');
    assert.equal(program.status, 404);
    assert.equal(program.body.error, 'not_found');
    // A path of the API answers JSON even to a browser, naming the route meant.
    await b.page.goto(`${origin}/v1/bic`);
    assert.match(
      (await b.page.textContent('body')) ?? '',
      /"error":"not_found".*Did you mean GET \/v1\/bic\/\{code\}\?/,
    );
  });

  test('home: an IBAN is validated live through the trial, with the keyboard', async () => {
    await b.page.goto(`${origin}/`);
    await name('textbox', 'IBAN').focus();
    await b.page.keyboard.type('DE89 3704 0044 0532 0130 01');
    await b.page.keyboard.press('Enter');
    await b.page.getByText('Not a valid IBAN').waitFor();
    await name('textbox', 'IBAN').fill('DE89 3704 0044 0532 0130 00');
    // Past the optional "API key" field to the button.
    await b.page.keyboard.press('Tab');
    await b.page.keyboard.press('Tab');
    await b.page.keyboard.press('Space');
    await b.page.getByText('Valid IBAN', { exact: true }).waitFor();
    assert.match((await b.page.locator('#validate-result').textContent()) ?? '', /validations left today/);
    await checkPage(b, origin, 'home-validated');
    // Where a cancelled card checkout comes back to.
    await b.page.goto(`${origin}/?checkout=cancelled`);
    await b.page.getByText('Checkout cancelled: nothing was charged.').waitFor();
  });

  test('keys/new creates a key shown once that works through the API; usage shows the API numbers; claim raises it', async () => {
    await b.page.goto(`${origin}/keys/new`);
    await name('button', 'Create key').click();
    await b.page.locator('#created').waitFor();
    const secret = ((await b.page.locator('#secret').textContent()) ?? '').trim();
    assert.match(secret, KEY);
    assert.match((await b.page.locator('#created').textContent()) ?? '', /will not be shown again/);
    await name('button', 'Copy').click();
    await b.page
      .locator('#copy-status')
      .filter({ hasText: /Cop|Select/ })
      .waitFor();

    for (const iban of ['DE89370400440532013000', 'GB82WEST12345698765432']) {
      const r = await mail.svc.call('/v1/iban/validate', { key: secret, json: { iban } });
      assert.equal(r.status, 200);
    }
    const api = (await mail.svc.call('/v1/keys/usage', { key: secret })).body;
    await b.page.goto(`${origin}/usage`);
    await name('textbox', 'API key').fill(secret);
    await name('button', 'Show usage').click();
    await b.page.locator('#usage').waitFor();
    assert.equal((await b.page.locator('#used').textContent()) ?? '', String(api.used));
    assert.equal((await b.page.locator('#limit').textContent()) ?? '', String(api.limit));
    assert.equal((await b.page.locator('#remaining').textContent()) ?? '', String(api.remaining));
    assert.match((await b.page.locator('#usage-facts').textContent()) ?? '', new RegExp(api.basis));
    const label = String(await b.page.locator('svg[role="img"]').getAttribute('aria-label'));
    assert.match(label, /usage/i);
    assert.match(label, new RegExp(`${api.used} calls in total`));
    await checkPage(b, origin, 'usage-filled');

    // The same key claimed on /claim, with the code from the real SMTP server.
    const email = `claim-${Date.now()}@${MAIL_DOMAINS.deliverable}`;
    await b.page.goto(`${origin}/claim`);
    // The page carries this tab's key in once it has asked whether the key can be claimed; typing
    // before that answer races it on a slow machine.
    await b.page.getByText('is filled in', { exact: false }).waitFor();
    await name('textbox', 'API key').fill(secret);
    await name('textbox', 'E-mail address').fill(email);
    await name('button', 'Send code').click();
    // Without the mail, what the page said is what tells a refusal from a slow machine.
    const code = await mail.smtp.nextCode(email).catch(async (err: Error) => {
      throw new Error(`${err.message}; the page said: ${await b.page.locator('#claim-result').textContent()}`);
    });
    await name('textbox', 'Code').fill(code === '000000' ? '111111' : '000000');
    await name('button', 'Claim').click();
    await b.page.getByText('You have 4 attempts left.', { exact: false }).waitFor();
    await name('textbox', 'Code').fill(code);
    await name('button', 'Claim').click();
    await b.page.getByText('Your key is claimed.').waitFor();
    const claimed = (await mail.svc.call('/v1/keys/usage', { key: secret })).body;
    assert.equal(claimed.tier, 'claimed');
    assert.equal(claimed.limit, LIMITS.freePerMonth);
    await checkPage(b, origin, 'claim-done');
    await assertNothingStored(b);
  });

  test('claim explains a refusal in a sentence: an unused key, a domain without mail', async () => {
    const unused = await mail.svc.newKey('127.0.0.9');
    await b.page.goto(`${origin}/claim`);
    await name('textbox', 'API key').fill(unused);
    await name('textbox', 'E-mail address').fill(`someone@${MAIL_DOMAINS.deliverable}`);
    await name('button', 'Send code').click();
    // The server's own words, not a rewording kept in the page.
    await b.page.getByText('Use this key for at least one call before claiming it.', { exact: false }).waitFor();
    const used = await mail.svc.newKey('127.0.0.10');
    await mail.svc.call('/v1/iban/validate', { key: used, json: { iban: 'DE89370400440532013000' } });
    await name('textbox', 'API key').fill(used);
    await name('textbox', 'E-mail address').fill(`someone@${MAIL_DOMAINS.noMx}`);
    await name('button', 'Send code').click();
    await b.page.getByText('has no mail server, so no code can reach this address', { exact: false }).waitFor();
    await name('textbox', 'E-mail address').fill('someone@mailinator.com');
    await name('button', 'Send code').click();
    await b.page.getByText('throwaway or placeholder domains', { exact: false }).waitFor();
    assertClean(b, origin);
  });

  test('keys/new with an address asks for the mailed code when the network made a key recently', async () => {
    const email = `new-${Date.now()}@${MAIL_DOMAINS.deliverable}`;
    await b.page.goto(`${origin}/keys/new`);
    await name('textbox', 'E-mail address').fill(email);
    await name('button', 'Create key').click();
    await name('textbox', 'Code').waitFor();
    const code = await mail.smtp.nextCode(email);
    await name('textbox', 'Code').fill(code === '000000' ? '111111' : '000000');
    await name('button', 'Create key').click();
    await b.page.getByText('You have 4 attempts left.', { exact: false }).waitFor();
    await name('textbox', 'Code').fill(code);
    await name('button', 'Create key').click();
    await b.page.locator('#created').waitFor();
    assert.match(((await b.page.locator('#secret').textContent()) ?? '').trim(), KEY);
    assert.match((await b.page.locator('#created-facts').textContent()) ?? '', /email/);
    await checkPage(b, origin, 'keys-new-created');
  });

  test("home: a key typed beside the IBAN makes the key's first call, and /claim then takes it", async () => {
    const key = await mail.svc.newKey('127.0.0.21');
    await b.page.goto(`${origin}/`);
    await name('textbox', 'IBAN').fill('DE89 3704 0044 0532 0130 00');
    await name('textbox', 'API key').fill(key);
    await name('button', 'Validate').click();
    await b.page.getByText('Counted on your key', { exact: false }).waitFor();
    assert.doesNotMatch((await b.page.locator('#validate-result').textContent()) ?? '', /validations left today/);
    const usage = (await mail.svc.call('/v1/keys/usage', { key })).body;
    assert.equal(usage.used, 1);
    await checkPage(b, origin, 'home-keyed');
    const email = `first-${Date.now()}@${MAIL_DOMAINS.deliverable}`;
    await b.page.getByRole('link', { name: 'Claim it' }).click();
    // The click only starts the navigation: typing before /claim is there types into the home page.
    await b.page.waitForURL(`${origin}/claim`);
    await name('textbox', 'API key').fill(key);
    await name('textbox', 'E-mail address').fill(email);
    await name('button', 'Send code').click();
    await b.page.getByText('Code sent.').waitFor();
    await mail.smtp.nextCode(email);
    await assertNothingStored(b);
    // A typed value that is not a key is refused on the page, with the shape the server gave it.
    await b.page.goto(`${origin}/`);
    await name('textbox', 'IBAN').fill('DE89 3704 0044 0532 0130 00');
    await name('textbox', 'API key').fill('ifk_ABC');
    await name('button', 'Validate').click();
    await b.page.getByText('64 lower-case hexadecimal characters', { exact: false }).waitFor();
  });

  test('usage rotates the key shown: the new key once, the old one refused', async () => {
    const key = await mail.svc.newKey('127.0.0.22');
    await mail.svc.call('/v1/iban/validate', { key, json: { iban: 'DE89370400440532013000' } });
    await b.page.goto(`${origin}/usage`);
    await name('textbox', 'API key').fill(key);
    await name('button', 'Show usage').click();
    // this key's usage, not the one the tab's earlier key showed on opening (its card is replaced)
    await b.page
      .locator('#usage-prefix')
      .filter({ hasText: key.slice(0, 8) })
      .waitFor();
    await name('button', 'Rotate key').click();
    await b.page.getByRole('button', { name: /Confirm: rotate now/ }).click();
    const fresh = ((await b.page.locator('#rotated-secret').textContent()) ?? '').trim();
    assert.match(fresh, KEY);
    assert.notEqual(fresh, key);
    await name('button', 'Copy').click();
    await b.page
      .locator('#copy-status')
      .filter({ hasText: /Cop|Select/ })
      .waitFor();
    assert.equal((await mail.svc.call('/v1/keys/usage', { key })).status, 401);
    const now = (await mail.svc.call('/v1/keys/usage', { key: fresh })).body;
    assert.equal(now.used, 1, 'the counters carry over');
    await checkPage(b, origin, 'usage-rotated');
    await assertNothingStored(b);
  });

  test("usage: another key asked for puts the shown key's card away at once, so its Rotate cannot act on the new key", async () => {
    const first = await mail.svc.newKey('127.0.0.23');
    const second = await mail.svc.newKey('127.0.0.24');
    await b.page.goto(`${origin}/usage`);
    await name('textbox', 'API key').fill(first);
    await name('button', 'Show usage').click();
    await b.page
      .locator('#usage-prefix')
      .filter({ hasText: first.slice(0, 8) })
      .waitFor();
    // The second key's usage is held on its way, as on a slow network.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await b.page.route('**/v1/keys/usage**', async (route) => {
      await held;
      await route.continue();
    });
    await name('textbox', 'API key').fill(second);
    await name('button', 'Show usage').click();
    assert.equal(await name('button', 'Rotate key').isVisible(), false, 'no Rotate while the other key loads');
    release();
    await b.page
      .locator('#usage-prefix')
      .filter({ hasText: second.slice(0, 8) })
      .waitFor();
    await b.page.unroute('**/v1/keys/usage**');
    assert.equal((await mail.svc.call('/v1/keys/usage', { key: first })).status, 200);
  });

  test('docs: examples in tabs, copy buttons, try it against this service, linked codes, no raw Markdown', async () => {
    await b.page.goto(`${origin}/docs`);
    const section = b.page.locator('#validateIban');
    await section.getByRole('tab', { name: 'Python' }).click();
    const python = section.getByRole('tabpanel');
    assert.match((await python.textContent()) ?? '', /from mod97 import Mod97/);
    assert.equal(await section.locator('[role="tabpanel"]:not([hidden])').count(), 1);
    await section.getByRole('tab', { name: 'Python' }).press('ArrowRight');
    assert.match((await section.getByRole('tabpanel').textContent()) ?? '', /curl -X POST/);
    await section.getByRole('button', { name: 'Copy the curl example' }).click();
    await section
      .locator('.copy-state', { hasText: /^(Copied|Selected)/ })
      .first()
      .waitFor();
    assert.match((await section.locator('pre').last().textContent()) ?? '', /"valid": true/);

    const key = await mail.svc.newKey('127.0.0.23');
    await name('textbox', 'API key').fill(key);
    await section.getByRole('button', { name: 'Send request' }).click();
    await section.locator('.try-result .status', { hasText: 'Answer 200' }).waitFor();
    assert.match((await section.locator('.try-result').textContent()) ?? '', /x-quota-remaining: 24/);
    assert.equal((await mail.svc.call('/v1/keys/usage', { key })).body.used, 1);
    // A body that is not JSON is said so, and nothing is sent.
    await section.getByRole('textbox', { name: /JSON body of POST/ }).fill('{"iban": ');
    await section.getByRole('button', { name: 'Send request' }).click();
    await section.getByText('The body is not valid JSON.').waitFor();

    // Each code of a route links to its explanation, which names its status and meaning.
    await b.page.locator('#getBic').getByRole('link', { name: 'bic_not_found' }).click();
    const target = b.page.locator('#error-bic-not-found');
    assert.ok(await target.isVisible());
    assert.match((await b.page.locator('#error-bic-not-found + dd').textContent()) ?? '', /404/);
    for (const status of ['408', '417', '431', '500']) {
      const labels = await b.page.locator(`#validateIban dt:has(code:text-is("${status}")) + dd`).textContent();
      assert.ok(labels?.trim(), `${status} is labelled`);
    }
    // Rendered text: no backtick outside the code examples, no "Key optional" on a route that
    // answers 402 without a key.
    const prose = await b.page.evaluate(() => {
      const main = document.querySelector('main')!.cloneNode(true) as HTMLElement;
      for (const pre of main.querySelectorAll('pre, textarea')) pre.remove();
      return main.textContent ?? '';
    });
    assert.doesNotMatch(prose, /`/);
    assert.match((await b.page.locator('#validateIbanBatch .badge').textContent()) ?? '', /^Key/);
    assert.notEqual(await b.page.locator('#validateIbanBatch .badge').textContent(), 'Key optional');
    assert.equal(await b.page.locator('#validateIban .badge').textContent(), 'Key optional');
    await checkPage(b, origin, 'docs-tried');
    await assertNothingStored(b);
  });

  test('pricing shows the numbers of the price table, and says card payment is off', async () => {
    await b.page.goto(`${origin}/pricing`);
    const text = (await b.page.locator('main').textContent()) ?? '';
    for (const p of PACKS) {
      assert.ok(text.includes(p.credits.toLocaleString('en-US')), `${p.credits} credits`);
      assert.ok(text.includes(`$${p.priceUsd}`), `$${p.priceUsd}`);
    }
    for (const s of [
      `$${PRO_PRICE_USD_PER_MONTH}`,
      `${LIMITS.proPerMonth.toLocaleString('en-US')} requests a month`,
      `${LIMITS.anonymousPerMonth} requests a month`,
      `${LIMITS.freePerMonth} requests a month`,
      '$0.002 to $0.02',
      '25,000',
      '$0.0032', // the 25,000 pack's price per request ($80 / 25,000), not rounded to $0.003
    ]) {
      assert.ok(text.includes(s), s);
    }
    assert.match(text, /Card payment is not enabled on this server/);
    assert.equal(await b.page.locator('button[data-product]').count(), 0);
  });
});

describe('pages with the card rail on', { skip: chromiumMissing }, () => {
  test('pricing starts Stripe Checkout; usage cancels Pro at the end of the period', async () => {
    const card = await startCardService();
    const cardOrigin = card.service.url;
    const b = await openBrowser(cardOrigin);
    after(() => b.close());
    const page = b.page;
    await page.goto(`${cardOrigin}/pricing`);
    await checkPage(b, cardOrigin, 'pricing-card');
    const leaving = page.waitForRequest((r) => r.url().startsWith('https://checkout.stripe.com/'));
    await page.getByRole('button', { name: 'Subscribe by card' }).click();
    const request = await leaving;
    assert.equal(card.api.created.at(-1)?.mode, 'subscription');
    assert.equal(request.url(), [...card.api.sessions.values()].at(-1)?.url);
    // That one navigation to Stripe's checkout is the product working; the test's router refused it.
    b.requests.splice(0, b.requests.length, ...b.requests.filter((u) => u.startsWith(cardOrigin)));
    b.problems.splice(0, b.problems.length, ...b.problems.filter((p) => !p.includes('checkout.stripe.com')));

    // Stripe brings the buyer back to the success page, which shows the new key once.
    const { sessionId } = await card.buy('pro');
    await page.goto(`${cardOrigin}/v1/card/success?session_id=${sessionId}`);
    const secret = ((await page.locator('.secret code').textContent()) ?? '').trim();
    assert.match(secret, KEY);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page
      .locator('#copy-status')
      .filter({ hasText: /Cop|Select/ })
      .waitFor();
    await checkPage(b, cardOrigin, 'checkout-success');
    await page.goto(`${cardOrigin}/usage`);
    await page.getByRole('textbox', { name: 'API key', exact: true }).fill(secret);
    await page.getByRole('button', { name: 'Show usage', exact: true }).click();
    // Rotated first, on the same card: Cancel Pro then acts on the new secret, not the dead one.
    await page.getByRole('button', { name: 'Rotate key' }).click();
    await page.getByRole('button', { name: /Confirm: rotate now/ }).click();
    const rotated = ((await page.locator('#rotated-secret').textContent()) ?? '').trim();
    assert.match(rotated, KEY);
    await page.getByRole('button', { name: 'Cancel Pro' }).click();
    await page.getByRole('button', { name: /Confirm: cancel/ }).click();
    await page.getByText('Pro is cancelled.').waitFor();
    assert.equal(card.api.subscriptionUpdates.length, 1);
    assert.equal(card.api.subscriptionUpdates[0].params.cancel_at_period_end, 'true');
    await checkPage(b, cardOrigin, 'usage-pro');
    // Back on /pricing, the key this tab holds is filled in, above the buttons that would buy for it.
    await page.goto(`${cardOrigin}/pricing`);
    const keyField = page.getByRole('textbox', { name: 'API key', exact: true });
    assert.equal(await keyField.inputValue(), rotated);
    const fieldTop = (await keyField.boundingBox())?.y ?? Number.POSITIVE_INFINITY;
    const buyTop = (await page.getByRole('button', { name: 'Subscribe by card' }).boundingBox())?.y ?? 0;
    assert.ok(fieldTop < buyTop, `the key field (y ${fieldTop}) comes before "Subscribe by card" (y ${buyTop})`);
  });

  test('a checkout still pending is checked for a while, then the page stops and says what to do', async () => {
    const card = await startCardService();
    const cardOrigin = card.service.url;
    const b = await openBrowser(cardOrigin);
    after(() => b.close());
    const started = await card.checkout('pack_1k');
    const sessionId = started.body.session_id as string;
    // The page's waits, shortened for the test (a minute and every 3 s in use).
    await b.page.addInitScript(() => {
      (window as unknown as { mod97CheckoutPoll: object }).mod97CheckoutPoll = { everyMs: 50, forMs: 1500 };
    });
    const asked: string[] = [];
    b.page.on('request', (r) => {
      if (r.url().includes('/v1/card/success') && r.resourceType() === 'fetch') asked.push(r.url());
    });
    await b.page.goto(`${cardOrigin}/v1/card/success?session_id=${sessionId}`);
    await b.page.getByText('This page has stopped checking.', { exact: false }).waitFor();
    // Asked again and again, but only while the (shortened) minute lasted.
    assert.ok(asked.length >= 1 && asked.length <= 31, `asked ${asked.length} times`);
    assert.ok(await b.page.locator('#pending').isHidden());
    await checkPage(b, cardOrigin, 'checkout-stopped');
  });

  test('a pending checkout that completes shows the key on the same page, once', async () => {
    const card = await startCardService();
    const cardOrigin = card.service.url;
    const b = await openBrowser(cardOrigin);
    after(() => b.close());
    const started = await card.checkout('pack_1k');
    const sessionId = started.body.session_id as string;
    await b.page.addInitScript(() => {
      (window as unknown as { mod97CheckoutPoll: object }).mod97CheckoutPoll = { everyMs: 50, forMs: 60000 };
    });
    await b.page.goto(`${cardOrigin}/v1/card/success?session_id=${sessionId}`);
    await b.page.locator('#pending').waitFor();
    await card.deliver('checkout.session.completed', card.api.complete(sessionId));
    await b.page.locator('#paid-key').waitFor();
    assert.match(((await b.page.locator('#paid-key-secret').textContent()) ?? '').trim(), KEY);
    assert.equal((await card.success(sessionId)).status, 410, 'shown once');
    await checkPage(b, cardOrigin, 'checkout-polled');
  });
});
