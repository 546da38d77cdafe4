/** The request header that carries an x402 payment. Kept apart from the rail so that checking for it loads no payment SDK. */
import type { IncomingHttpHeaders } from 'node:http';

const PAYMENT_HEADER = 'payment-signature';

export function hasPayment(headers: IncomingHttpHeaders): boolean {
  return typeof headers[PAYMENT_HEADER] === 'string' && headers[PAYMENT_HEADER] !== '';
}
