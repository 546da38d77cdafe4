/**
 * The error bodies as the OpenAPI document names them (`Error`, `PaymentRequired`), for code
 * generators. Document only: the serialiser of an error answer is the open schema that
 * src/http/openapi.ts derives per route, so no field of an error body is ever dropped. The 402
 * body and its `options` are built in src/http/errors.ts and src/payments/offers.ts.
 */
import { Type } from 'typebox';
import { BASES } from './keys-schemas.ts';
import { Open, StringEnum } from './schemas.ts';

export const ErrorAnswer = Open(
  {
    error: Type.String({ description: 'The code; each operation lists those it can answer.' }),
    message: Type.String({ description: 'What went wrong and what to do, for people.' }),
  },
  {
    title: 'Error',
    description: 'Every error: a machine code and a sentence for people, with the extra fields its code names.',
  },
);

const Url = Type.String({ description: 'Absolute URL on this service.' });
const PriceUsd = Type.Number({ description: 'In US dollars.' });

/** The `options` items of offers.ts, one schema per `type`, so a client can switch on it. */
const offer = <T extends Parameters<typeof Type.Object>[0]>(
  type: string,
  title: string,
  description: string,
  props: T,
) => Open({ type: StringEnum([type]), ...props }, { title, description });

export const Offer = Type.Union(
  [
    offer('generate_key', 'GenerateKeyOffer', 'No key was sent: create a free one.', {
      method: StringEnum(['POST']),
      url: Url,
    }),
    offer('claim', 'ClaimOffer', 'An anonymous key: claim it with a mailed code for a higher limit.', {
      method: StringEnum(['email_code']),
      url: Url,
      raises_limit_to: Type.Integer({ description: 'The monthly limit once claimed.' }),
    }),
    offer('credits', 'CreditsOffer', 'A prepaid pack of credits (the x402 or card rail is on).', {
      pack: Type.String({ description: '1k, 5k or 25k.' }),
      credits: Type.Integer(),
      price_usd: PriceUsd,
      url: Url,
    }),
    offer('x402', 'X402Offer', 'Pay this one call with x402 (the x402 rail is on).', { price_usd: PriceUsd }),
    offer('wait', 'WaitOffer', 'A monthly quota: it resets then.', {
      resets_at: Type.String({ description: 'ISO 8601, the next UTC month.' }),
    }),
    offer('card', 'CardOffer', 'Packs are sold by card here: start a checkout with this body.', {
      method: StringEnum(['POST']),
      url: Url,
      body: Open({ product: Type.String() }),
    }),
  ],
  { description: 'One way to go on; `type` says which.' },
);

export const PaymentRequiredAnswer = Open(
  {
    error: Type.String({ description: '`payment_required` or `quota_exhausted`.' }),
    message: Type.String({ description: 'What went wrong and what to do, for people.' }),
    cause: Type.Optional(
      Open(
        {
          reason: Type.String({
            description:
              'trial_exhausted, key_or_payment_required, card_checkout_required, or why an x402 payment was refused.',
          }),
          limit: Type.Optional(Type.Integer({ description: 'trial_exhausted: the daily trial.' })),
          day: Type.Optional(Type.String({ description: 'trial_exhausted: the UTC day counted.' })),
          resets_at: Type.Optional(Type.String({ description: 'trial_exhausted: the next UTC day.' })),
        },
        { description: 'payment_required: why.' },
      ),
    ),
    used: Type.Optional(Type.Integer({ description: 'quota_exhausted: units used in the period.' })),
    limit: Type.Optional(Type.Integer({ description: 'quota_exhausted: the cap of the period.' })),
    month: Type.Optional(Type.String({ description: 'quota_exhausted: the UTC month (YYYY-MM).' })),
    basis: Type.Optional(StringEnum(BASES, "quota_exhausted: the key's basis.")),
    options: Type.Array(Offer, { description: 'What the caller can do to go on, only those that apply.' }),
  },
  {
    title: 'PaymentRequired',
    description: 'A 402: no key and no payment, the trial or the quota used up, or a refused x402 payment.',
  },
);
