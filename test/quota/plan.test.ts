import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { effectivePlan } from '../../src/quota/plan.ts';
import type { KeyRow } from '../../src/records.ts';

const base: KeyRow = {
  id: 'k1',
  keyHash: 'h',
  keyPrefix: 'ifk_abcd',
  tier: 'anonymous',
  basis: 'monthly',
  limit: 25,
  lifetimePeriod: null,
  emailHash: null,
  network: '127.0.0.1',
  createdAt: 0,
  alertBorn: false,
  firstServedAt: null,
  paidMicros: 0,
  fallback: null,
  subscriptionId: null,
  revokedAt: null,
  planRev: 0,
};
const nov = Date.parse('2026-11-21T00:00:00Z');

describe('the governing plan of a key', () => {
  test('a monthly key counts in the current UTC month', () => {
    assert.deepEqual(effectivePlan(base, nov, false).counter, { scope: 'key', subject: 'k1', period: '2026-11' });
    assert.equal(effectivePlan(base, Date.parse('2026-12-01T00:00:00Z'), false).counter.period, '2026-12');
  });
  test('a lifetime key keeps one counter across months', () => {
    const key = {
      ...base,
      tier: 'claimed' as const,
      basis: 'lifetime' as const,
      limit: 200,
      lifetimePeriod: 'lifetime:1',
    };
    assert.equal(
      effectivePlan(key, nov, false).counter.period,
      effectivePlan(key, nov + 90 * 86400_000, false).counter.period,
    );
  });
  test('a key born in an alert is lifetime 5 while the alert lasts, then 25 a month', () => {
    const key = { ...base, alertBorn: true };
    assert.deepEqual([effectivePlan(key, nov, true).basis, effectivePlan(key, nov, true).limit], ['lifetime', 5]);
    assert.deepEqual([effectivePlan(key, nov, false).basis, effectivePlan(key, nov, false).limit], ['monthly', 25]);
  });
  test('a claimed key born in an alert is never reduced', () => {
    const key = { ...base, alertBorn: true, tier: 'claimed' as const, limit: 200 };
    assert.equal(effectivePlan(key, nov, true).limit, 200);
  });
});
