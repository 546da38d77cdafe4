/** Finding IBANs in text (src/iban/extract.ts): what a reader of invoices and scans would mark, and nothing else. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractIbans } from '../../src/iban/extract.ts';
import { computeCheckDigits, validateIban } from '../../src/iban/index.ts';
import { REGISTRY_EXAMPLES } from './registry-examples.ts';

const judge = (iban: string) => validateIban(iban);
const found = (text: string) => extractIbans(text, judge).items;
const matches = (text: string) => found(text).map((f) => f.match);

/** Groups of four separated by `sep`, as IBANs are printed. */
const print = (iban: string, sep = ' ') => iban.replace(/(.{4})(?=.)/g, `$1${sep}`);

const GERMAN_INVOICE = `Musterfirma GmbH · Hauptstraße 5 · 10115 Berlin
USt-IdNr.: DE123456789 · Steuernummer 27/123/45678 · HRB 12345 B
Rechnung Nr. RE-2026-00123 vom 05.11.2026, Kundennummer 100234
Pos. | Artikel            | Menge | Preis
1    | Beratung (Std.)    | 12    | 1.440,00 €
Gesamtbetrag: 1.713,60 € (inkl. 19 % MwSt.)
Bitte überweisen Sie den Betrag bis zum 19.11.2026 auf folgendes Konto:
Commerzbank Köln, IBAN: DE89 3704 0044 0532 0130 00, BIC: COBADEFFXXX
oder elektronisch: „DE89370400440532013000“. Tel. +49 30 1234567-0`;

const FRENCH_INVOICE = `Facture n° F-2026-0042 du 5 novembre 2026 — SIRET 123 456 789 00012
TVA intracommunautaire : FR40303265045
Montant TTC : 1 234,56 € ; échéance à 30 jours.
Règlement par virement : IBAN FR14\u00a02004\u00a01010\u00a00505\u00a00001\u00a03M02\u00a0606 – BIC BNPAFRPPXXX
Coordonnées bancaires (RIB) : banque 20041 guichet 01005 compte 0500013M026 clé 06`;

const ENGLISH_INVOICE = `INVOICE #INV-10492                     Date: 2026-11-05
| Payee           | Bank             | IBAN                         |
|-----------------|------------------|------------------------------|
| ACME Ltd        | NatWest          | GB29NWBK60161331926819       |
| ACME Europe BV  | ING              | nl91-abna-0417-1643-00       |
Sort code 60-16-13, account 31926819. Order ref. PO-2026-7781, phone +44 20 7946 0958.
Please quote (IBAN:BE68539007547034) with your payment.`;

describe('invoices in German, French and English', () => {
  test('every IBAN is found, in print or electronic form, in tables, quotes and brackets, and nothing else', () => {
    assert.deepEqual(matches(GERMAN_INVOICE), ['DE89 3704 0044 0532 0130 00', 'DE89370400440532013000']);
    assert.deepEqual(matches(FRENCH_INVOICE), ['FR14\u00a02004\u00a01010\u00a00505\u00a00001\u00a03M02\u00a0606']);
    assert.deepEqual(matches(ENGLISH_INVOICE), [
      'GB29NWBK60161331926819',
      'nl91-abna-0417-1643-00',
      'BE68539007547034',
    ]);
  });

  test('each item names the exact span of the text it was found at, and its validate answer', () => {
    for (const text of [GERMAN_INVOICE, FRENCH_INVOICE, ENGLISH_INVOICE]) {
      for (const item of found(text)) {
        assert.equal(text.slice(item.start, item.end), item.match);
        assert.equal(item.result.valid, true, item.match);
        assert.equal(item.ocr, null);
        assert.equal(item.result.iban, item.match.replace(/[\s\u00a0-]/g, '').toUpperCase());
      }
    }
    assert.deepEqual(
      found(ENGLISH_INVOICE).map((f) => [f.result.iban, f.result.country?.code]),
      [
        ['GB29NWBK60161331926819', 'GB'],
        ['NL91ABNA0417164300', 'NL'],
        ['BE68539007547034', 'BE'],
      ],
    );
  });

  test('offsets are UTF-16 code units, so text before the IBAN outside the BMP counts twice', () => {
    const text = '💶💶 Zahlung an DE89370400440532013000';
    const [item] = found(text);
    assert.equal(item!.start, text.indexOf('DE89'));
    assert.equal(item!.start, 16);
    assert.equal(item!.end, text.length);
  });
});

