/**
 * The one-time display of a key bought by card is used up only by the buyer's page reading it:
 * never by HEAD or a prefetch (link previews, speculative loads), and the browser that saw it
 * may see it again for 10 minutes; another browser gets 410.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from '../../support/http.ts';
import { startCardService } from '../../support/stripe/card-service.ts';

const VALID = 'BE71 0961 2345 6769';
const path = (sessionId: string) => `/v1/card/success?session_id=${encodeURIComponent(sessionId)}`;
const cookieOf = (setCookie: string | string[] | undefined): string =>
  String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(';')[0]!;

test('a HEAD request does not use up the display: the GET after it shows the key', async () => {
  const card = await startCardService();
  const { sessionId } = await card.buy('pack_1k');
  for (let i = 0; i < 2; i++) {
    const head = await call(card.service.url, path(sessionId), { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers['set-cookie'], undefined);
  }
  const shown = await card.success(sessionId);
  assert.equal(shown.status, 200);
  const key = shown.body.api_key as string;
  assert.match(key, /^ifk_/);
  assert.equal((await card.service.call('/v1/iban/validate', { json: { iban: VALID }, key })).status, 200);
});

test('a prefetch (Sec-Purpose or Purpose) is declined without using up the display', async () => {
  const card = await startCardService();
  const { sessionId } = await card.buy('pack_1k');
  const prefetches: Record<string, string>[] = [
    { 'sec-purpose': 'prefetch', accept: 'text/html' },
    { 'sec-purpose': 'prefetch;prerender' },
    { purpose: 'prefetch' },
  ];
  for (const headers of prefetches) {
    const prefetch = await card.service.call(path(sessionId), { headers });
    assert.equal(prefetch.status, 503, JSON.stringify(headers));
    assert.equal(prefetch.body.error, 'unavailable');
    assert.equal(prefetch.body.api_key, undefined);
    assert.equal(prefetch.headers['cache-control'], 'no-store');
  }
  const shown = await card.success(sessionId);
  assert.equal(shown.status, 200);
  assert.match(shown.body.api_key, /^ifk_/);
});

test('the same browser sees the key again within 10 minutes; another browser, or later, gets 410', async () => {
  const card = await startCardService();
  const { sessionId } = await card.buy('pack_5k');
  const first = await card.service.call(path(sessionId), { headers: { accept: 'text/html' } });
  assert.equal(first.status, 200);
  const setCookie = String(first.headers['set-cookie']);
  assert.match(setCookie, /^mod97_card_reveal=[\w-]+; Path=\/v1\/card\/success; Max-Age=600; HttpOnly; SameSite=Lax/);
  const key = /ifk_[\w-]+/.exec(first.text)?.[0];
  assert.ok(key, 'the page shows the key');
  const cookie = cookieOf(first.headers['set-cookie']);

  card.service.clock.advance(9 * 60_000);
  const again = await card.service.call(path(sessionId), { headers: { cookie } });
  assert.equal(again.status, 200);
  assert.equal(again.body.api_key, key, 'the same key, not a new one');
  assert.equal((await card.service.call('/v1/iban/validate', { json: { iban: VALID }, key })).status, 200);

  const other = await card.success(sessionId);
  assert.equal(other.status, 410);
  assert.equal(other.body.error, 'key_already_shown');
  assert.equal(other.body.api_key, undefined);

  const forged = await card.service.call(path(sessionId), { headers: { cookie: `${cookie.slice(0, -4)}AAAA` } });
  assert.equal(forged.status, 410);

  // the cookie of one purchase shows nothing of another
  const second = await card.buy('pack_1k');
  assert.equal((await card.success(second.sessionId)).status, 200);
  const crossed = await card.service.call(path(second.sessionId), { headers: { cookie } });
  assert.equal(crossed.status, 410);
});

test('after 10 minutes, or once the key was rotated, the cookie shows nothing', async () => {
  const card = await startCardService();
  const { sessionId } = await card.buy('pack_1k');
  const first = await card.success(sessionId);
  const cookie = cookieOf(first.headers['set-cookie']);
  card.service.clock.advance(11 * 60_000);
  assert.equal((await card.service.call(path(sessionId), { headers: { cookie } })).status, 410);

  const other = await card.buy('pack_1k');
  const shown = await card.success(other.sessionId);
  const otherCookie = cookieOf(shown.headers['set-cookie']);
  const rotated = await card.service.call('/v1/keys/rotate', { method: 'POST', key: shown.body.api_key });
  assert.equal(rotated.status, 200);
  assert.equal((await card.service.call(path(other.sessionId), { headers: { cookie: otherCookie } })).status, 410);
});
