/**
 * The payment check the QR routes run (POST /v1/payment/check's, src/transfer/check.ts), bound
 * to the loaded data. INTERIM until that check lands on this branch: the IBAN alone is judged.
 */
import type { Services } from '../services.ts';
import type { CheckAnswer, PaymentChecker } from '../transfer/payment-qr.ts';

export const paymentChecker =
  (services: Services): PaymentChecker =>
  (input): CheckAnswer => {
    const iban = services.describe(input.creditor.iban);
    const errors = iban.valid
      ? []
      : [{ code: 'iban_invalid', field: 'creditor.iban', message: 'The IBAN is not valid.' }];
    return { valid: errors.length === 0, errors, warnings: [] };
  };
