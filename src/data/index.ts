/** The data plane: bank directories, clearing, sanctions and country lists, with their sources. */
export type { BicAnswer, ClearingAnswer, ClearingSummary, SepaAnswer, SourceRef } from './answers.ts';
export type { BicFormat, BicFormatReason } from './bic-format.ts';
export { checkBicFormat } from './bic-format.ts';
export {
  COMPLIANCE_DISCLAIMER,
  RISK_LEVELS,
  RISK_WEIGHTS,
  type ComplianceAnswer,
  type ComplianceQuery,
  type RiskFlag,
} from './compliance.ts';
export { COUNTRY_LISTS, EU_HIGH_RISK, FATF_CALL_FOR_ACTION, FATF_INCREASED_MONITORING } from './country-lists.ts';
export { SEPA_COUNTRIES, SEPA_SCHEMES } from './countries.ts';
export type { BankByCode, ClearingRecord, Provenance } from './types.ts';
export {
  bicDirectories,
  type CountryCoverage,
  type DataPlane,
  type DataPlaneOptions,
  datasetsSignature,
  loadDataSnapshot,
} from './snapshot.ts';
export { type DataLog, type DataStatus, LiveDataPlane, loadDataPlane } from './live.ts';
