/** Idempotency-Key entries (docs/api.md, "Safe retries"), the same on every engine. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { IdempotencyReservation, Store } from '../../src/store/types.ts';

const DAY = 86_400_000;
/** An answer as a store keeps it (engine tests use it too). */
export const ANSWER = { status: 200, contentType: 'application/json; charset=utf-8', body: '{"valid":true}' };

/** A first request's reservation of a fresh key (engine tests use it too). */
export function newReservation(overrides: Partial<IdempotencyReservation> = {}): IdempotencyReservation {
  const now = 1_800_000_000_000;
  return {
    scope: `key:${randomUUID()}`,
    key: randomUUID(),
    fingerprint: 'POST /v1/iban/validate body-1',
    token: randomUUID(),
    now,
    expiresAt: now + DAY,
    staleBefore: now - 60_000,
    ...overrides,
  };
}

export function idempotencyContract(current: () => Store): void {
  test('idempotency: of 20 racing requests with one key exactly one reserves it; the others see it in progress', async () => {
    const store = current();
    const first = newReservation();
    const claims = await Promise.all(
      Array.from({ length: 20 }, () => store.reserveIdempotency({ ...first, token: randomUUID() })),
    );
    assert.equal(claims.filter((c) => c.state === 'reserved').length, 1);
    assert.equal(claims.filter((c) => c.state === 'in_progress').length, 19);
  });

  test('idempotency: a completed answer is given back to the same request, and the key refused to another', async () => {
    const store = current();
    const first = newReservation();
    assert.deepEqual(await store.reserveIdempotency(first), { state: 'reserved' });
    assert.equal(await store.completeIdempotency(first.scope, first.key, first.token, ANSWER), true);
    assert.deepEqual(await store.reserveIdempotency({ ...first, token: randomUUID() }), {
      state: 'done',
      answer: ANSWER,
    });
    assert.deepEqual(await store.reserveIdempotency({ ...first, token: randomUUID(), fingerprint: 'other body' }), {
      state: 'mismatch',
    });
    // The same key in another scope (another API key, another network) is another entry.
    assert.deepEqual(await store.reserveIdempotency({ ...first, scope: 'net:198.51.100.0', token: randomUUID() }), {
      state: 'reserved',
    });
  });

  test('idempotency: an answer not kept (over 64 KiB) says so to the same request; another request is still a mismatch', async () => {
    const store = current();
    const first = newReservation();
    await store.reserveIdempotency(first);
    const notKept = { status: 200, contentType: null, body: null };
    assert.equal(await store.completeIdempotency(first.scope, first.key, first.token, notKept), true);
    assert.deepEqual(await store.reserveIdempotency({ ...first, token: randomUUID() }), { state: 'not_kept' });
    assert.deepEqual(await store.reserveIdempotency({ ...first, token: randomUUID(), fingerprint: 'other body' }), {
      state: 'mismatch',
    });
    // Not a reservation left stale: a minute later it still answers not_kept, until it expires.
    const later = { ...first, token: randomUUID(), now: first.now + 120_000, staleBefore: first.now + 60_000 };
    assert.deepEqual(await store.reserveIdempotency(later), { state: 'not_kept' });
    const expired = { ...first, token: randomUUID(), now: first.expiresAt, expiresAt: first.expiresAt + DAY };
    assert.deepEqual(await store.reserveIdempotency(expired), { state: 'reserved' });
  });

  test('idempotency: a released reservation is free again, and only its own token completes or releases it', async () => {
    const store = current();
    const first = newReservation();
    await store.reserveIdempotency(first);
    assert.equal(await store.completeIdempotency(first.scope, first.key, 'not-mine', ANSWER), false);
    await store.releaseIdempotency(first.scope, first.key, 'not-mine');
    assert.deepEqual(await store.reserveIdempotency({ ...first, token: randomUUID() }), { state: 'in_progress' });
    await store.releaseIdempotency(first.scope, first.key, first.token);
    const second = { ...first, token: randomUUID() };
    assert.deepEqual(await store.reserveIdempotency(second), { state: 'reserved' });
    assert.equal(await store.completeIdempotency(first.scope, first.key, first.token, ANSWER), false);
  });

  test('idempotency: an expired entry, or one left stale, may be taken: by the same request resumed, by another reserved', async () => {
    const store = current();
    const done = newReservation();
    await store.reserveIdempotency(done);
    await store.completeIdempotency(done.scope, done.key, done.token, ANSWER);
    const later = done.expiresAt;
    const afresh = { ...done, token: randomUUID(), fingerprint: 'other body', now: later, expiresAt: later + DAY };
    assert.deepEqual(await store.reserveIdempotency({ ...afresh, staleBefore: later - 60_000 }), { state: 'reserved' });

    const left = newReservation();
    await store.reserveIdempotency(left);
    const soon = { ...left, token: randomUUID(), now: left.now + 1_000 };
    assert.deepEqual(await store.reserveIdempotency(soon), { state: 'in_progress' });
    const stale = { ...soon, now: left.now + 61_000, staleBefore: left.now + 1_000 };
    // The same request, left unanswered: it may have been charged, so its retry is resumed.
    assert.deepEqual(await store.reserveIdempotency(stale), { state: 'resumed' });

    const other = newReservation();
    await store.reserveIdempotency(other);
    const another = { ...other, token: randomUUID(), fingerprint: 'other body', now: other.now + 61_000 };
    assert.deepEqual(await store.reserveIdempotency({ ...another, staleBefore: other.now + 1_000 }), {
      state: 'reserved',
    });
  });

  test('idempotency: an entry charged and then refunded is freed by its release; one charged and unanswered is resumed', async () => {
    const store = current();
    const counter = { scope: 'key' as const, subject: randomUUID(), period: '2027-01' };
    const refunded = newReservation();
    await store.reserveIdempotency(refunded);
    assert.equal(await store.admit(counter, 1, 10, refunded), 1);
    await store.refund(counter, 1);
    await store.releaseIdempotency(refunded.scope, refunded.key, refunded.token);
    const again = { ...refunded, token: randomUUID(), now: refunded.now + 61_000, staleBefore: refunded.now + 1_000 };
    assert.deepEqual(await store.reserveIdempotency(again), { state: 'reserved' });

    const charged = newReservation();
    await store.reserveIdempotency(charged);
    assert.deepEqual(await store.admitAll([{ ref: counter, limit: 10 }], 1, charged), [1]);
    const retry = { ...charged, token: randomUUID(), now: charged.now + 61_000, staleBefore: charged.now + 1_000 };
    assert.deepEqual(await store.reserveIdempotency(retry), { state: 'resumed' });
    assert.equal(await store.completeIdempotency(retry.scope, retry.key, retry.token, ANSWER), true);
    assert.deepEqual(await store.reserveIdempotency({ ...retry, token: randomUUID() }), {
      state: 'done',
      answer: ANSWER,
    });
  });

  test('idempotency: purge deletes the expired entries and keeps the others', async () => {
    const store = current();
    const old = newReservation({ now: 1_000, expiresAt: 1_000 + DAY });
    const young = newReservation({ now: 2 * DAY, expiresAt: 3 * DAY });
    for (const r of [old, young]) {
      await store.reserveIdempotency(r);
      await store.completeIdempotency(r.scope, r.key, r.token, ANSWER);
    }
    assert.ok((await store.purgeIdempotency(2 * DAY)) >= 1);
    // The young entry still answers; the old one is gone (reserved afresh even before its expiry).
    assert.equal((await store.reserveIdempotency({ ...young, token: randomUUID() })).state, 'done');
    const again = { ...old, token: randomUUID(), fingerprint: 'other body', now: 2_000, staleBefore: 0 };
    assert.deepEqual(await store.reserveIdempotency(again), { state: 'reserved' });
  });
}
