/**
 * A key bought by card whose first display was lost on the way (docs/api.md, "GET
 * /v1/card/success"): the browser that started the checkout holds a token of its own, set with
 * the checkout's answer, so its reload within 10 minutes of the first display shows the key
 * again, with a new secret (the lost one stops working). Without that token, after 10 minutes, or
 * once the key was rotated by its holder, it stays 410.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CardService, startCardService } from '../../support/stripe/card-service.ts';

const VALID = 'BE71 0961 2345 6769';
const path = (sessionId: string) => `/v1/card/success?session_id=${encodeURIComponent(sessionId)}`;
const cookiesOf = (setCookie: string | string[] | undefined): string[] =>
  (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []).map((c) => c.split(';')[0] ?? '');

/** A checkout started by a browser, paid: the cookie its checkout answer set, and the session. */
async function boughtByBrowser(card: CardService, product = 'pack_1k') {
  const started = await card.service.call('/v1/card/checkout', { method: 'POST', json: { product } });
  assert.equal(started.status, 201, started.text);
  const setCookie = String(started.headers['set-cookie']);
  assert.match(
    setCookie,
    /^mod97_card_buyer=[\w-]{43}; Path=\/v1\/card\/success; Max-Age=\d+; HttpOnly; SameSite=Lax$/,
  );
  assert.doesNotMatch(
    started.text,
    new RegExp(setCookie.split(';')[0]!.split('=')[1]!),
    'the token is not in the body',
  );
  const sessionId = started.body.session_id as string;
  await card.deliver('checkout.session.completed', card.api.complete(sessionId));
  return { sessionId, buyer: cookiesOf(started.headers['set-cookie'])[0]! };
}

const works = async (card: CardService, key: string) =>
  (await card.service.call('/v1/iban/validate', { json: { iban: VALID }, key })).status;

test('a lost first display: the browser that started the checkout sees the key again, with a new secret', async () => {
  const card = await startCardService();
  const { sessionId, buyer } = await boughtByBrowser(card);
  const lost = await card.service.call(path(sessionId), { headers: { cookie: buyer } });
  assert.equal(lost.status, 200);
  const lostKey = lost.body.api_key as string; // this answer, and the cookie it set, never arrived

  card.service.clock.advance(9 * 60_000);
  const reload = await card.service.call(path(sessionId), { headers: { cookie: buyer } });
  assert.equal(reload.status, 200, reload.text);
  const key = reload.body.api_key as string;
  assert.match(key, /^ifk_/);
  assert.notEqual(key, lostKey);
  assert.match(reload.body.message, /new secret/);
  assert.deepEqual([reload.body.tier, reload.body.limit], ['credits', 1000]);
  assert.equal(await works(card, lostKey), 401, 'the secret that was lost no longer works');
  assert.equal(await works(card, key), 200);

  // This answer's own cookie shows the same key again, not yet another one.
  const cookies = [buyer, ...cookiesOf(reload.headers['set-cookie'])].join('; ');
  const again = await card.service.call(path(sessionId), { headers: { cookie: cookies } });
  assert.equal(again.body.api_key, key);
  assert.equal(await works(card, key), 200);

  const elsewhere = await card.success(sessionId);
  assert.equal(elsewhere.status, 410, 'another browser, with the session id alone');
  assert.equal(elsewhere.body.api_key, undefined);
});

test('the token shows nothing after 10 minutes, once the key was rotated, or for another checkout', async () => {
  const card = await startCardService();
  const late = await boughtByBrowser(card);
  assert.equal((await card.service.call(path(late.sessionId), { headers: { cookie: late.buyer } })).status, 200);
  card.service.clock.advance(10 * 60_000 + 1);
  const tooLate = await card.service.call(path(late.sessionId), { headers: { cookie: late.buyer } });
  assert.equal(tooLate.status, 410);

  const rotated = await boughtByBrowser(card);
  const shown = await card.service.call(path(rotated.sessionId), { headers: { cookie: rotated.buyer } });
  const renewed = await card.service.call('/v1/keys/rotate', { method: 'POST', key: shown.body.api_key });
  assert.equal(renewed.status, 200);
  const afterRotation = await card.service.call(path(rotated.sessionId), { headers: { cookie: rotated.buyer } });
  assert.equal(afterRotation.status, 410, 'the holder rotated it: the page does not take it back');
  assert.equal(await works(card, renewed.body.api_key), 200);

  const other = await boughtByBrowser(card);
  assert.equal((await card.success(other.sessionId)).status, 200);
  const crossed = await card.service.call(path(other.sessionId), { headers: { cookie: rotated.buyer } });
  assert.equal(crossed.status, 410, "one checkout's token shows nothing of another");
});

test('a Pro upgrade of a key the buyer holds sets no token: nothing is shown', async () => {
  const card = await startCardService();
  const key = await card.service.newKey();
  const started = await card.checkout('pro', key);
  assert.equal(started.status, 201);
  assert.equal(started.headers['set-cookie'], undefined);
});
