/** Where a fact came from and how current it is. Every answer of the data plane carries one. */
import type { AsOfBasis } from '../records.ts';
export interface Provenance {
  name: string;
  /** Date the data is valid for (YYYY-MM-DD), or null when the publisher gives none. */
  as_of: string | null;
  kind: 'bundled' | 'imported';
  licence?: string;
  note?: string;
  /**
   * The data kind `mod97 data update` downloads to refresh this source; absent when only a newer
   * release of mod97 brings a newer copy (the operator's data-age warning says which).
   */
  updatedBy?: string;
}

/** A bank as seen from a national bank code (BLZ, IID, sort code ...). */
export interface BankByCode {
  bic: string | null;
  name: string | null;
  city: string | null;
  source: string;
  as_of: string | null;
}

/** One institution or branch as seen from its BIC. Keys are always 11-character BICs. */
export interface BicEntry {
  bic11: string;
  name: string | null;
  city: string | null;
  address: string | null;
  postcode: string | null;
  source: string;
  as_of: string | null;
  /** Present when as_of is only the date the file was downloaded (the file states none). */
  as_of_note?: string | undefined;
}

/** Swiss clearing record, field for field after SIX BankMaster V3 (null where a source lacks it). */
export interface ClearingRecord {
  iid: string;
  valid_on: string | null;
  concatenated: boolean;
  /** For a concatenated IID: the IID that replaces it. */
  successor_iid: string | null;
  sic_iid: string | null;
  headquarters_iid: string | null;
  iid_type: 'headquarters' | 'main_branch' | 'branch' | 'qr_iid' | null;
  qr_iid_allocation: string | null;
  name: string | null;
  address: {
    street: string | null;
    building_number: string | null;
    postal_code: string | null;
    city: string | null;
    country: string | null;
  };
  bic: string | null;
  sic_participation: boolean | null;
  rtgs_customer_payments_chf: boolean | null;
  instant_payments_chf: boolean | null;
  eurosic_participation: boolean | null;
  lsv_bdd_chf: boolean | null;
  lsv_bdd_eur: boolean | null;
}

/** A sanctioned party that carries a BIC, from any sanctions list. */
export interface SanctionRecord {
  bic: string;
  name: string;
  programs: string[];
  reference: string;
}

/**
 * A participant in one EPC scheme, one row of its register export. Rows with a leaving date
 * are kept: whether the bank has left depends on the day of the question, not of the import.
 * Datasets imported before leaving dates and VOP were read lack the optional fields.
 */
export interface SchemeParticipant {
  bic: string;
  name: string;
  address: string | null;
  city: string | null;
  readiness_date: string | null;
  leaving_date?: string | null;
  /** VOP only: the register's Status ("Ready for operations", "Pending EDS registration"). */
  status?: string | null;
  /** VOP only: the register's Role, split ("Requesting PSP", "Responding PSP"). */
  roles?: string[];
}

export interface BicLei {
  bic: string;
  lei: string;
}

/** What an importer hands to the store: one dataset, replaced whole. */
export type ParsedDataset<R> = {
  kind: string;
  source: string;
  records: R[];
} & (
  | { asOf: string; asOfBasis: Exclude<AsOfBasis, 'undated'> }
  /** A source that states no date: answered as `as_of: null`, stored dated by the day of import. */
  | { asOf: null; asOfBasis: 'undated' }
);
