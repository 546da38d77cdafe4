import { Type } from 'typebox';
import { LIMITS } from '../plans.ts';
import type { IssuedKey } from '../keys/service.ts';

export const GenerateBody = Type.Object({
  source: Type.Optional(Type.String({ maxLength: 200, description: 'Where the caller came from; no other effect.' })),
  email: Type.Optional(Type.String({ maxLength: 254 })),
  code: Type.Optional(Type.String({ maxLength: 16 })),
});

export const KeyCreated = Type.Object({
  api_key: Type.String({ description: 'The secret, shown once.' }),
  key_prefix: Type.String(),
  tier: Type.String(),
  basis: Type.String(),
  monthly_limit: Type.Integer(),
  claim_url: Type.Optional(Type.String()),
  message: Type.String(),
  terms_url: Type.String(),
  notice: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
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
    ...(reduced ? { notice: `Many keys are being created right now, so this key starts with ${LIMITS.alertReducedLifetime} requests. Claim it with a mailed code (POST ${baseUrl}/v1/keys/claim) for ${LIMITS.freePerMonth} a month; otherwise it becomes a normal ${LIMITS.anonymousPerMonth}-a-month key when the alert ends.` } : {}),
    ...(email ? { email } : {}),
  };
}

const Claim = Type.Object({
  url: Type.String(),
  raises_limit_to: Type.Integer(),
  methods: Type.Array(Type.String()),
  paid_so_far_usd: Type.Number(),
  paid_needed_usd: Type.Number(),
});

export const Usage = Type.Object({
  used: Type.Integer(),
  limit: Type.Integer(),
  remaining: Type.Integer(),
  month: Type.Optional(Type.String()),
  day: Type.Optional(Type.String()),
  key_prefix: Type.Optional(Type.String()),
  basis: Type.String(),
  tier: Type.String(),
  claim: Type.Optional(Claim),
});

export const Rotated = Type.Object({
  api_key: Type.String(),
  key_prefix: Type.String(),
  previous_key_prefix: Type.String(),
  tier: Type.String(),
  basis: Type.String(),
  monthly_limit: Type.Integer(),
  message: Type.String(),
});
