import type { BankByCode, BicEntry, ClearingRecord } from './types.ts';

export interface LeiEntry {
  lei: string;
  source: string;
  as_of: string | null;
}

/**
 * The in-memory lookup tables of the data plane. Sources are added from lowest to highest
 * rank: a later bank-code or clearing entry replaces an earlier one, and a later BIC entry is
 * put in front, so that imported data outranks bundled data.
 */
export class Indexes {
  readonly bankCodes = new Map<string, BankByCode>();
  readonly bics = new Map<string, BicEntry[]>();
  readonly bic11sByBic8 = new Map<string, string[]>();
  readonly clearing = new Map<string, ClearingRecord>();
  readonly leis = new Map<string, LeiEntry>();

  setBankCode(country: string, code: string, bank: BankByCode): void {
    this.bankCodes.set(`${country}:${code}`, bank);
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
