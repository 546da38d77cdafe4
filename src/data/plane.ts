import type { BicAnswer, ClearingAnswer, ClearingSummary, SepaAnswer, SourceRef } from './answers.ts';
import { isQrIid, SWISS_IID_COUNTRIES } from '../iban/swiss.ts';
import { checkBicFormat } from './bic-format.ts';
import { normalizeIid } from './clearing.ts';
import { SEPA_COUNTRIES, SEPA_SCHEMES } from './countries.ts';
import type { ImportedData } from './imported.ts';
import type { IndexReader } from './indexes.ts';
import { bankSepa } from './sepa-reach.ts';
import type { BankByCode, BicEntry } from './types.ts';

/** Made on the first BIC lookup: ICU loads its locale data then, which a start does not need. */
let regionNames: Intl.DisplayNames | undefined;
const countryName = (code: string): string | null =>
  (regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' })).of(code) ?? null;

/** A source with its date, and the caveat when only a download dates it. */
const sourceRef = ({ source, as_of, as_of_note }: BicEntry): SourceRef =>
  as_of_note ? { name: source, as_of, as_of_note } : { name: source, as_of };

/** Lookups over the loaded indexes. Every method is synchronous and allocation-light. */
export class Lookups {
  private readonly byCountry = new Map<string, SepaAnswer>();

  constructor(
    protected readonly ix: IndexReader,
    protected readonly imported: ImportedData,
    protected readonly clearingSource: string,
    /** Decides whether a register's readiness and leaving dates have passed. */
    protected readonly clock: () => number = Date.now,
  ) {}

  /**
   * The bank behind an IBAN's bank code. The branch code is accepted for the route's sake but
   * not used: no bundled or importable source is keyed by branch.
   */
  bankForIban(countryCode: string, bankCode: string | null, _branchCode?: string | null): BankByCode | null {
    if (!bankCode) return null;
    const code = SWISS_IID_COUNTRIES.has(countryCode) ? (normalizeIid(bankCode) ?? bankCode) : bankCode;
    return this.ix.bankCodes.get(`${countryCode}:${code}`) ?? null;
  }

  bicsForBank(countryCode: string, bankCode: string, _branchCode?: string | null): string[] {
    const country = countryCode.toUpperCase();
    const code = SWISS_IID_COUNTRIES.has(country) ? (normalizeIid(bankCode) ?? bankCode) : bankCode;
    return [...(this.ix.bankBics.get(`${country}:${code}`) ?? [])];
  }

  /**
   * Per bank when an imported EPC register lists the bank's BIC (BIC11, else its BIC8 + XXX),
   * else per country by the EPC geographical scope.
   */
  sepa(countryCode: string, bic?: string): SepaAnswer {
    const country = countryCode.toUpperCase();
    const member = SEPA_COUNTRIES.members.has(country);
    const register = this.imported.epc;
    if (register && bic) {
      const today = new Date(this.clock()).toISOString().slice(0, 10);
      const bank = bankSepa(register, country, member, bic, today);
      if (bank) return bank;
    }
    // The same few answers for every IBAN of a country: built once, shared (read-only).
    let answer = this.byCountry.get(country);
    if (!answer) {
      answer = Object.freeze({
        country,
        member,
        schemes: member ? [...SEPA_SCHEMES] : [],
        basis: 'country',
        bic: null,
        vop: null,
        source: SEPA_COUNTRIES.source,
        as_of: SEPA_COUNTRIES.as_of,
      });
      this.byCountry.set(country, answer);
    }
    return answer;
  }

  clearing(iid: string): ClearingAnswer | null {
    const key = normalizeIid(iid);
    const record = key ? this.ix.clearing.get(key) : undefined;
    if (!record) return null;
    const next = record.successor_iid ? this.ix.clearing.get(record.successor_iid) : undefined;
    return {
      ...record,
      successor: record.successor_iid
        ? { iid: record.successor_iid, name: next?.name ?? null, bic: next?.bic ?? null }
        : null,
      source: this.clearingSource,
      as_of: record.valid_on,
    };
  }

  clearingSummary(iid: string): ClearingSummary | null {
    const c = this.clearing(iid);
    if (!c) return null;
    const active = c.concatenated && c.successor_iid ? (this.ix.clearing.get(c.successor_iid) ?? c) : c;
    return {
      iid: c.iid,
      name: active.name,
      bic: active.bic,
      sic: active.sic_participation,
      eurosic: active.eurosic_participation,
      instant_payments: active.instant_payments_chf,
      qr_iid: c.iid_type === 'qr_iid' || isQrIid(Number(c.iid)),
      successor_iid: c.successor_iid,
      valid_on: c.valid_on,
      source: this.clearingSource,
    };
  }

  /**
   * A BIC no bank directory lists, but an imported EPC register does (a participant of a SEPA
   * scheme, or one that left it): its name and place as the register gives them.
   */
  private registerEntry(bic11: string): BicEntry[] | undefined {
    const register = this.imported.epc;
    const bank = register?.banks.get(bic11);
    if (!register || !bank) return undefined;
    const { name, address, city } = bank;
    const entry = { bic11, name, address, city, postcode: null, source: register.source, as_of: register.as_of };
    return [register.as_of_note ? { ...entry, as_of_note: register.as_of_note } : entry];
  }

  /** A well-formed BIC that no source knows, and a malformed one, both give null. */
  bic(code: string): BicAnswer | null {
    const format = checkBicFormat(code);
    if (!format.ok) return null;
    const { bic8, bic11 } = format;
    let entries = this.ix.bics.get(bic11) ?? this.registerEntry(bic11);
    const match = entries ? 'exact' : 'institution';
    if (!entries) {
      const sibling = this.ix.bic11sByBic8.get(bic8)?.[0];
      if (!sibling) return null;
      // only the institution is known: its name applies, a sibling office's address does not
      const siblingEntries = this.ix.bics.get(sibling);
      if (!siblingEntries) return null;
      entries = siblingEntries.map((e) => ({ ...e, city: null, address: null, postcode: null }));
    }
    // The place comes whole from one entry: a street from one source and a postcode from another could name no real address.
    const place = entries.find((e) => e.address) ?? entries.find((e) => e.city) ?? entries[0];
    const country = bic11.slice(4, 6);
    return {
      bic: code.replace(/\s+/g, '').toUpperCase(),
      bic8,
      bic11,
      match,
      name: place.name ?? entries.find((e) => e.name)?.name ?? null,
      city: place.city,
      address: place.address,
      postcode: place.postcode,
      country: { code: country, name: countryName(country) },
      branch: { code: bic11.slice(8), primary_office: format.primary_office },
      lei: this.ix.leis.get(bic11) ?? this.ix.leis.get(`${bic8}XXX`) ?? null,
      test_bic: format.test_bic,
      sources: entries.map(sourceRef),
      sepa: this.sepa(country, bic11),
    };
  }
}
