/**
 * SEPA reach per bank, from an imported EPC Register of Participants. The register is never
 * bundled (the EPC's terms allow redistribution for non-commercial purposes only): it exists
 * only once an operator imported it. Each scheme's file is its own dataset; this joins them
 * into one record per BIC.
 */
import type { SepaAnswer } from './answers.ts';
import { SEPA_SCHEMES, type SepaScheme } from './countries.ts';
import { EPC_REGISTER_SCHEMES, type RegisterScheme } from './importers/epc-register.ts';
import type { SchemeParticipant } from './types.ts';

/** One row of a scheme's register: adherent from its readiness date until its leaving date. */
interface Adherence {
  from: string | null;
  until: string | null;
}

interface RegisterBank {
  bic11: string;
  /** The participant as the register names it: what a BIC lookup answers when no bank directory lists it. */
  name: string;
  address: string | null;
  city: string | null;
  schemes: Map<SepaScheme, Adherence[]>;
  vop: (Adherence & { status: string | null; roles: string[] }) | null;
}

export interface EpcRegister {
  /** The registers imported, in the order of EPC_REGISTER_SCHEMES. */
  registers: RegisterScheme[];
  source: string;
  /** The oldest of the imported registers' dates: the joined answer is no newer than its oldest part. */
  as_of: string;
  as_of_note: string | null;
  banks: Map<string, RegisterBank>;
}

/** Collects the imported registers, one scheme at a time, into one record per BIC11. */
export class EpcRegisterBuilder {
  private readonly banks = new Map<string, RegisterBank>();
  private readonly registers: { scheme: RegisterScheme; as_of: string; note: string | null }[] = [];

  add(scheme: RegisterScheme, records: readonly SchemeParticipant[], asOf: string, note: string | null): void {
    this.registers.push({ scheme, as_of: asOf, note });
    for (const r of records) {
      const bic11 = r.bic.length === 8 ? `${r.bic}XXX` : r.bic;
      let bank = this.banks.get(bic11);
      if (!bank) {
        bank = { bic11, name: r.name, address: r.address, city: r.city, schemes: new Map(), vop: null };
        this.banks.set(bic11, bank);
      }
      const adherence = { from: r.readiness_date, until: r.leaving_date ?? null };
      if (scheme === 'VOP') {
        // a BIC listed twice: the row still in the scheme wins over one that left
        if (!bank.vop || bank.vop.until) bank.vop = { ...adherence, status: r.status ?? null, roles: r.roles ?? [] };
      } else bank.schemes.set(scheme, [...(bank.schemes.get(scheme) ?? []), adherence]);
    }
  }

  /** null when no register was imported: `sepa` then answers per country only. */
  build(): EpcRegister | null {
    if (this.registers.length === 0) return null;
    const registers = EPC_REGISTER_SCHEMES.filter((s) => this.registers.some((r) => r.scheme === s));
    const oldest = [...this.registers].sort((a, b) => (a.as_of < b.as_of ? -1 : a.as_of > b.as_of ? 1 : 0))[0];
    return {
      registers,
      source: `EPC Register of Participants (${registers.join(', ')})`,
      as_of: oldest.as_of,
      as_of_note: this.registers.find((r) => r.note)?.note ?? null,
      banks: this.banks,
    };
  }
}

/** Left the scheme by `today`: a leaving date before the readiness date is an earlier exit, since rejoined. */
const hasLeft = (a: Adherence, today: string): boolean =>
  a.until !== null && a.until <= today && (a.from === null || a.until >= a.from);

/** In the scheme on `today`: ready by then and not left. */
const adheres = (a: Adherence, today: string): boolean => (a.from === null || a.from <= today) && !hasLeft(a, today);

/**
 * The answer for the bank whose BIC (BIC11, else its BIC8 + XXX) the register lists, or null
 * when it lists neither. `today` (YYYY-MM-DD) decides readiness and leaving dates.
 */
export function bankSepa(
  register: EpcRegister,
  country: string,
  member: boolean,
  bic: string,
  today: string,
): SepaAnswer | null {
  const code = bic.toUpperCase();
  const bank =
    register.banks.get(code.length === 8 ? `${code}XXX` : code) ?? register.banks.get(`${code.slice(0, 8)}XXX`);
  if (!bank) return null;
  const vop = register.registers.includes('VOP')
    ? bank.vop && !hasLeft(bank.vop, today)
      ? { participant: true, status: bank.vop.status, roles: bank.vop.roles }
      : { participant: false, status: null, roles: [] }
    : null;
  return {
    country,
    member,
    schemes: SEPA_SCHEMES.filter((s) => bank.schemes.get(s)?.some((a) => adheres(a, today))),
    basis: 'epc_register',
    bic: bank.bic11,
    vop,
    source: register.source,
    as_of: register.as_of,
    ...(register.as_of_note !== null && { as_of_note: register.as_of_note }),
  };
}
