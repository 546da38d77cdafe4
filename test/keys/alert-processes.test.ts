/**
 * The creation alert across two real mod97 processes sharing one PostgreSQL schema: creations
 * on either process add up, and both agree on the alert and on which keys it reduces. Runs
 * when MOD97_TEST_POSTGRES_URL is set.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { call } from '../support/http.ts';
import { dropSchemas, inSchema, newSchemaName, pgUrl } from '../support/pg.ts';
import { startProcess, type Mod97Process } from '../multiprocess/processes.ts';

const generate = (p: Mod97Process, from: string) => call(p.url, '/v1/keys/generate', { method: 'POST', from });

describe('the creation alert on two processes sharing PostgreSQL', {
  skip: !pgUrl && 'MOD97_TEST_POSTGRES_URL is not set',
}, () => {
  const schema = newSchemaName('mod97_alert');
  const databaseUrl = pgUrl ? inSchema(schema) : '';
  let processes: Mod97Process[] = [];

  before(async () => {
    const env = {
      MOD97_DATABASE_URL: databaseUrl,
      MOD97_KEY_PEPPER: randomBytes(32).toString('hex'),
      MOD97_MX_CHECK: 'off',
    };
    processes = [await startProcess(env), await startProcess(env)];
  });

  after(async () => {
    await Promise.all(processes.map((p) => p.stop('SIGKILL')));
    await dropSchemas(schema);
  });

  test('50 keys created in parallel on both processes are normal; the 51st is reduced, and both processes see it so', async () => {
    const fifty = await Promise.all(
      Array.from({ length: 50 }, (_, i) => generate(processes[i % 2]!, `127.80.${Math.floor(i / 3)}.1`)),
    );
    assert.deepEqual(new Set(fifty.map((r) => `${r.status} ${r.body.monthly_limit}`)), new Set(['201 25']));

    const fiftyFirst = await generate(processes[1]!, '127.80.100.1');
    assert.deepEqual([fiftyFirst.body.monthly_limit, fiftyFirst.body.basis], [5, 'lifetime']);
    const usage = await call(processes[0]!.url, '/v1/keys/usage', {
      key: fiftyFirst.body.api_key,
      from: '127.80.100.1',
    });
    assert.deepEqual([usage.body.limit, usage.body.basis], [5, 'lifetime'], 'the other process reduces it too');
    const next = await generate(processes[0]!, '127.80.101.1');
    assert.equal(next.body.monthly_limit, 5, 'the other process is in the same alert');
  });
});
