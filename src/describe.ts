/**
 * The validate answer: the pure engine's verdict, enriched with what the loaded data knows
 * (bank, SEPA reach, Swiss clearing) and the version of that data.
 */
import type { DataPlane } from './data/index.ts';
import { validateIban, type IbanResult } from './iban/index.ts';

export type Described = IbanResult & {
  bank: ReturnType<DataPlane['bankForIban']>;
  sepa: ReturnType<DataPlane['sepa']> | null;
  clearing?: ReturnType<DataPlane['clearingSummary']>;
  data_version: string;
};
export type Describe = (iban: string) => Described;

const SWISS = new Set(['CH', 'LI']);

export function createDescribe(data: DataPlane): Describe {
  const dataVersion = data.dataVersion();
  return (input) => {
    const result = validateIban(input);
    const country = result.country?.code;
    // An IBAN that fails validation names no bank reliably: only valid ones are looked up.
    const bankCode = result.valid ? result.bban?.bank_code ?? null : null;
    const bank = country && bankCode ? data.bankForIban(country, bankCode, result.bban?.branch_code) : null;
    return {
      ...result,
      bank,
      sepa: country ? data.sepa(country, bank?.bic ?? undefined) : null,
      ...(country && SWISS.has(country) ? { clearing: bankCode ? data.clearingSummary(bankCode) : null } : {}),
      data_version: dataVersion,
    };
  };
}
