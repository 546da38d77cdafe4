/**
 * The validate answer: the pure engine's verdict, enriched with what the loaded data knows
 * (bank, SEPA reach, Swiss clearing) and the version of that data.
 */
import type { ClearingSummary } from './data/answers.ts';
import type { DataPlane, LiveDataPlane } from './data/index.ts';
import { validateIban, type IbanResult } from './iban/index.ts';

export type Described = IbanResult & {
  bank: ReturnType<DataPlane['bankForIban']>;
  sepa: ReturnType<DataPlane['sepa']> | null;
  clearing?: ClearingSummary | null;
  data_version: string;
};
export type Describe = (iban: string) => Described;

const SWISS = new Set(['CH', 'LI']);

/** Each IBAN is described from one load of the data, taken once: a reload between two lookups cannot mix them. */
export function createDescribe(source: DataPlane | LiveDataPlane): Describe {
  const current = 'snapshot' in source ? () => source.snapshot() : () => source;
  return (input) => {
    const data = current();
    const r = validateIban(input);
    const country = r.country?.code;
    // An IBAN that fails validation names no bank reliably: only valid ones are looked up.
    const bankCode = r.valid ? (r.bban?.bank_code ?? null) : null;
    const bank = country && bankCode ? data.bankForIban(country, bankCode, r.bban?.branch_code) : null;
    // Completed in place: a copy (let alone a spread) of each result costs more than the validation.
    const described = r as Described;
    described.bank = bank;
    described.sepa = country ? data.sepa(country, bank?.bic ?? undefined) : null;
    described.data_version = data.dataVersion();
    if (country && SWISS.has(country)) described.clearing = bankCode ? data.clearingSummary(bankCode) : null;
    return described;
  };
}
