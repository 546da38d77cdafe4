/**
 * Helpers for creation-alert tests: anonymous keys created over HTTP from many networks
 * (3 each, the per-network daily cap), and a key's view of its own quota.
 */
import assert from 'node:assert/strict';
import type { TestService } from '../support/app.ts';

const IBAN = 'DE89 3704 0044 0532 0130 00';
export const HOUR = 3600_000;
/** An alert lasts 3 hours after its last burst; a minute more is safely past it. */
export const PAST_ALERT = 3 * HOUR + 60_000;

export interface Created {
  body: Record<string, any>;
  from: string;
}

/**
 * Creates `count` anonymous keys from networks 127.<site>.x.y, moving the clock `stepMs`
 * between two keys. `site` keeps the networks of separate bursts apart.
 */
export async function createKeys(svc: TestService, count: number, site: number, stepMs = 0): Promise<Created[]> {
  const created: Created[] = [];
  for (let i = 0; i < count; i++) {
    if (i > 0 && stepMs) svc.clock.advance(stepMs);
    const n = Math.floor(i / 3);
    const from = `127.${site}.${Math.floor(n / 250)}.${1 + (n % 250)}`;
    const r = await svc.call('/v1/keys/generate', { method: 'POST', from });
    assert.equal(r.status, 201, r.text);
    created.push({ body: r.body, from });
  }
  return created;
}

/** 51 anonymous keys at once: the 51st starts the alert and is the reduced key returned. */
export async function burst(svc: TestService, site: number): Promise<Created> {
  const created = await createKeys(svc, 51, site);
  const reduced = created[50]!;
  assert.deepEqual([reduced.body.monthly_limit, reduced.body.basis], [5, 'lifetime'], 'the 51st key is reduced');
  return reduced;
}

/** One data call (cost 1) with the key. */
export function validate(svc: TestService, key: string, from: string, json: unknown = { iban: IBAN }) {
  return svc.call('/v1/iban/validate', { key, json, from });
}

/** `[used, limit, basis]` from GET /v1/keys/usage. */
export async function quota(svc: TestService, key: string, from: string): Promise<[number, number, string]> {
  const r = await svc.call('/v1/keys/usage', { key, from });
  assert.equal(r.status, 200, r.text);
  return [r.body.used, r.body.limit, r.body.basis];
}
