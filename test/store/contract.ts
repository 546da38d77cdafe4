/**
 * The one contract every store engine must meet. Each engine's test file calls
 * `storeContract` with a factory that opens a fresh, empty store.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { CounterRef, NewKey, Store } from '../../src/store/types.ts';
import { alertContract } from './alert-contract.ts';
import { dailyContract } from './daily-contract.ts';
import { idempotencyContract } from './idempotency-contract.ts';
import { mailboxContract } from './mailbox-contract.ts';

export function newKeyRow(overrides: Partial<NewKey> = {}): NewKey {
  const id = randomUUID();
  return {
    id,
    keyHash: `hash-${id}`,
    keyPrefix: 'ifk_abcd',
    tier: 'anonymous',
    basis: 'monthly',
    limit: 25,
    lifetimePeriod: null,
    emailHash: null,
    network: '127.0.0.1',
    createdAt: 1_700_000_000_000,
    alertBorn: false,
    ...overrides,
  };
}

/** A checkout whose key was never shown, started without a buyer's token. */
const NOT_REVEALED = { buyerTokenHash: null, revealedAt: null, revealedKeyHash: null };

export function storeContract(engine: string, open: () => Promise<Store>): void {
  describe(`store contract: ${engine}`, () => {
    let store: Store;
    before(async () => {
      store = await open();
    });
    after(async () => {
      await store?.close();
    });
    const ref = (subject = randomUUID()): CounterRef => ({ scope: 'key', subject, period: '2026-11' });

    test('admit adds the whole cost while it fits and refuses without writing when it does not', async () => {
      const c = ref();
      assert.equal(await store.admit(c, 20, 25), 20);
      assert.equal(await store.admit(c, 6, 25), null);
      assert.equal(await store.read(c), 20);
      assert.equal(await store.admit(c, 5, 25), 25);
      assert.equal(await store.admit(c, 1, 25), null);
    });

    test('a first cost above the limit creates nothing', async () => {
      const c = ref();
      assert.equal(await store.admit(c, 30, 25), null);
      assert.equal(await store.read(c), 0);
    });

    test('periods and subjects count apart', async () => {
      const c = ref();
      await store.admit(c, 3, 10);
      assert.equal(await store.read({ ...c, period: '2026-12' }), 0);
      assert.equal(await store.read({ ...c, subject: 'other' }), 0);
    });

    test('refund gives back and never goes below zero', async () => {
      const c = ref();
      await store.admit(c, 5, 10);
      assert.equal(await store.refund(c, 2), 3);
      assert.equal(await store.refund(c, 10), 0);
      assert.equal(await store.refund(ref(), 1), 0, 'refunding a missing counter is harmless');
    });

    test('200 concurrent admits for the last 50 units: exactly 50 succeed', async () => {
      const c = ref();
      await store.admit(c, 150, 200);
      const results = await Promise.all(Array.from({ length: 200 }, () => store.admit(c, 1, 200)));
      assert.equal(results.filter((r) => r !== null).length, 50);
      assert.equal(await store.read(c), 200);
    });

    test('admits of one turn with mixed costs and keys: each key takes them in arrival order, a refused one alone', async () => {
      // Sent together, so the engine may decide them as one group: the outcome must equal taking
      // them one by one in the order they were made.
      const [a, b] = [ref(), ref()];
      await store.admit(a, 5, 10);
      const calls: [CounterRef, number][] = [
        [a, 3],
        [b, 7],
        [a, 4],
        [a, 2],
        [b, 4],
        [b, 3],
        [a, 1],
      ];
      const results = await Promise.all(calls.map(([c, cost]) => store.admit(c, cost, 10)));
      assert.deepEqual(results, [8, 7, null, 10, null, 10, null]);
      assert.deepEqual([await store.read(a), await store.read(b)], [10, 10]);
    });

    test('admits of one turn, each on its own counter: a refused one alone, a new counter created', async () => {
      const [full, roomy, fresh, tooBig] = [ref(), ref(), ref(), ref()];
      await store.admit(full, 9, 10);
      await store.admit(roomy, 2, 10);
      await store.admit(tooBig, 1, 10);
      const results = await Promise.all([
        store.admit(full, 2, 10),
        store.admit(roomy, 3, 10),
        store.admit(fresh, 4, 10),
        store.admit(tooBig, 10, 10),
      ]);
      assert.deepEqual(results, [null, 5, 4, null]);
      assert.deepEqual(await Promise.all([full, roomy, fresh, tooBig].map((c) => store.read(c))), [9, 5, 4, 1]);
    });

    test('a key is found by its hash and id; rotation swaps the hash only from the current one', async () => {
      const row = newKeyRow();
      await store.insertKey(row);
      const found = await store.keyByHash(row.keyHash);
      assert.equal(found?.id, row.id);
      assert.deepEqual(
        [
          found?.tier,
          found?.basis,
          found?.limit,
          found?.alertBorn,
          found?.planRev,
          found?.firstServedAt,
          found?.paidMicros,
        ],
        ['anonymous', 'monthly', 25, false, 0, null, 0],
      );
      assert.equal(await store.rotateKey(row.id, 'wrong', 'new-hash', 'ifk_new1'), false);
      assert.equal(await store.rotateKey(row.id, row.keyHash, 'new-hash', 'ifk_new1'), true);
      assert.equal(await store.keyByHash(row.keyHash), null);
      assert.equal((await store.keyByHash('new-hash'))?.keyPrefix, 'ifk_new1');
      assert.equal((await store.keyById(row.id))?.keyHash, 'new-hash');
    });

    test('a plan change applies once per revision', async () => {
      const row = newKeyRow();
      await store.insertKey(row);
      const change = { tier: 'claimed' as const, basis: 'lifetime' as const, limit: 200, lifetimePeriod: 'lifetime:x' };
      const results = await Promise.all([store.changePlan(row.id, 0, change), store.changePlan(row.id, 0, change)]);
      assert.deepEqual(results.sort(), [false, true]);
      const after = await store.keyById(row.id);
      assert.deepEqual(
        [after?.tier, after?.basis, after?.limit, after?.lifetimePeriod, after?.planRev],
        ['claimed', 'lifetime', 200, 'lifetime:x', 1],
      );
    });

    test('a plan change keeps, and later clears, the exact plan to fall back to', async () => {
      const row = newKeyRow({ tier: 'claimed', basis: 'lifetime', limit: 200, lifetimePeriod: 'lifetime:1' });
      await store.insertKey(row);
      assert.equal((await store.keyById(row.id))?.fallback, null);
      const fallback = {
        tier: 'claimed' as const,
        basis: 'lifetime' as const,
        limit: 200,
        lifetimePeriod: 'lifetime:1',
      };
      assert.equal(
        await store.changePlan(row.id, 0, {
          tier: 'pro',
          basis: 'monthly',
          limit: 10_000,
          lifetimePeriod: null,
          fallback,
        }),
        true,
      );
      assert.deepEqual((await store.keyById(row.id))?.fallback, fallback);
      assert.equal(
        await store.changePlan(row.id, 1, { tier: 'pro', basis: 'monthly', limit: 10_000, lifetimePeriod: null }),
        true,
      );
      assert.deepEqual((await store.keyById(row.id))?.fallback, fallback, 'a change that names no fallback keeps it');
      assert.equal(await store.changePlan(row.id, 2, { ...fallback, fallback: null }), true);
      assert.equal((await store.keyById(row.id))?.fallback, null);
    });

    test('a revoked key is no longer found by its hash; revoking twice changes nothing', async () => {
      const row = newKeyRow();
      await store.insertKey(row);
      assert.equal(await store.keyByHash(row.keyHash).then((k) => k?.id), row.id);
      assert.equal(await store.revokeKey(row.id, 500), true);
      assert.equal(await store.revokeKey(row.id, 600), false);
      assert.equal(await store.keyByHash(row.keyHash), null);
      assert.equal((await store.keyById(row.id))?.revokedAt, 500);
    });

    test('the first served call is recorded once', async () => {
      const row = newKeyRow();
      await store.insertKey(row);
      await store.markServed(row.id, 111);
      await store.markServed(row.id, 222);
      assert.equal((await store.keyById(row.id))?.firstServedAt, 111);
    });

    test('settings keep the first value written by settingOrInit', async () => {
      const name = `s-${randomUUID()}`;
      assert.equal(await store.getSetting(name), null);
      assert.equal(await store.settingOrInit(name, 'first'), 'first');
      assert.equal(await store.settingOrInit(name, 'second'), 'first');
      await store.setSetting(name, 'third');
      assert.equal(await store.getSetting(name), 'third');
    });

    test('a dataset is replaced whole on each import and listed with its provenance', async () => {
      const kind = `kind-${randomUUID()}`;
      await store.putDataset({ kind, source: 'SIX', asOf: '2026-11-01', asOfBasis: 'file', importedAt: 5, count: 2 }, [
        { a: 1 },
        { a: 2 },
      ]);
      await store.putDataset(
        { kind, source: 'SIX', asOf: '2026-11-15', asOfBasis: 'last_modified', importedAt: 6, count: 1 },
        [{ a: 3 }],
      );
      const got = await store.getDataset(kind);
      assert.deepEqual(got?.records, [{ a: 3 }]);
      assert.deepEqual(got?.meta, {
        kind,
        source: 'SIX',
        asOf: '2026-11-15',
        asOfBasis: 'last_modified',
        importedAt: 6,
        count: 1,
      });
      assert.ok((await store.listDatasets()).some((m) => m.kind === kind));
      assert.equal(await store.getDataset('missing'), null);
    });

    test('a card checkout is recorded once and completed only the first time', async () => {
      const sessionId = `cs_${randomUUID()}`;
      assert.equal(await store.checkoutBySession(sessionId), null);
      await store.recordCheckout(sessionId, 'pack_1k', 10);
      await store.recordCheckout(sessionId, 'pro', 11);
      assert.deepEqual(await store.checkoutBySession(sessionId), {
        sessionId,
        product: 'pack_1k',
        keyId: null,
        newKey: false,
        createdAt: 10,
        completedAt: null,
        ...NOT_REVEALED,
      });
      const results = await Promise.all([
        store.completeCheckout(sessionId, 'pack_1k', 'key-a', true, 20),
        store.completeCheckout(sessionId, 'pack_1k', 'key-b', false, 21),
      ]);
      assert.deepEqual([...results].sort(), [false, true]);
      const won = results[0]
        ? { keyId: 'key-a', newKey: true, completedAt: 20 }
        : { keyId: 'key-b', newKey: false, completedAt: 21 };
      assert.deepEqual(await store.checkoutBySession(sessionId), {
        sessionId,
        product: 'pack_1k',
        createdAt: 10,
        ...NOT_REVEALED,
        ...won,
      });
    });

    test('a checkout first seen on completion is recorded with its key', async () => {
      const sessionId = `cs_${randomUUID()}`;
      assert.equal(await store.completeCheckout(sessionId, 'pro', 'key-c', false, 30), true);
      assert.deepEqual(await store.checkoutBySession(sessionId), {
        sessionId,
        product: 'pro',
        keyId: 'key-c',
        newKey: false,
        createdAt: 30,
        completedAt: 30,
        ...NOT_REVEALED,
      });
    });

    test("a checkout keeps its buyer's token hash, when its key was first shown, and the secret shown last", async () => {
      const sessionId = `cs_${randomUUID()}`;
      await store.recordCheckout(sessionId, 'pack_1k', 10, 'token-hash');
      await store.completeCheckout(sessionId, 'pack_1k', 'key-d', true, 20);
      await store.recordReveal(sessionId, 'hash-1', 30);
      await store.recordReveal(sessionId, 'hash-2', 40);
      const found = await store.checkoutBySession(sessionId);
      assert.deepEqual(
        [found?.buyerTokenHash, found?.revealedAt, found?.revealedKeyHash],
        ['token-hash', 30, 'hash-2'],
      );
    });

    test('a pack recovery is kept once per payment and found until it lapses', async () => {
      const paymentId = `pay-${randomUUID()}`;
      const kept = { paymentId, keyId: 'key-e', proof: 'proof-1', expiresAt: 1_000 };
      await store.keepPackRecovery(kept, 100);
      await store.keepPackRecovery({ ...kept, keyId: 'key-f', proof: 'proof-2' }, 100);
      assert.deepEqual(await store.packRecovery(paymentId, 999), kept, 'the first stays');
      assert.equal(await store.packRecovery(paymentId, 1_000), null, 'lapsed');
      assert.equal(await store.packRecovery(`pay-${randomUUID()}`, 100), null);
      const later = { ...kept, paymentId: `pay-${randomUUID()}`, expiresAt: 3_000 };
      await store.keepPackRecovery(later, 2_000);
      assert.deepEqual(await store.packRecovery(later.paymentId, 2_000), later);
    });

    test('a card step is marked done once, even by racing callers, and can be taken back', async () => {
      const id = `evt_${randomUUID()}`;
      const first = await Promise.all([1, 2, 3].map((i) => store.markDone('stripe_event', id, i)));
      assert.deepEqual(first.sort(), [false, false, true]);
      assert.equal(await store.markDone('stripe_session', id, 4), true, 'each step has its own marks');
      await store.unmarkDone('stripe_event', id);
      assert.equal(await store.markDone('stripe_event', id, 5), true, 'a step taken back runs again');
      assert.equal(await store.markDone('stripe_event', id, 6), false);
    });

    test('a key holds one Pro checkout: racing holds take it once, and it lapses, is opened and is freed', async () => {
      const keyId = randomUUID();
      const hold = (token: string, expiresAt = 1_000) =>
        store.holdProCheckout({ keyId, token, sessionId: null, checkoutUrl: null, expiresAt }, 100);
      const claims = await Promise.all(['t1', 't2', 't3', 't4'].map((token) => hold(token)));
      assert.equal(claims.filter((c) => c.taken).length, 1);
      const winner = ['t1', 't2', 't3', 't4'][claims.findIndex((c) => c.taken)];
      for (const claim of claims.filter((c) => !c.taken)) {
        if (claim.taken || !claim.open) continue;
        assert.equal(claim.open.token, winner);
      }
      assert.deepEqual(await hold(winner), { taken: true }, 'the same hold asked again is still its own');
      assert.equal(
        await store.openProCheckout(keyId, 'another', { sessionId: 'cs_x', checkoutUrl: 'u', expiresAt: 5_000 }),
        false,
        'only the holder records its session',
      );
      const opened = { sessionId: 'cs_1', checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_1', expiresAt: 5_000 };
      assert.equal(await store.openProCheckout(keyId, winner, opened), true);
      assert.deepEqual(await hold('late'), { taken: false, open: { keyId, token: winner, ...opened } });

      // Lapsed at `now`: another takes it.
      const lapsed = await store.holdProCheckout(
        { keyId, token: 'later', sessionId: null, checkoutUrl: null, expiresAt: 9_000 },
        5_000,
      );
      assert.deepEqual(lapsed, { taken: true });
      await store.releaseProCheckout(keyId, 'cs_1');
      await store.releaseProCheckout(keyId, winner);
      assert.equal((await hold('next')).taken, false, 'freed only by its own token or session');
      await store.releaseProCheckout(keyId, 'later');
      assert.deepEqual(await hold('next'), { taken: true });
      await store.openProCheckout(keyId, 'next', { ...opened, sessionId: 'cs_2' });
      await store.releaseProCheckout(keyId, 'cs_2');
      assert.deepEqual(await hold('after'), { taken: true }, 'freed by its session');
      const other = await store.holdProCheckout(
        { keyId: randomUUID(), token: 'after', sessionId: null, checkoutUrl: null, expiresAt: 1_000 },
        100,
      );
      assert.deepEqual(other, { taken: true }, 'each key has its own');
    });

    test("a key's Pro subscriptions are linked once and listed newest first", async () => {
      const keyId = randomUUID();
      assert.deepEqual(await store.subscriptionsOf(keyId), []);
      await store.linkSubscription('sub_a', keyId, 10);
      await store.linkSubscription('sub_b', keyId, 20);
      await store.linkSubscription('sub_a', randomUUID(), 30);
      await store.linkSubscription(`sub_${keyId}`, randomUUID(), 40);
      assert.deepEqual(await store.subscriptionsOf(keyId), ['sub_b', 'sub_a']);
    });

    mailboxContract(() => store);
    alertContract(() => store);
    dailyContract(() => store);
    idempotencyContract(() => store);
  });
}
