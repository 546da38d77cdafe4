/** The shapes the data plane answers with (the routes serialise them as they are). */
import type { BicFormat } from './bic-format.ts';
import type { ClearingRecord } from './types.ts';

export interface SourceRef {
  name: string;
  as_of: string | null;
  /** Present when as_of is only the date the file was downloaded (the file states none). */
  as_of_note?: string;
}

export interface SepaAnswer {
  country: string;
  member: boolean;
  schemes: string[];
  /** `country` = by the EPC geographical scope; `epc_register` = from an imported register. */
  basis: 'country' | 'epc_register';
  source: string;
  as_of: string | null;
  /** Present when a BIC was given and an EPC register was imported. */
  bank: { bic: string; schemes: string[] } | null;
}

export interface BicAnswer {
  bic: string;
  bic8: string;
  bic11: string;
  /** `exact`: this BIC is listed; `institution`: only other offices of the same BIC8 are. */
  match: 'exact' | 'institution';
  name: string | null;
  city: string | null;
  address: string | null;
  postcode: string | null;
  country: { code: string; name: string | null };
  branch: { code: string; primary_office: boolean };
  lei: { lei: string; source: string; as_of: string | null } | null;
  test_bic: boolean;
  sources: SourceRef[];
}

export type ClearingAnswer = ClearingRecord & {
  /** For a concatenated IID: the institution that replaces it. */
  successor: { iid: string; name: string | null; bic: string | null } | null;
  source: string;
  as_of: string | null;
};

/** The short form for the validate response of CH and LI IBANs. */
export interface ClearingSummary {
  iid: string;
  name: string | null;
  bic: string | null;
  sic: boolean | null;
  eurosic: boolean | null;
  instant_payments: boolean | null;
  qr_iid: boolean;
  successor_iid: string | null;
  valid_on: string | null;
  source: string;
}

export type { BicFormat };
