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
  /** The bank's own schemes (`epc_register`), else every scheme of a member country. */
  schemes: string[];
  /** `epc_register`: the bank's BIC is in an imported EPC register; `country`: by the EPC geographical scope. */
  basis: 'country' | 'epc_register';
  /** The register entry that answered: the BIC11, or its BIC8 + XXX; null for `country`. */
  bic: string | null;
  /** The bank's Verification of Payee adherence; null for `country` or when no VOP register was imported. */
  vop: { participant: boolean; status: string | null; roles: string[] } | null;
  source: string;
  as_of: string | null;
  /** Present when as_of is only the date the register was downloaded (it states none). */
  as_of_note?: string;
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
  /** SEPA reach of this bank, as the validate answer gives it for the bank's IBANs. */
  sepa: SepaAnswer;
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
