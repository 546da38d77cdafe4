/** Switzerland and Liechtenstein share one system of bank clearing numbers (IIDs) and QR-IBANs. */
export const SWISS_IID_COUNTRIES: ReadonlySet<string> = new Set(['CH', 'LI']);

/** IIDs 30000 to 31999 are QR-IIDs: an IBAN with one is a QR-IBAN, for QR-bill payments only. */
const QR_IID_RANGE = { first: 30000, last: 31999 } as const;

export const isQrIid = (iid: number): boolean => iid >= QR_IID_RANGE.first && iid <= QR_IID_RANGE.last;
