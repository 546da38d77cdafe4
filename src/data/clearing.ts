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

/** An entry of the older BankMaster V2 JSON (as shipped by @nexys/swiss-banks). */
export interface SixV2Entry {
  iid: number;
  branchId: string;
  newIid?: number;
  sicIid: string;
  headOffice: number;
  iidType: string;
  sicParticipation: string;
  euroSicParticipation: string;
  bankOrInstitutionName: string;
  domicileAddress: string;
  zipCode: string;
  place: string;
  countryCode: string;
  bic?: string;
}

const V2_TYPES: Record<string, ClearingRecord['iid_type']> = {
  HEADQUARTERS: 'headquarters',
  MAIN_BRANCH: 'main_branch',
  BRANCH: 'branch',
};

/** V2 has no instant-payments, RTGS or QR-IID columns: those stay null rather than guessed. */
export function clearingFromSixV2(e: SixV2Entry, validOn: string): ClearingRecord {
  return {
    iid: String(e.iid),
    valid_on: validOn,
    concatenated: e.newIid !== undefined,
    successor_iid: e.newIid !== undefined ? String(e.newIid) : null,
    sic_iid: e.sicIid || null,
    headquarters_iid: String(e.headOffice),
    iid_type: V2_TYPES[e.iidType] ?? null,
    qr_iid_allocation: null,
    name: e.bankOrInstitutionName || null,
    address: {
      street: e.domicileAddress || null,
      building_number: null,
      postal_code: e.zipCode || null,
      city: e.place || null,
      country: e.countryCode || null,
    },
    bic: e.bic || null,
    sic_participation: e.sicParticipation !== 'NO_PARTICIPATION',
    rtgs_customer_payments_chf: null,
    instant_payments_chf: null,
    eurosic_participation: e.euroSicParticipation !== 'NO_PARTICIPATION',
    lsv_bdd_chf: e.sicParticipation.includes('LSV'),
    lsv_bdd_eur: e.euroSicParticipation.includes('LSV'),
  };
}
