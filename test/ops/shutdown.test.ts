import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startProcess } from '../multiprocess/processes.ts';

test('SIGTERM lets a request already in flight finish before the process exits', async () => {
  const mod97 = await startProcess({ MOD97_DATABASE_URL: 'sqlite::memory:' });
  after(() => mod97.stop('SIGKILL'));
  const body = JSON.stringify({ iban: 'DE89 3704 0044 0532 0130 00' });
  let req!: ReturnType<typeof request>;
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req = request(
      `${mod97.url}/v1/iban/validate`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
  });
  // Half the body now: the request has reached the server and waits for the rest.
  req.write(body.slice(0, 10));
  await sleep(300);
  const exited = mod97.stop('SIGTERM');
  await sleep(300);
  assert.equal(mod97.child.exitCode, null, 'the process waits for the request in flight');
  req.end(body.slice(10));
  const reply = await answer;
  assert.equal(reply.status, 200, reply.text);
  assert.equal(JSON.parse(reply.text).valid, true);
  assert.equal(await exited, 0);
});
