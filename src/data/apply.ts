/** Lays one source's records into the indexes: shared by the bundled and the imported datasets. */
import type { BankRow } from './bundle/build.ts';
import { normalizeIid } from './clearing.ts';
import { type Indexes, toBic11 } from './indexes.ts';
import type { ClearingRecord, SanctionRecord } from './types.ts';

/** A sanctions list as loaded: who is on it by BIC. */
export interface SanctionsList {
  name: string;
  as_of: string;
  /** Present when only the download dates the list. */
  as_of_note?: string;
  /** Keyed by the listed BIC as published (8 or 11 characters). */
  byBic: Map<string, SanctionRecord[]>;
}

export function sanctionsList(name: string, asOf: string, records: SanctionRecord[], note?: string): SanctionsList {
  const byBic = new Map<string, SanctionRecord[]>();
  for (const r of records) byBic.set(r.bic, [...(byBic.get(r.bic) ?? []), r]);
  return { name, as_of: asOf, ...(note && { as_of_note: note }), byBic };
}

/**
 * A bank directory by country, one source: the first row of a code names the bank, every row
 * adds its BIC. `bicsOnly`: the country has a complete register loaded already, which alone
 * says which codes exist and who they are; this source then only adds further BICs to them.
 * `keepAnswered`: a code another loaded source answers keeps its name and first BIC, and this
 * source only adds its BIC (imports ranked below the bundled registers).
 */
export function applyBankDirectory(
  ix: Indexes,
  countries: Record<string, { as_of: string | null; rows: BankRow[] }>,
  source: string,
  bicsOnly: ReadonlySet<string> = new Set(),
  keepAnswered = false,
): void {
  for (const [country, { as_of, rows }] of Object.entries(countries)) {
    // Swiss and Liechtenstein IIDs are keyed without leading zeros, as the clearing table keys them
    const keyOf = country === 'CH' || country === 'LI' ? (c: string) => normalizeIid(c) ?? c : (c: string) => c;
    const bicNames = new BicNames();
    let previous: string | null = null;
    for (const [raw, bic, name] of rows) {
      const code = keyOf(raw);
      if (bicsOnly.has(country)) {
        if (bic && ix.bankCodes.has(`${country}:${code}`)) ix.addBankBic(country, code, bic);
        continue;
      }
      // a lower-ranked source (keepAnswered) never renames a code that a loaded register answers
      const answered = keepAnswered && code !== previous && ix.bankCodes.has(`${country}:${code}`);
      if (answered) {
        if (bic) ix.addBankBic(country, code, bic);
      } else if (code !== previous) ix.setBankCode(country, code, { bic, name, city: null, source, as_of });
      else if (bic) ix.addBankBic(country, code, bic);
      previous = code;
      if (bic) bicNames.add(toBic11(bic), name);
    }
    for (const [bic11, name] of bicNames.mostGiven())
      ix.addBic({ bic11, name, city: null, address: null, postcode: null, source, as_of });
  }
}

/**
 * The name of each BIC as most rows of a directory give it. A directory of branches lists one
 * BIC under many bank codes, each row with its branch's name ("MBH 103 Szent István tér" among
 * 112 rows of "MBH Bank Nyrt."): the BIC's name is the one most of them give, the first given
 * among equals, so that a BIC lookup names the institution an IBAN lookup names.
 */
class BicNames {
  private readonly counts = new Map<string, Map<string | null, number>>();

  add(bic11: string, name: string | null): void {
    const names = this.counts.get(bic11) ?? new Map<string | null, number>();
    names.set(name, (names.get(name) ?? 0) + 1);
    this.counts.set(bic11, names);
  }

  /** Each BIC, in the order first met, with its most given name (null when no row names it). */
  *mostGiven(): Generator<[string, string | null]> {
    for (const [bic11, names] of this.counts) {
      let best: [string | null, number] = [null, 0];
      for (const [name, count] of names) if (name && count > best[1]) best = [name, count];
      yield [bic11, best[0]];
    }
  }
}

/** Replaces the clearing table with `records` and derives bank codes and BIC entries from it. */
export function applyClearing(ix: Indexes, records: ClearingRecord[], source: string, asOf: string | null): void {
  ix.clearing.clear();
  for (const r of records) ix.clearing.set(r.iid, r);
  indexSwissClearing(ix, source, asOf);
}

/**
 * Derives bank codes and BIC entries from the clearing table. CH and LI IBANs carry the IID
 * (or, for a QR-IBAN, the QR-IID) as bank code; a concatenated IID resolves to its successor.
 */
function indexSwissClearing(ix: Indexes, source: string, asOf: string | null): void {
  for (const [iid, record] of ix.clearing) {
    let target = record;
    for (let hops = 0; target.successor_iid && hops < 5; hops++)
      target = ix.clearing.get(target.successor_iid) ?? target;
    if (!target.name) continue;
    const hq = target.headquarters_iid ? ix.clearing.get(target.headquarters_iid) : undefined;
    const bank = {
      bic: target.bic ?? hq?.bic ?? null,
      name: target.name,
      city: target.address.city,
      source,
      as_of: asOf,
    };
    ix.setBankCode('CH', iid, bank);
    ix.setBankCode('LI', iid, bank);
    // A QR-IID is its bank's second code, for QR references only (a QR-IBAN names the bank as
    // well as the IBAN with its own IID does): its BIC is listed once, from the bank's own IID.
    if (record.bic && !record.concatenated && record.iid_type !== 'qr_iid') {
      const { street, building_number, postal_code, city } = record.address;
      const address = [street, building_number].filter(Boolean).join(' ') || null;
      ix.addBic({
        bic11: toBic11(record.bic),
        name: record.name,
        city,
        address,
        postcode: postal_code,
        source,
        as_of: asOf,
      });
    }
  }
}
