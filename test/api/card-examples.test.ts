/**
 * The card routes' declared examples (shown by /openapi.json, /docs and docs/api.md) are what the
 * service answers, through the fake Stripe API: the same fields, the same messages, times written
 * the same way. Only what names one purchase (session ids, key prefixes, the times themselves) is
 * set aside.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as examples from '../../src/api/examples.ts';
import { startCardService } from '../support/stripe/card-service.ts';

/** An ISO 8601 time as the service writes it: whole seconds, UTC. */
const WHOLE_SECONDS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

function asRecord(value: unknown): Record<string, unknown> {
  assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value));
  return Object.fromEntries(Object.entries(value));
}

test('POST /v1/card/checkout answers as its example: the same fields, expires_at in whole seconds', async () => {
  const card = await startCardService();
  const example = asRecord(examples.cardCheckout.answer);
  const r = await card.checkout('pack_1k');
  assert.equal(r.status, examples.cardCheckout.status);
  assert.deepEqual(Object.keys(r.body).sort(), Object.keys(example).sort());
  assert.match(r.body.expires_at, WHOLE_SECONDS);
  assert.match(String(example.expires_at), WHOLE_SECONDS);
  assert.equal(r.body.product, example.product);
});

test('GET /v1/card/success while pending answers its example, message and all', async () => {
  const card = await startCardService();
  const started = await card.checkout('pack_1k');
  const r = await card.success(started.body.session_id);
  assert.equal(r.status, examples.cardSuccess.status);
  assert.deepEqual(r.body, { ...asRecord(examples.cardSuccess.answer), session_id: started.body.session_id });
});

test('POST /v1/card/cancel answers as its example: ends_at in whole seconds, and the same message', async () => {
  const card = await startCardService();
  const key = await card.service.newKey();
  await card.buy('pro', key);
  const r = await card.service.call('/v1/card/cancel', { method: 'POST', key });
  assert.equal(r.status, examples.cardCancel.status);
  const example = asRecord(examples.cardCancel.answer);
  assert.deepEqual(Object.keys(r.body).sort(), Object.keys(example).sort());
  assert.match(r.body.ends_at, WHOLE_SECONDS);
  assert.match(String(example.ends_at), WHOLE_SECONDS);
  // The message names this purchase's end; with it put back, the example's is the same text.
  const sameEnd = String(example.message).replaceAll(String(example.ends_at), r.body.ends_at);
  assert.equal(r.body.message, sameEnd);
});
