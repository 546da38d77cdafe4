/** The pure IBAN validation engine: no I/O at call time, never throws. */
export { validateIban, type IbanResult } from './validate.ts';
export { normalizeIban } from './normalize.ts';
export { ERROR_CODES, type IbanError, type IbanErrorCode } from './errors.ts';
export { COUNTRIES, type CountryCode, type CountrySpec } from './registry.ts';
export { NATIONAL_CHECKS } from './national.ts';
export { computeCheckDigits } from './mod97.ts';
export { MAX_SUGGESTIONS } from './suggest.ts';
export type { ValidateOptions } from './validate.ts';
export {
  checkGermanAccount,
  DE_METHODS,
  type GermanCheck,
  type GermanMethodOf,
  germanMethodLookup,
} from './de-check/index.ts';
