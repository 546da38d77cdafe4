/** POST /v1/payment/check, as declared (declaration.ts). */
import { defineRoute } from './declaration.ts';
import * as examples from './examples.ts';
import { PaymentCheckAnswer, PaymentCheckBody } from './payment-check-schemas.ts';

export const paymentCheckRoute = defineRoute({
  method: 'POST',
  url: '/v1/payment/check',
  operationId: 'checkPayment',
  schema: { body: PaymentCheckBody, response: { 200: PaymentCheckAnswer } },
  access: { auth: 'optional', meter: { cost: () => 1, priceKey: 'paymentCheck' } },
  errors: [],
  example: examples.paymentCheck,
  idempotent: true,
  guide: {
    title: 'Check a whole payment: IBAN, BIC, name, amount, currency, reference, remittance',
    purpose:
      'Checks a credit transfer whole before it is printed or sent (SEPA credit transfer or Swiss QR-bill): the IBAN as validate judges it, the BIC, the reference, amount, currency, names, addresses and remittance, and the rules between them (QR-IBAN needs a QR reference, SEPA reach, currencies); each error names its field.',
    example: {
      creditor: { iban: 'DE89370400440532013000', name: 'Musterfirma GmbH' },
      amount: '1234.50',
      currency: 'EUR',
      reference: 'RF18539007547034',
    },
  },
  mcp: {
    name: 'check_payment',
    title: 'Check a payment',
    note: 'Needs an API key (the no-key trial covers validate_iban only). A payment with errors is a successful, charged answer with valid: false; each error and warning has a code and the `field` at fault. Warnings (bic_mismatch, reference_and_remittance) leave it valid.',
  },
});
