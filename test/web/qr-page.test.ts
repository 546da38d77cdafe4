/**
 * /qr in a real browser (Debian's chromium) against the real service: a person fills the
 * payment, sees the code drawn (the code in the image is the payload shown), and sees each
 * error of the API beside the field it names; at 1280 and 360 px (browser.ts's checks).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { readImage } from '../../src/transfer/read.ts';
import { startService } from '../support/app.ts';
import { checkPage, chromiumMissing, openBrowser, type Browser } from './browser.ts';

const svc = chromiumMissing ? (null as never) : await startService();
const origin: string = svc?.url;

describe('/qr in a browser', { skip: chromiumMissing }, () => {
  let b: Browser;
  before(async () => {
    b = await openBrowser(origin);
  });
  after(async () => {
    await b?.close();
  });
  // By accessible name, as assistive technology and agents find a field (getByLabel would read "(optional)" too).
  const field = (label: string) => b.page.getByRole('textbox', { name: label, exact: true });

  test('the code is drawn as the payment is typed, and reads back to the payload shown', async () => {
    const key = await svc.newKey('127.0.0.31');
    await b.page.goto(`${origin}/qr`);
    await checkPage(b, origin, 'qr');
    await field('API key').fill(key);
    await field('Paid to (name)').fill('ACME GmbH');
    await field('IBAN').fill('DE89 3704 0044 0532 0130 00');
    assert.equal(await b.page.getByLabel('Currency').inputValue(), 'EUR');
    await field('Amount').fill('149.90');
    await b.page.getByText('EPC QR code, ready to scan').waitFor();
    const payload = await b.page.locator('#qr-payload').textContent();
    assert.equal(payload, 'BCD\n002\n1\nSCT\n\nACME GmbH\nDE89370400440532013000\nEUR149.90');
    // The image shown is that code: rasterised by the browser, read by our reader.
    const shot = await b.page.locator('#qr-image').screenshot({ type: 'png' });
    assert.deepEqual(readImage(shot), { ok: true, payload });
    assert.ok(PNG.sync.read(shot).width >= 300);
    assert.match((await b.page.locator('#download-svg').getAttribute('href')) ?? '', /^data:image\/svg\+xml;base64,/);
    const download = b.page.waitForEvent('download');
    await b.page.getByRole('button', { name: 'Download PNG' }).click();
    assert.equal((await download).suggestedFilename(), 'payment-qr.png');
    await checkPage(b, origin, 'qr-drawn');
    // Drawn once for the typed payment (the amount's keystrokes wait for a pause), once for the PNG.
    const used = (await svc.call('/v1/keys/usage', { key })).body.used;
    assert.ok(used >= 2 && used <= 4, `used ${used}`);
    // A warning of the check is said with the code it does not stop.
    await b.page.locator('#qr-reference').fill('RF18 5390 0754 7034');
    await b.page.locator('#qr-remittance').fill('Invoice 2026-118');
    await b.page.getByText('not both: the text is dropped').waitFor();
    assert.match((await b.page.locator('#qr-payload').textContent()) ?? '', /\nRF18539007547034$/);
  });

  test('the fields have the names docs/api.md gives them; "(optional)" is their description, not part of the name', async () => {
    await b.page.goto(`${origin}/qr`);
    for (const name of ['API key', 'Paid to (name)', 'IBAN', 'BIC', 'Amount', 'Reference', 'Message to the payee']) {
      const box = b.page.getByRole('textbox', { name, exact: true });
      assert.equal(await box.count(), 1, name);
    }
    for (const name of ['Standard', 'Currency'])
      assert.equal(await b.page.getByRole('combobox', { name, exact: true }).count(), 1);
    const bic = b.page.getByRole('textbox', { name: 'BIC', exact: true });
    const described = (await bic.getAttribute('aria-describedby')) ?? '';
    const said = await Promise.all(described.split(' ').map((id) => b.page.locator(`#${id}`).textContent()));
    assert.ok(said.includes('(optional)'), said.join('|'));
  });

  test('a key that drew a code is kept for the tab, and filled in when /qr opens again', async () => {
    const key = await svc.newKey('127.0.0.33');
    await b.page.goto(`${origin}/qr`);
    await field('API key').fill(key);
    await field('Paid to (name)').fill('ACME GmbH');
    await field('IBAN').fill('DE89 3704 0044 0532 0130 00');
    await b.page.getByText('EPC QR code, ready to scan').waitFor();
    await b.page.goto(`${origin}/qr`);
    assert.equal(await field('API key').inputValue(), key);
  });

  test('each error is shown beside its field; fixing them draws the Swiss QR-bill', async () => {
    const key = await svc.newKey('127.0.0.32');
    await b.page.goto(`${origin}/qr`);
    await field('API key').fill(key);
    await field('Paid to (name)').fill('Robert Schneider AG');
    await field('IBAN').fill('CH44 3199 9123 0008 8901 3');
    await b.page.getByRole('button', { name: 'Draw the code' }).click();
    await b.page.getByText('This payment cannot be coded yet.').waitFor();
    assert.equal(await field('IBAN').getAttribute('aria-invalid'), 'true');
    assert.match((await b.page.locator('#err-qr-iban').textContent()) ?? '', /IBAN/);
    assert.equal(await b.page.locator('#err-qr-iban').isVisible(), true);
    assert.match((await b.page.locator('[id="err-creditor.address"]').textContent()) ?? '', /address/);
    assert.equal(await field('Paid to (name)').getAttribute('aria-invalid'), null);
    await checkPage(b, origin, 'qr-errors');

    await field('IBAN').fill('CH44 3199 9123 0008 8901 2');
    await field('Street').fill('Rue du Lac');
    await field('Number').fill('1268');
    await field('Postal code').fill('2501');
    await field('Town').fill('Biel');
    await field('Country').fill('CH');
    // The currency followed the Swiss IBAN: nobody picked CHF.
    assert.equal(await b.page.getByLabel('Currency').inputValue(), 'CHF');
    await b.page.getByLabel('Standard').selectOption('epc');
    assert.equal(await b.page.getByLabel('Currency').inputValue(), 'EUR', 'an EPC code is in euros');
    await b.page.getByLabel('Standard').selectOption('');
    assert.equal(await b.page.getByLabel('Currency').inputValue(), 'CHF');
    await field('Reference').fill('21 00000 00003 13947 14300 09017');
    await b.page.getByRole('button', { name: 'Draw the code' }).click();
    await b.page.getByText('Swiss QR-bill code, ready to scan').waitFor();
    assert.equal(await b.page.locator('#err-qr-iban').isVisible(), false);
    assert.equal(await field('IBAN').getAttribute('aria-invalid'), null);
    assert.match((await b.page.locator('#qr-payload').textContent()) ?? '', /^SPC\n0200\n1\nCH4431999123000889012\n/);
    await checkPage(b, origin, 'qr-swiss');

    // A currency the person picked stays, whatever IBAN is typed next.
    await b.page.getByLabel('Currency').selectOption('EUR');
    await field('IBAN').fill('CH44 3199 9123 0008 8901 2 ');
    assert.equal(await b.page.getByLabel('Currency').inputValue(), 'EUR');
  });
});
