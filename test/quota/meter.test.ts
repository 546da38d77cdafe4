import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { domain, startAlert } from '../support/domain.ts';

describe('Meter', () => {
  test('admits the whole cost or nothing, and a refund gives it back', async () => {
    const { keys, meter } = domain();
    const { secret } = await keys.generateAnonymous('10.1.0.1');
    const row = (await keys.authenticate(secret))!;
    const first = await meter.admitKey(row, 24);
    assert.deepEqual([first.admitted, first.used, first.plan.limit, first.plan.basis], [true, 24, 25, 'monthly']);
    const batch = await meter.admitKey(row, 2);
    assert.deepEqual([batch.admitted, batch.used], [false, 24], 'a batch that does not fit is not served in part');
    assert.equal(await meter.refund(first.plan.counter, 4), 20);
    assert.equal((await meter.balance(row)).used, 20);
  });

  test('the no-key trial: 25 calls per network per UTC day', async () => {
    const { meter, clock } = domain();
    for (let i = 1; i <= 25; i++) assert.equal((await meter.admitTrial('10.1.0.2')).used, i);
    const refused = await meter.admitTrial('10.1.0.2');
    assert.deepEqual([refused.admitted, refused.used, refused.counter.period], [false, 25, '2026-11-21']);
    assert.equal((await meter.admitTrial('10.1.0.3')).admitted, true, 'another network has its own trial');
    clock.set('2026-11-22T00:00:00Z');
    assert.equal(await meter.trialUsed('10.1.0.2'), 0);
  });

  test('a key born in a creation alert has 5 calls over its life while the alert lasts, each counted in its month too', async () => {
    const { keys, meter, clock } = domain();
    await startAlert(keys);
    const { secret } = await keys.generateAnonymous('10.1.0.4');
    const key = (await keys.authenticate(secret))!;
    const plan = await meter.planFor(key);
    assert.deepEqual([plan.basis, plan.limit, plan.reduced], ['lifetime', 5, true]);
    for (let i = 0; i < 5; i++) assert.equal((await meter.admitKey(key, 1)).admitted, true);
    assert.equal((await meter.admitKey(key, 1)).admitted, false);

    clock.advance(3 * 3600_000 + 60_000);
    const after = await meter.balance(key);
    assert.deepEqual([after.plan.basis, after.plan.limit, after.used], ['monthly', 25, 5]);
  });
});
