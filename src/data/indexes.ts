import type { Table } from './compact-table.ts';
import type { BankByCode, BicEntry, ClearingRecord } from './types.ts';

export interface LeiEntry {
  lei: string;
  source: string;
  as_of: string | null;
}

/**
 * What the lookups read of the indexes (plane.ts): the Maps of `Indexes`, or the tables of the
 * build's compact copy of the bundled data (compact.ts), which decode an entry when asked for it.
 */
export interface IndexReader {
  readonly bankCodes: Table<BankByCode>;
  readonly bics: Table<BicEntry[]>;
  readonly bic11sByBic8: Table<string[]>;
  readonly clearing: Table<ClearingRecord>;
  readonly leis: Table<LeiEntry>;
  readonly bankBics: Table<string[]>;
  readonly deCheckMethods: Table<string>;
  readonly deIbanRules: Table<string>;
}

/**
 * The in-memory lookup tables of the data plane. Sources are added from lowest to highest
 * rank: a later bank-code or clearing entry replaces an earlier one, and a later BIC entry is
 * put in front, so that imported data outranks bundled data.
 */
export class Indexes implements IndexReader {
  readonly bankCodes = new Map<string, BankByCode>();
  readonly bics = new Map<string, BicEntry[]>();
  readonly bic11sByBic8 = new Map<string, string[]>();
  readonly clearing = new Map<string, ClearingRecord>();
  readonly leis = new Map<string, LeiEntry>();
  /** Every BIC11 any source gives for a bank code (`CC:code`), in the order the sources were added. */
  readonly bankBics = new Map<string, string[]>();
  /** Bundesbank check-digit method ('00'..'E4') by German bank code. */
  readonly deCheckMethods = new Map<string, string>();
  /** Bundesbank IBAN rules, known only from an imported BLZ file. */
  readonly deIbanRules = new Map<string, string>();

  setBankCode(country: string, code: string, bank: BankByCode): void {
    this.bankCodes.set(`${country}:${code}`, bank);
    if (bank.bic) this.addBankBic(country, code, bank.bic, true);
  }

  /**
   * Records that a source names `bic` for a bank code. `first`: the source now ranks first for
   * the code, so its BIC leads the list.
   */
  addBankBic(country: string, code: string, bic: string, first = false): void {
    const key = `${country}:${code}`;
    const bic11 = toBic11(bic.toUpperCase());
    const known = this.bankBics.get(key);
    if (!known) this.bankBics.set(key, [bic11]);
    else if (first) this.bankBics.set(key, [bic11, ...known.filter((b) => b !== bic11)]);
    else if (!known.includes(bic11)) known.push(bic11);
  }

  addBic(entry: BicEntry): void {
    const list = this.bics.get(entry.bic11);
    if (list) {
      // one entry per source: several bank codes of one source often share a BIC
      if (!list.some((e) => e.source === entry.source)) list.unshift(entry);
      return;
    }
    this.bics.set(entry.bic11, [entry]);
    const bic8 = entry.bic11.slice(0, 8);
    const siblings = this.bic11sByBic8.get(bic8);
    if (siblings) siblings.push(entry.bic11);
    else this.bic11sByBic8.set(bic8, [entry.bic11]);
  }

  /** Fills name and city of bank-code entries whose source gives only a BIC. */
  completeBankNames(): void {
    for (const bank of this.bankCodes.values()) {
      if (!bank.bic || (bank.name && bank.city)) continue;
      const known = this.bics.get(toBic11(bank.bic))?.find((e) => e.name);
      if (!known) continue;
      bank.name ??= known.name;
      bank.city ??= known.city;
    }
  }
}

export const toBic11 = (bic: string): string => (bic.length === 8 ? `${bic}XXX` : bic);
