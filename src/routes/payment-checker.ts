/** The payment check the QR routes run (POST /v1/payment/check's, src/transfer/check.ts), bound to the loaded data. */
import type { Services } from '../services.ts';
import { checkPayment } from '../transfer/check.ts';
import type { PaymentChecker } from '../transfer/payment-qr.ts';

export const paymentChecker =
  (services: Services): PaymentChecker =>
  (input) =>
    checkPayment(input, { describe: services.describe });