describe('what is not an IBAN', () => {
  test('an IBAN split over a line break is not found, in either form', () => {
    assert.deepEqual(matches('IBAN: DE89 3704 0044\n0532 0130 00'), []);
    assert.deepEqual(matches('IBAN: DE8937040044\r\n0532013000'), []);
    assert.deepEqual(matches('GB29 NWBK 6016 1331\u20289268 19'), []);
  });

  test('numbers and words of invoices are not listed', () => {
    const text = [
      'USt-IdNr. DE123456789, VAT GB123456789, BTW NL123456789B01, TVA FR40303265045',
      'Tel. +49 (0)30 1234 5678, Fax 0044 20 7946 0958, Datum 2026-11-05, Betrag 1.234.567,89 EUR',
      'BIC COBADEFFXXX, DEUTDEFF500, BNPAFRPPXXX; Kontonummer 0532013000, BLZ 370 400 44',
      'Sendungsnummer 00340434161234567890, Bestellnr. DE-2026-000123-45, ISBN 978-3-16-148410-0',
      'noncontributory, DESOXYRIBONUKLEIN, Deutschlandfunk12345, LU-Luxembourg-2026',
      'a hash: de8a3f9c2b7e4d6f1a0c5b9e8d7f6a5b4c3d2e1f, a UUID 3f2504e0-4f89-11d3-9a0c-0305e82c3301',
    ].join('\n');
    assert.deepEqual(matches(text), []);
  });

  test('a run longer or shorter than its country length is not an IBAN', () => {
    assert.deepEqual(matches('DE893704004405320130001 and DE8937040044053201300'), []);
    assert.deepEqual(matches('DE89 3704 0044 0532 0130 0012 and DE89 3704 0044 0532 0130 0'), []);
  });

  test('mixed forms are neither electronic nor print form', () => {
    assert.deepEqual(matches('DE89 370400440532013000 or DE89370400440532 0130 00'), []);
  });
});

describe('IBANs that fail a check', () => {
  test('a run of IBAN shape and length that fails is listed invalid with its errors and suggestions', () => {
    const [item] = found('Konto: DE89 3704 0044 0532 0130 01.');
    assert.equal(item!.match, 'DE89 3704 0044 0532 0130 01');
    assert.equal(item!.result.valid, false);
    assert.deepEqual(
      item!.result.errors.map((e) => e.code),
      ['checksum_failed'],
    );
    assert.ok(item!.result.suggestions.includes('DE89370400440532013000'));
    assert.equal(item!.ocr, null);
  });

  test('inside a word only a valid IBAN is listed (a reference that merely holds a country code is not)', () => {
    assert.deepEqual(matches('KontoDE89370400440532013000 und IBANDE89370400440532013000'), [
      'DE89370400440532013000',
      'DE89370400440532013000',
    ]);
    assert.deepEqual(matches('RefDE89370400440532013001'), []);
    // Letters glued after it, where the IBAN must end in a digit: the same rule.
    assert.deepEqual(matches('Betrag an DE89370400440532013000EUR, DE89 3704 0044 0532 0130 00BIC'), [
      'DE89370400440532013000',
      'DE89 3704 0044 0532 0130 00',
    ]);
    assert.deepEqual(matches('DE89370400440532013001EUR'), []);
    // A digit glued after it makes a longer number; a letter where the IBAN may end in a letter, a longer code.
    assert.deepEqual(matches('DE893704004405320130001 BR1800360305000010009795493C1X'), []);
    // After a glued IBAN or IBAN: the word starts with the IBAN, so a failing one is listed too.
    assert.deepEqual(matches('IBAN:DE89370400440532013001'), ['DE89370400440532013001']);
  });
});

