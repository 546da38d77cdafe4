/** An MCP tool call carries its Idempotency-Key in `_meta` (docs/api.md, "Safe retries (Idempotency-Key)"). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startService } from '../support/app.ts';
import { connectMcp } from './support.ts';

const IBAN = 'DE89370400440532013000';
const META = 'mod97/idempotency-key';

test('a tool call sent again with the same key in _meta gets the first answer, charged once', async () => {
  const svc = await startService();
  const key = await svc.newKey();
  const mcp = await connectMcp(svc.url, { key });
  const call = (iban: string) =>
    mcp.client.callTool({ name: 'validate_iban', arguments: { iban }, _meta: { [META]: 'mcp-call-1' } });
  const first = await call(IBAN);
  const again = await call(IBAN);
  assert.equal(first.isError, false);
  assert.equal(first._meta?.['mod97/idempotent-replayed'], undefined);
  assert.equal(again._meta?.['mod97/idempotent-replayed'], true);
  assert.deepEqual(again.structuredContent, first.structuredContent);
  assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 1);

  const other = await call('GB82WEST12345698765432');
  assert.equal(other.isError, true);
  assert.equal((other.structuredContent as { error: string }).error, 'idempotency_key_reused');
  const bad = await mcp.client.callTool({ name: 'validate_iban', arguments: { iban: IBAN }, _meta: { [META]: 7 } });
  assert.equal((bad.structuredContent as { error: string }).error, 'invalid_request');
  assert.equal((await svc.call('/v1/keys/usage', { key })).body.used, 1);
});
