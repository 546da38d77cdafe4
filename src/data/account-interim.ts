/**
 * Interim lookups for the account answers, over what is loaded today: the check-digit methods
 * and IBAN rules of an imported Bundesbank BLZ file (the bundled BLZ package carries neither),
 * and a bank's BIC from the bank-code directory and, for CH and LI, the clearing entry. The data
 * plane's fuller implementation (every source's BICs, bundled methods) replaces this file whole.
 */
import type { DatasetStore } from '../store/types.ts';
import type { BlzRecord } from './importers/index.ts';
import { toBic11 } from './indexes.ts';
import type { Lookups } from './plane.ts';

export interface AccountLookups {
  germanCheckMethod(blz: string): string | null;
  germanIbanRule(blz: string): string | null;
  bicsForBank(countryCode: string, bankCode: string, branchCode?: string | null): string[];
}

export async function interimAccountLookups(store: DatasetStore, lookups: Lookups): Promise<AccountLookups> {
  const methods = new Map<string, string>();
  const rules = new Map<string, string>();
  const blz = await store.getDataset('bundesbank-blz');
  for (const r of (blz?.records ?? []) as BlzRecord[]) {
    if (r.method) methods.set(r.blz, r.method);
    if (r.iban_rule) rules.set(r.blz, r.iban_rule);
  }
  return {
    germanCheckMethod: (code) => methods.get(code) ?? null,
    germanIbanRule: (code) => rules.get(code) ?? null,
    bicsForBank(countryCode, bankCode, branchCode) {
      const found = new Set<string>();
      const bic = lookups.bankForIban(countryCode, bankCode, branchCode)?.bic;
      if (bic) found.add(toBic11(bic));
      if (countryCode === 'CH' || countryCode === 'LI') {
        const clearingBic = lookups.clearingSummary(bankCode)?.bic;
        if (clearingBic) found.add(toBic11(clearingBic));
      }
      return [...found];
    },
  };
}
