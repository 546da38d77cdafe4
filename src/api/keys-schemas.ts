import { Type } from 'typebox';
import { Body, Open, OpenBody, StringEnum } from './schemas.ts';
import { LIMITS } from '../plans.ts';
import type { IssuedKey } from '../keys/service.ts';
import type { Basis as BasisName, Tier as TierName } from '../records.ts';

export const GenerateBody = Body('KeyRequest', {
  source: Type.Optional(Type.String({ maxLength: 200, description: 'Where the caller came from; no other effect.' })),
  email: Type.Optional(
    Type.String({
      maxLength: 254,
      description: 'An address to issue the key to (200 requests a month); a code may be mailed to it first.',
    }),
  ),
  code: Type.Optional(
    Type.String({ maxLength: 16, description: 'The 6-digit code mailed to `email`, when one was asked for.' }),
  ),
});

// records.ts Tier and Basis (test/routes/response-shapes.test.ts checks that none is missing)
export const TIERS = ['anonymous', 'email', 'claimed', 'pro', 'credits'] as const satisfies readonly TierName[];
export const BASES = ['monthly', 'lifetime', 'credits'] as const satisfies readonly BasisName[];
const Tier = StringEnum(TIERS);
const Basis = StringEnum(BASES, "The counter the cap applies to: per month, over the key's life, or credits bought.");

/*
 * The answers below let unlisted fields through (Open), so a field added in code is never
 * dropped by the serialiser, only missing from the OpenAPI document until it is declared.
 */
export const KeyCreated = OpenBody('KeyCreated', {
  api_key: Type.String({ description: 'The secret, shown once.' }),
  key_prefix: Type.String(),
  tier: Tier,
  basis: Basis,
  monthly_limit: Type.Integer({
    description: "The cap of the key's basis: per month, or over its life while `basis` is `lifetime`.",
  }),
  claim_url: Type.Optional(Type.String({ description: 'Anonymous keys only.' })),
  message: Type.String(),
  terms_url: Type.String(),
  notice: Type.Optional(Type.String({ description: 'Present when a creation alert reduced the key.' })),
  email: Type.Optional(Type.String({ description: 'The address the key was issued to, when one was given.' })),
});

export function creationResponse(issued: IssuedKey, baseUrl: string, email?: string) {
  const { key, secret, reduced } = issued;
  return {
    api_key: secret,
    key_prefix: key.keyPrefix,
    tier: key.tier,
    basis: reduced ? 'lifetime' : key.basis,
    monthly_limit: reduced ? LIMITS.alertReducedLifetime : key.limit,
    ...(key.tier === 'anonymous' ? { claim_url: `${baseUrl}/v1/keys/claim` } : {}),
    message: 'Store this key now: it is shown only once. Send it as Authorization: Bearer <api_key>.',
    terms_url: `${baseUrl}/terms`,
    ...(reduced
      ? {
          notice: `Many keys are being created right now, so this key starts with ${LIMITS.alertReducedLifetime} requests. Claim it with a mailed code (POST ${baseUrl}/v1/keys/claim) for ${LIMITS.freePerMonth} a month; otherwise it becomes a normal ${LIMITS.anonymousPerMonth}-a-month key when the alert ends.`,
        }
      : {}),
    ...(email ? { email } : {}),
  };
}

const Claim = Open(
  {
    url: Type.String(),
    raises_limit_to: Type.Integer(),
    first_call_made: Type.Boolean({
      description:
        'The key has served at least one call. A claim by mailed code needs it: before, POST /v1/keys/claim answers 403 `unused_key`.',
    }),
    methods: Type.Array(Type.String()),
    paid_so_far_usd: Type.Number({ description: 'x402 payments made with this key so far.' }),
    paid_needed_usd: Type.Number(),
  },
  { description: 'Anonymous keys only: how to raise the limit.' },
);

/** With a key: `month` and `key_prefix`; without one, the trial form: `day`, tier `trial`, basis `daily`. */
export const Usage = OpenBody('Usage', {
  used: Type.Integer(),
  limit: Type.Integer(),
  remaining: Type.Integer(),
  month: Type.Optional(Type.String({ description: 'With a key: the month counted (YYYY-MM).' })),
  day: Type.Optional(Type.String({ description: 'Without a key (trial): the day counted (YYYY-MM-DD).' })),
  key_prefix: Type.Optional(Type.String({ description: 'With a key only.' })),
  basis: StringEnum([...BASES, 'daily'], '`daily` is the keyless trial.'),
  tier: StringEnum([...TIERS, 'trial'], '`trial` when no key was sent.'),
  claim: Type.Optional(Claim),
});

export const Rotated = OpenBody('RotatedKey', {
  api_key: Type.String({ description: 'The new secret, shown once.' }),
  key_prefix: Type.String(),
  previous_key_prefix: Type.String(),
  tier: Tier,
  basis: Basis,
  monthly_limit: Type.Integer({ description: "The cap of the key's current basis (not necessarily monthly)." }),
  message: Type.String(),
});

/** POST /v1/keys/claim: 202 when a code was mailed, 200 once claimed. */
export const CodeSent = OpenBody('CodeSent', {
  status: Type.Literal('code_sent'),
  key_prefix: Type.String(),
  expires_in_minutes: Type.Integer(),
  message: Type.String(),
});

export const Claimed = OpenBody('Claimed', {
  claimed: Type.Literal(true),
  tier: Type.String(),
  basis: Type.String(),
  key_prefix: Type.String(),
  monthly_limit: Type.Integer({ description: 'The same as `limit`: the cap of the claimed plan.' }),
  limit: Type.Integer(),
  used: Type.Integer({ description: 'The use so far carried over to the claimed plan.' }),
  remaining: Type.Integer(),
  month: Type.String({ description: 'The current month (YYYY-MM).' }),
});

export const ClaimBody = Body('ClaimRequest', {
  email: Type.Optional(Type.String({ maxLength: 254, description: 'The address that receives the code.' })),
  code: Type.Optional(
    Type.String({ maxLength: 16, description: 'The 6-digit code from the mail; omit it to get a code.' }),
  ),
});

export const DailyReport = Body('DailyUsage', {
  key_prefix: Type.String(),
  basis: Type.String(),
  from: Type.String({ description: 'First day shown (YYYY-MM-DD): the 1st of the month, or 29 days ago.' }),
  to: Type.String({ description: 'Today (UTC).' }),
  total: Type.Integer({ description: 'Sum of `days`.' }),
  days: Type.Array(Type.Object({ day: Type.String(), used: Type.Integer() }), {
    description: 'Every day from `from` to `to`, oldest first; days without calls are 0.',
  }),
});
