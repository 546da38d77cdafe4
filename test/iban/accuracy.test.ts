/**
 * Cross-checks against the reference data in /work/shared/data (skipped when it is absent):
 * the original SWIFT registry text, python-stdnum's registry (release 101), schwifty's
 * registry, and the Swiss IID directory for QR-IBAN detection.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { COUNTRIES, type CountrySpec, validateIban } from '../../src/iban/index.ts';
import { withCheckDigits } from './helpers.ts';

const DATA = new URL('../../../shared/data/', import.meta.url);
const file = (path: string): URL => new URL(path, DATA);
const skip = (path: string): false | string => !existsSync(file(path)) && `reference data ${path} is absent`;
const spec = (code: string): CountrySpec | undefined => (COUNTRIES as Record<string, CountrySpec>)[code];

/** The registry TXT is tab-separated and transposed (one row per data element, one column per country). */
function registryColumns(): Map<string, string>[] {
  const text = readFileSync(file('swift-iban-registry-raw/iban-registry-100.txt'), 'latin1');
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === '\t') {
      row.push(cell);
      cell = '';
    } else if (c === '\n') {
      row.push(cell.replace(/\r$/, ''));
      rows.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  const columns: Map<string, string>[] = [];
  for (let col = 1; col < rows[0]!.length; col++) {
    columns.push(new Map(rows.filter((r) => r[0] !== '').map((r) => [r[0]!.trim(), (r[col] ?? '').trim()])));
  }
  return columns.filter((c) => /^[A-Z]{2}$/.test(c.get('IBAN prefix country code (ISO 3166)') ?? ''));
}

/** Registry position text `1-4` as our 0-based `start-end`, or null. */
const registryRange = (text: string | undefined): string | null => {
  const m = /^(\d+)-(\d+)$/.exec(text ?? '');
  return m ? `${Number(m[1]) - 1}-${m[2]}` : null;
};
/** `4n6n10n` as one class letter a position, so that equivalent notations compare equal. */
const expand = (structure: string): string =>
  structure.replaceAll('!', '').replace(/(\d+)([nac])/g, (_, n: string, c: string) => c.repeat(Number(n)));
const ourRange = (r: { start: number; end: number } | null): string | null => (r ? `${r.start}-${r.end}` : null);

describe('registry table against the SWIFT registry text', {
  skip: skip('swift-iban-registry-raw/iban-registry-100.txt'),
}, () => {
  it('has the same 89 countries, structures, lengths, bank and branch positions', () => {
    const columns = registryColumns();
    assert.equal(columns.length, 89);
    for (const col of columns) {
      const code = col.get('IBAN prefix country code (ISO 3166)')!;
      const s = spec(code);
      assert.ok(s, `${code} missing`);
      assert.equal(s.structure, col.get('BBAN structure')!.replaceAll('!', ''), code);
      assert.equal(s.length, Number(col.get('IBAN length')), code);
      assert.equal(
        ourRange(s.bank),
        registryRange(col.get('Bank identifier position within the BBAN')),
        `${code} bank`,
      );
      // France's registry entry has no branch; mod97 reports the code guichet (positions 6-10) as Monaco's does.
      if (code !== 'FR')
        assert.equal(
          ourRange(s.branch),
          registryRange(col.get('Branch identifier position within the BBAN')),
          `${code} branch`,
        );
    }
  });

  it('validates every electronic and print format example of the registry', () => {
    for (const col of registryColumns()) {
      for (const key of ['IBAN electronic format example', 'IBAN print format example']) {
        const r = validateIban(col.get(key)!);
        assert.deepEqual(r.errors, [], `${key}: ${col.get(key)}`);
      }
    }
  });
});

describe('registry table against python-stdnum (registry release 101)', {
  skip: skip('python-stdnum-data/stdnum_iban.dat'),
}, () => {
  it('agrees on every country and BBAN structure', () => {
    const lines = readFileSync(file('python-stdnum-data/stdnum_iban.dat'), 'utf8')
      .split('\n')
      .filter((l) => /^[A-Z]{2} /.test(l));
    assert.equal(lines.length, Object.keys(COUNTRIES).length);
    for (const line of lines) {
      const code = line.slice(0, 2);
      const bban = /bban="([^"]+)"/.exec(line)![1]!;
      assert.equal(spec(code)?.structure, bban.replaceAll('!', ''), code);
    }
  });
});

describe('registry table against schwifty', { skip: skip('schwifty-iban-registry/generated.json') }, () => {
  it('agrees on the IBAN length and per-position structure of every country both know', () => {
    const registry = JSON.parse(readFileSync(file('schwifty-iban-registry/generated.json'), 'utf8')) as Record<
      string,
      { bban_spec: string; iban_length: number }
    >;
    let compared = 0;
    for (const [code, entry] of Object.entries(registry)) {
      const s = spec(code);
      if (s === undefined) continue; // territories (AX, GF, ...) use their parent's code in IBANs
      assert.equal(s.length, entry.iban_length, code);
      assert.equal(expand(s.structure), expand(entry.bban_spec), code);
      compared++;
    }
    assert.ok(compared >= 85, `only ${compared} countries compared`);
  });
});

describe('QR-IBAN detection against the Swiss IID directory', {
  skip: skip('iban-to-bic-entrecode/datasets-extended/ch.json'),
}, () => {
  it('an IBAN built on a QR-IID is a QR-IBAN, and one built on any other IID is not', () => {
    const iids = Object.values(
      JSON.parse(readFileSync(file('iban-to-bic-entrecode/datasets-extended/ch.json'), 'utf8')) as Record<
        string,
        { code: string; iidType: string }
      >,
    );
    assert.ok(iids.length > 1000);
    for (const { code, iidType } of iids) {
      const iban = withCheckDigits('CH', `${code.padStart(5, '0')}000012345678`);
      const r = validateIban(iban);
      assert.equal(r.valid, true, iban);
      assert.equal(r.qr_iban, iidType === 'QR_IID', `${iban} (${iidType})`);
    }
  });
});
