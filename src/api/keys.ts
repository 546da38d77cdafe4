/** The key routes (/v1/keys/*), as declared (declaration.ts). */
import { defineRoute } from './declaration.ts';
import * as examples from './examples.ts';
import { ClaimBody, Claimed, CodeSent, DailyReport, GenerateBody, KeyCreated, Rotated, Usage } from './keys-schemas.ts';

export const generateRoute = defineRoute({
  method: 'POST',
  url: '/v1/keys/generate',
  operationId: 'generateKey',
  schema: { body: GenerateBody, response: { 201: KeyCreated } },
  access: { auth: 'none' },
  errors: [
    'invalid_email',
    'disposable_email',
    'undeliverable_email',
    'verification_required',
    'verification_failed',
    'already_claimed_elsewhere',
    'key_creation_limit',
    'rate_limited',
    'verification_rate_limited',
    'verification_unavailable',
  ],
  example: examples.generate,
  crossSite: true,
  document: { optionalBody: true },
  guide: {
    title: 'Create a free key (anonymous, or with an e-mail address)',
    purpose: 'Creates a free API key (25 requests a month; 200 with a proved e-mail address).',
  },
  mcp: {
    name: 'create_key',
    title: 'Create a free API key',
    writes: true,
    note: 'Needs no key. The new key is structuredContent.api_key, shown once: on this connection, send it with each call in params._meta["mod97/api-key"]; on your next connection, as Authorization: Bearer. With email, a code may be mailed first (verification_required): call again with email and code. The same limits as the REST route apply (429: key_creation_limit after the network\'s 3 keys of the UTC day, rate_limited for an address that got one today).',
  },
});

export const usageRoute = defineRoute({
  method: 'GET',
  url: '/v1/keys/usage',
  operationId: 'getUsage',
  schema: { response: { 200: Usage } },
  access: { auth: 'optional' },
  errors: [],
  example: examples.usage,
  cors: true,
  guide: {
    title: 'Quota used and left for the key sent (or the trial without one); free',
    purpose: "Shows the key's quota (used, limit, remaining, basis) or, without a key, the network's no-key trial.",
  },
  mcp: { name: 'get_usage', title: 'Show quota and usage' },
});

export const rotateRoute = defineRoute({
  method: 'POST',
  url: '/v1/keys/rotate',
  operationId: 'rotateKey',
  schema: { response: { 200: Rotated } },
  access: { auth: 'key' },
  errors: [],
  example: examples.rotate,
  crossSite: true,
  guide: {
    title: 'Replace the key with a new secret; tier, quota and counters are kept',
    purpose: 'Replaces the key with a new secret; quota and counters carry over.',
  },
});

export const usageDailyRoute = defineRoute({
  method: 'GET',
  url: '/v1/keys/usage/daily',
  operationId: 'getDailyUsage',
  schema: { response: { 200: DailyReport } },
  access: { auth: 'key' },
  errors: [],
  example: examples.usageDaily,
  guide: { title: 'Calls per day over the current period (statistics for charts; free)' },
});

export const claimRoute = defineRoute({
  method: 'POST',
  url: '/v1/keys/claim',
  operationId: 'claimKey',
  schema: { body: ClaimBody, response: { 200: Claimed, 202: CodeSent } },
  access: { auth: 'key' },
  errors: [
    'invalid_email',
    'disposable_email',
    'undeliverable_email',
    'unused_key',
    'verification_required',
    'verification_failed',
    'already_claimed',
    'already_claimed_elsewhere',
    'claim_rate_limited',
    'verification_rate_limited',
    'verification_unavailable',
  ],
  example: examples.claim,
  crossSite: true,
  document: { optionalBody: true },
  guide: {
    title: 'Claim an anonymous key with a mailed code (200 a month)',
    purpose: 'Raises an anonymous key to 200 requests a month by a code mailed to an address.',
  },
});