describe('scanned text (OCR)', () => {
  test('an O read for a 0 in the account number is repaired, first in suggestions, and said so', () => {
    const text = 'IBAN DE89 37O4 0044 0532 0130 00';
    const [item] = found(text);
    assert.equal(item!.match, 'DE89 37O4 0044 0532 0130 00');
    assert.equal(item!.result.valid, false);
    assert.equal(item!.result.suggestions[0], 'DE89370400440532013000');
    const reading = { at: text.indexOf('O'), found: 'O', read_as: '0' };
    assert.deepEqual(item!.ocr, { iban: 'DE89370400440532013000', ...reading, readings: [reading] });
  });

  test('every confusion of a line is read at once (docs/api.md, "Find IBANs in text"): two O for 0, and more than two', () => {
    const text = 'Konto: DE89 37O4 0044 O532 0130 00 (Commerzbank)';
    const [item] = found(text);
    assert.equal(item!.match, 'DE89 37O4 0044 O532 0130 00');
    assert.equal(item!.result.valid, false);
    assert.equal(item!.result.suggestions[0], 'DE89370400440532013000');
    assert.equal(item!.ocr?.iban, 'DE89370400440532013000');
    assert.deepEqual(item!.ocr?.readings, [
      { at: text.indexOf('O4'), found: 'O', read_as: '0' },
      { at: text.indexOf('O532'), found: 'O', read_as: '0' },
    ]);
    // Five confusions are beyond an IBAN's shape, but the reading repairs them, so it is listed.
    const many = found('IBAN DE89 37O4 OO44 O532 O130 00.');
    assert.equal(many.length, 1);
    assert.equal(many[0]!.ocr?.iban, 'DE89370400440532013000');
    assert.equal(many[0]!.ocr?.readings.length, 5);
    // Both directions in one line: a B scanned as 8 where a letter must be, an O for a 0.
    const both = found('GB29 NW8K 6O16 1331 9268 19');
    assert.deepEqual(
      both[0]!.ocr?.readings.map((r) => [r.found, r.read_as]),
      [
        ['8', 'B'],
        ['O', '0'],
      ],
    );
  });

  test('a 1 where a letter must be is tried as I and as L: the valid reading wins', () => {
    const iban = `GB${computeCheckDigits('GB', 'LOYD30901212345678')}LOYD30901212345678`;
    const scanned = `${iban.slice(0, 4)}1OYD3O901212345678`; // L scanned as 1, O stays a letter, a 0 as O
    const [item] = found(`Pay ${scanned} today`);
    assert.equal(item!.ocr?.iban, iban);
    assert.deepEqual(
      item!.ocr?.readings.map((r) => [r.found, r.read_as]),
      [
        ['1', 'L'],
        ['O', '0'],
      ],
    );
  });

  test('a lower-case l read for a 1, and an O in the check digits', () => {
    const text = 'Payee GB29 NWBK 6016 l331 9268 19, beneficiario IT6O X054 2811 1010 0000 0123 456';
    const items = found(text);
    assert.deepEqual(
      items.map((i) => [i.match, i.result.suggestions[0], i.ocr?.found, i.ocr?.read_as]),
      [
        ['GB29 NWBK 6016 l331 9268 19', 'GB29NWBK60161331926819', 'l', '1'],
        ['IT6O X054 2811 1010 0000 0123 456', 'IT60X0542811101000000123456', 'O', '0'],
      ],
    );
  });

  test('a digit read for a letter where the structure asks for a letter (0 for O, 8 for B)', () => {
    const [item] = found('NatWest GB29 NW8K 6016 1331 9268 19');
    assert.equal(item!.ocr?.iban, 'GB29NWBK60161331926819');
    assert.equal(item!.ocr?.read_as, 'B');
  });

  test('no repair where the structure accepts both classes, nor when the reading does not hold', () => {
    // FR's account part is alphanumeric: an O there is a letter the structure allows.
    const fr = found('FR14 2004 1010 0505 0001 3MO2 606');
    assert.equal(fr[0]?.ocr ?? null, null);
    const wrong = found('DE89 37O4 0O44 0532 0130 01');
    assert.equal(wrong.length, 1);
    assert.equal(wrong[0]!.ocr, null);
    assert.equal(wrong[0]!.result.valid, false);
  });
});

describe('every registry example IBAN', () => {
  for (const [form, shape] of [
    ['electronic', (iban: string) => iban],
    ['print', (iban: string) => print(iban)],
    ['print with hyphens, lower case', (iban: string) => print(iban, '-').toLowerCase()],
    ['print with no-break spaces', (iban: string) => print(iban, '\u00a0')],
  ] as const) {
    test(`is found in a sentence in ${form} form`, () => {
      for (const iban of REGISTRY_EXAMPLES) {
        const written = shape(iban);
        const text = `Please pay the invoice (no. 2026-118) to account ${written}, thank you.`;
        const items = found(text);
        assert.deepEqual(
          items.map((i) => [i.match, i.result.iban, i.result.valid]),
          [[written, iban, true]],
          iban,
        );
      }
    });
  }

  test('all at once, in a table, in text order', () => {
    const text = REGISTRY_EXAMPLES.map((iban, i) => `| ${i + 1} | "${print(iban)}" |`).join('\n');
    assert.deepEqual(
      found(text).map((i) => i.result.iban),
      [...REGISTRY_EXAMPLES],
    );
  });
});

test('the list stops at the maximum and says it was cut', () => {
  const text = Array.from({ length: 5 }, () => 'DE89370400440532013000').join(' ');
  const cut = extractIbans(text, judge, 3);
  assert.deepEqual([cut.items.length, cut.truncated], [3, true]);
  const whole = extractIbans(text, judge, 5);
  assert.deepEqual([whole.items.length, whole.truncated], [5, false]);
});
