/**
 * The validate answer: the pure engine's verdict, enriched with what the loaded data knows
 * (bank, SEPA reach, Swiss clearing) and where that data came from.
 */
import { validateIban, type IbanResult } from './iban/index.ts';

export type Described = IbanResult & { bank?: unknown; sepa?: unknown; clearing?: unknown };
export type Describe = (iban: string) => Described;

export function createDescribe(): Describe {
  return (iban) => validateIban(iban);
}
