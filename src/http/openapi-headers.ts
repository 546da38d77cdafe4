/**
 * The balance and retry headers in the OpenAPI document (docs/api.md, "Quota headers" and
 * "Rate-limit headers"): on every answer of a route that takes a key, the X-Quota-* and
 * RateLimit-* headers (present when a valid key, or the no-key trial, was used), and on every
 * 429, Retry-After.
 */
type Header = { description: string; required?: boolean; schema: Record<string, unknown> };
type Response = { headers?: Record<string, Header> };
type Operation = { security?: Record<string, unknown>[]; responses?: Record<string, Response> };
type Doc = { paths?: Record<string, Record<string, Operation>> };

const integer = { type: 'integer', minimum: 0 };

const BALANCE_HEADERS: Record<string, Header> = {
  'X-Quota-Used': { description: "Units used in the key's governing period (credits keys: spent).", schema: integer },
  'X-Quota-Limit': { description: 'The governing cap (credits keys: bought in total).', schema: integer },
  'X-Quota-Remaining': { description: 'Limit minus used (credits keys: the balance).', schema: integer },
  'X-Quota-Month': { description: 'The current UTC month, YYYY-MM.', schema: { type: 'string' } },
  'X-Quota-Exhausted': { description: '`true`, only on a quota-exhausted 402.', schema: { type: 'string' } },
  'RateLimit-Limit': {
    description: "The governing cap of the key, or the no-key trial's daily 25.",
    schema: integer,
  },
  'RateLimit-Remaining': { description: 'Units left before the cap.', schema: integer },
  'RateLimit-Reset': {
    description:
      'Seconds until the balance resets: the next UTC month for monthly bases, the next UTC day for the trial. Absent where it never resets (lifetime, credits).',
    schema: integer,
  },
};

const RETRY_AFTER: Header = {
  description: 'Seconds until the limit lifts (the next UTC day: every 429 refuses a per-day limit).',
  required: true,
  schema: integer,
};

/** Answers given before the key is looked at, or for an unknown key: no balance to show. */
const WITHOUT_BALANCE = new Set(['401', '408', '413', '417', '431']);

export function documentHeaders<T>(doc: T): T {
  for (const operations of Object.values((doc as Doc).paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const takesKey = (operation.security ?? []).some((scheme) => 'bearer' in scheme);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (status === '429') response.headers = { ...response.headers, 'Retry-After': RETRY_AFTER };
        if (takesKey && !WITHOUT_BALANCE.has(status)) response.headers = { ...response.headers, ...BALANCE_HEADERS };
      }
    }
  }
  return doc;
}
