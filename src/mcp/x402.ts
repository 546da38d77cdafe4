/**
 * x402's MCP transport (x402 specification, transports-v2/mcp.md), over the REST route's own x402
 * rail: a payment sent in `_meta["x402/payment"]` travels to the route as its PAYMENT-SIGNATURE,
 * a refusal carries the route's payment requirements in its structured content beside the REST
 * error body, and a settled call returns the settlement in `_meta["x402/payment-response"]`.
 */
type Headers = Record<string, string | string[] | number | undefined>;

const PAYMENT = 'x402/payment';
const PAYMENT_RESPONSE = 'x402/payment-response';

const decoded = (value: unknown): Record<string, unknown> | null => {
  if (typeof value !== 'string') return null;
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
    return parsed && typeof parsed === 'object' ? parsed : null;
  } catch {
    return null;
  }
};

/** The PAYMENT-SIGNATURE header for a payment sent in the tool call's `_meta`. */
export function paymentHeaders(meta: Record<string, unknown> | undefined): Record<string, string> {
  const payment = meta?.[PAYMENT];
  if (payment === undefined) return {};
  return { 'payment-signature': Buffer.from(JSON.stringify(payment)).toString('base64') };
}

/** A refusal's body with the route's PaymentRequired fields added; the REST body's own fields win. */
export function withPaymentRequired(body: Record<string, unknown>, headers: Headers): Record<string, unknown> {
  const required = decoded(headers['payment-required']);
  return required ? { ...required, ...body } : body;
}

/** The `_meta` of a paid result, or undefined. */
export function settlementMeta(headers: Headers): Record<string, unknown> | undefined {
  const settled = decoded(headers['payment-response']);
  return settled ? { [PAYMENT_RESPONSE]: settled } : undefined;
}
