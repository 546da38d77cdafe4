/** What counts as an absent body and what as a body (docs/api.md, "Conventions": Bodies). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { startService } from '../support/app.ts';

const JSON_TYPE = { 'content-type': 'application/json' };

describe('an absent body is zero bytes, and only that', () => {
  test('a body of only whitespace is present and not JSON: 400 invalid_json, no key given, nothing charged', async () => {
    const svc = await startService();
    for (const [raw, from] of [
      ['   ', '127.0.3.1'],
      ['\n', '127.0.3.2'],
      ['\t\r\n ', '127.0.3.3'],
    ]) {
      const r = await svc.call('/v1/keys/generate', { method: 'POST', raw, headers: JSON_TYPE, from });
      assert.deepEqual([r.status, r.body.error], [400, 'invalid_json'], JSON.stringify(raw));
      assert.equal(r.body.message, 'The body is not valid JSON.');
      assert.equal(r.body.api_key, undefined);
    }
    const key = await svc.newKey('127.0.3.4');
    const validate = await svc.call('/v1/iban/validate', { key, raw: '  ', headers: JSON_TYPE });
    assert.deepEqual([validate.status, validate.body.error], [400, 'invalid_json']);
    assert.equal(validate.headers['x-quota-used'], '0', 'refunded, as any 400');
    const rotate = await svc.call('/v1/keys/rotate', { method: 'POST', key, raw: ' ', headers: JSON_TYPE });
    assert.deepEqual([rotate.status, rotate.body.error], [400, 'invalid_json']);
    assert.equal((await svc.call('/v1/keys/usage', { key })).status, 200, 'the key was not rotated');
  });

  test('zero bytes are no body on every route that takes none, with a JSON content type or without one', async () => {
    const svc = await startService();
    for (const [headers, from] of [
      [JSON_TYPE, '127.0.3.5'],
      [{}, '127.0.3.6'],
    ] as const) {
      const generated = await svc.call('/v1/keys/generate', { method: 'POST', raw: '', headers, from });
      assert.equal(generated.status, 201, generated.text);
      const key: string = generated.body.api_key;
      const rotated = await svc.call('/v1/keys/rotate', { method: 'POST', key, raw: '', headers });
      assert.equal(rotated.status, 200, rotated.text);
      const newKey: string = rotated.body.api_key;
      // Cancel answers for the key sent (the card rail is off here): the body is not what refuses it.
      const cancel = await svc.call('/v1/card/cancel', { method: 'POST', key: newKey, raw: '', headers });
      assert.notEqual(cancel.body.error, 'invalid_json', cancel.text);
      assert.notEqual(cancel.body.error, 'unsupported_media_type', cancel.text);
    }
  });
});
