import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CardFulfilment } from '../../../src/payments/stripe/fulfil.ts';
import { domain } from '../../support/domain.ts';

function fulfilment() {
  const d = domain();
  return { ...d, fulfil: new CardFulfilment(d.store, d.keys, d.clock) };
}

describe('CardFulfilment', () => {
  test('a bought key is created once under the id chosen at checkout, with the pack as its balance', async () => {
    const { fulfil, store } = fulfilment();
    await fulfil.ensureNewKey('bought-1', { credits: 5000 });
    await fulfil.ensureNewKey('bought-1', { credits: 5000 });
    const key = (await store.keyById('bought-1'))!;
    assert.deepEqual([key.tier, key.basis, key.limit, key.network], ['credits', 'credits', 5000, 'card']);
  });

  test('a pack claims an anonymous key (lifetime 200) and nothing else', async () => {
    const { fulfil, keys, store } = fulfilment();
    const anonymous = (await keys.generateAnonymous('10.3.0.1')).key;
    const email = (await keys.generateEmail('10.3.0.2', 'an-address-hash')).key;
    assert.equal(await fulfil.claimByPack(anonymous.id), true);
    const claimed = (await store.keyById(anonymous.id))!;
    assert.deepEqual([claimed.tier, claimed.basis, claimed.limit], ['claimed', 'lifetime', 200]);
    assert.equal(await fulfil.claimByPack(anonymous.id), false, 'claimed once');
    assert.equal(await fulfil.claimByPack(email.id), false);
  });

  test('Pro ends back on the exact plan the key had, only by the subscription it rests on; a paid one resumes it', async () => {
    const { fulfil, keys, store } = fulfilment();
    const { key } = await keys.generateAnonymous('10.3.0.3');
    await fulfil.claimByPack(key.id);
    const before = (await store.keyById(key.id))!;
    assert.equal(await fulfil.startPro(key.id, 'sub_1'), true);
    const pro = (await store.keyById(key.id))!;
    assert.deepEqual([pro.tier, pro.basis, pro.limit], ['pro', 'monthly', 10_000]);
    assert.equal(await fulfil.endPro(key.id, 'sub_other', true), false);
    assert.equal(await fulfil.endPro(key.id, 'sub_1', false), true, 'unpaid');
    const fallen = (await store.keyById(key.id))!;
    assert.deepEqual(
      [fallen.tier, fallen.basis, fallen.limit, fallen.lifetimePeriod],
      [before.tier, before.basis, before.limit, before.lifetimePeriod],
    );
    assert.equal(await fulfil.resumePro(key.id, 'sub_1'), true, 'the invoice was paid');
    assert.equal((await store.keyById(key.id))?.tier, 'pro');
    assert.equal(await fulfil.resumePro(key.id, 'sub_other'), false, 'Pro is on: another subscription changes nothing');

    // A second subscription of the key takes over when the first stops, with the same plan to fall back to.
    assert.equal(await fulfil.movePro(key.id, 'sub_other', 'sub_2'), false, 'only from the one Pro rests on');
    assert.equal(await fulfil.movePro(key.id, 'sub_1', 'sub_2'), true);
    assert.equal(await fulfil.endPro(key.id, 'sub_1', true), false, 'Pro rests on sub_2 now');
    assert.equal(await fulfil.endPro(key.id, 'sub_2', true), true);
    const ended = (await store.keyById(key.id))!;
    assert.deepEqual(
      [ended.tier, ended.basis, ended.limit, ended.lifetimePeriod, ended.subscriptionId],
      [before.tier, before.basis, before.limit, before.lifetimePeriod, null],
    );
    assert.equal(await fulfil.resumePro(key.id, 'sub_3'), true, 'a subscription of the key paid gives Pro again');
  });
});
