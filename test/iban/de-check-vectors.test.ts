/**
 * The German account check inside validation: no valid German IBAN of the project's test vectors,
 * the SWIFT registry or the Bundesbank's own test accounts is newly refused, with every BLZ's
 * method as schwifty's copy of the Bundesbank directory gives it (skipped when absent).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { DE_METHODS, germanMethodLookup, validateIban } from '../../src/iban/index.ts';
import { SHARED_DATA, skipUnlessShared } from '../support/shared-data.ts';
import { BUNDESBANK } from './bundesbank-accounts.ts';
import { oneDigitOff, withCheckDigits } from './helpers.ts';

const REGISTRY = 'schwifty-bank-registry/generated_de.json';

function registryMethods(): Map<string, string> {
  const rows = JSON.parse(readFileSync(SHARED_DATA + REGISTRY, 'utf8')) as {
    bank_code: string;
    checksum_algo: string;
  }[];
  return new Map(rows.map((r) => [r.bank_code, r.checksum_algo]));
}

/** Every DE IBAN written in the project's other IBAN tests (with or without spaces); this file's own are mistyped on purpose. */
function projectVectors(): string[] {
  const dir = new URL('./', import.meta.url);
  const found = new Set<string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !import.meta.url.endsWith(`/${f}`))) {
    for (const m of readFileSync(new URL(file, dir), 'utf8').matchAll(/DE\d{2}(?: ?\d{4}){4} ?\d{2}/g)) {
      found.add(m[0].replaceAll(' ', ''));
    }
  }
  return [...found];
}

describe('German account check against the Bundesbank directory', { skip: skipUnlessShared(REGISTRY) }, () => {
  it('covers the methods of at least 99 % of the directory rows', () => {
    const rows = JSON.parse(readFileSync(SHARED_DATA + REGISTRY, 'utf8')) as { checksum_algo: string }[];
    const covered = rows.filter((r) => DE_METHODS[r.checksum_algo] !== undefined).length;
    assert.ok(covered / rows.length >= 0.99, `${covered} of ${rows.length}`);
  });

  it("newly refuses no valid IBAN of the project's test vectors", () => {
    const methods = registryMethods();
    const vectors = projectVectors().filter((iban) => validateIban(iban).valid);
    assert.ok(vectors.length >= 1);
    for (const iban of vectors) {
      const r = validateIban(iban, { germanMethodOf: germanMethodLookup((blz) => methods.get(blz) ?? null) });
      assert.equal(r.valid, true, `${iban}: ${JSON.stringify(r.errors)}`);
    }
  });

  it('accepts every Bundesbank test account at every bank of its method that the registry lists', () => {
    const methods = registryMethods();
    const germanMethodOf = germanMethodLookup((blz) => methods.get(blz) ?? null);
    let checked = 0;
    for (const [method, { valid }] of Object.entries(BUNDESBANK)) {
      const banks = [...methods].filter(([, m]) => m === method).map(([blz]) => blz);
      for (const blz of banks) {
        for (const account of valid) {
          const r = validateIban(withCheckDigits('DE', blz + account.padStart(10, '0')), { germanMethodOf });
          assert.deepEqual([r.valid, r.national_check], [true, 'passed'], `${blz} ${account} (${method})`);
          checked++;
        }
      }
    }
    assert.ok(checked > 1000, `only ${checked} checked`);
  });

  it('refuses a mistyped account that keeps the IBAN checksum right, and suggests nothing its bank refuses', () => {
    const methods = registryMethods();
    const germanMethodOf = germanMethodLookup((blz) => methods.get(blz) ?? null);
    assert.equal(methods.get('37040044'), '13');
    const refused = validateIban('DE55370400440532014000', { germanMethodOf });
    assert.deepEqual(
      refused.errors.map((e) => e.code),
      ['de_check_failed'],
    );
    const typo = oneDigitOff('DE89370400440532013000', 15);
    const r = validateIban(`${typo.slice(0, 2)}00${typo.slice(4)}`, { germanMethodOf });
    for (const s of r.suggestions) assert.notEqual(validateIban(s, { germanMethodOf }).national_check, 'failed', s);
  });
});
