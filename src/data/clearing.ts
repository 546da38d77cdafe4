import type { ClearingRecord } from './types.ts';

/** IIDs are compared without leading zeros: "100" and "00100" are the same institution. */
export const normalizeIid = (iid: string): string | null => {
  const digits = iid.trim();
  if (!/^\d{1,6}$/.test(digits)) return null;
  return String(Number(digits));
};

const yn = (v: string | undefined): boolean | null => (v === 'Y' ? true : v === 'N' ? false : null);
const text = (v: string | undefined): string | null => (v?.trim() ? v.trim() : null);
const IID_TYPES: Record<string, ClearingRecord['iid_type']> = {
  '1': 'headquarters',
  '2': 'main_branch',
  '4': 'qr_iid',
};

/** One row of the SIX BankMaster V3 CSV, already split on ';', in the file's column order. */
export function clearingFromSixV3(f: string[]): ClearingRecord | null {
  const iid = normalizeIid(f[0] ?? '');
  if (!iid) return null;
  return {
    iid,
    valid_on: text(f[1]),
    concatenated: f[2] === 'Y',
    successor_iid: f[3] ? normalizeIid(f[3]) : null,
    sic_iid: text(f[4]),
    headquarters_iid: f[5] ? normalizeIid(f[5]) : null,
    iid_type: IID_TYPES[f[6] ?? ''] ?? null,
    qr_iid_allocation: f[7] ? normalizeIid(f[7]) : null,
    name: text(f[8]),
    address: {
      street: text(f[9]),
      building_number: text(f[10]),
      postal_code: text(f[11]),
      city: text(f[12]),
      country: text(f[13]),
    },
    bic: text(f[14]),
    sic_participation: yn(f[15]),
    rtgs_customer_payments_chf: yn(f[16]),
    instant_payments_chf: yn(f[17]),
    eurosic_participation: yn(f[18]),
    lsv_bdd_chf: yn(f[19]),
    lsv_bdd_eur: yn(f[20]),
  };
}
