/**
 * Reading a payment QR code from an image is up to about a second of CPU (the photo scaled down,
 * then searched for a code): it runs in a worker thread, so the service goes on answering other
 * requests meanwhile. Judged as test/data/bounded-files.test.ts judges the data update: by the
 * main thread's CPU time against the whole process's, never by wall time, which a busy machine
 * stretches alike for every thread.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { PNG } from 'pngjs';
import { startProcess } from '../multiprocess/processes.ts';
import { cpuMsOf } from '../support/proc.ts';

const dir = mkdtempSync(join(tmpdir(), 'mod97-image-worker-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A 2800 × 2800 grey PNG of random black and white squares of 2 px: no code to find, under 1 MiB as base64. */
function noise(): string {
  const side = 2800;
  const png = new PNG({ width: side, height: side });
  const row = Buffer.alloc(side * 4, 255);
  for (let y = 0; y < side; y += 2) {
    for (let x = 0; x < side; x += 2) row.fill(Math.random() < 0.5 ? 0 : 255, x * 4, x * 4 + 3);
    for (let x = 1; x < side; x += 2) row.copy(row, x * 4, (x - 1) * 4, x * 4);
    row.copy(png.data, y * side * 4);
    row.copy(png.data, (y + 1) * side * 4);
  }
  return PNG.sync.write(png, { colorType: 0 }).toString('base64');
}

test('three noisy photos read at once are each 422 qr_not_found, not charged, decoded off the thread that answers /healthz', async () => {
  const image = noise();
  assert.ok(image.length < 1_000_000, `${image.length} base64 characters`);
  const svc = await startProcess({ MOD97_DATABASE_URL: `sqlite:${join(dir, 'service.db')}`, MOD97_MX_CHECK: 'off' });
  try {
    const generated = await fetch(`${svc.url}/v1/keys/generate`, { method: 'POST' });
    assert.equal(generated.status, 201);
    const { api_key: key } = (await generated.json()) as { api_key: string };
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

    const pid = svc.child.pid ?? 0;
    const mainThread = `/proc/${pid}/task/${pid}/stat`;
    const wholeProcess = `/proc/${pid}/stat`;
    const mainBefore = cpuMsOf(mainThread);
    const allBefore = cpuMsOf(wholeProcess);
    let answered = false;
    const reads = Promise.all(
      [1, 2, 3].map(() =>
        fetch(`${svc.url}/v1/payment/qr/read`, { method: 'POST', headers, body: JSON.stringify({ image }) }),
      ),
    ).finally(() => {
      answered = true;
    });
    let slowest = 0;
    let checks = 0;
    while (!answered) {
      const t = performance.now();
      assert.equal((await fetch(`${svc.url}/healthz`, { signal: AbortSignal.timeout(10_000) })).status, 200);
      slowest = Math.max(slowest, performance.now() - t);
      checks++;
      // Paced: each check costs the main thread CPU too, and the measure is of the images' work.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const r of await reads) {
      assert.equal(r.status, 422);
      assert.equal(((await r.json()) as { error: string }).error, 'qr_not_found');
    }
    const mainMs = cpuMsOf(mainThread) - mainBefore;
    const allMs = cpuMsOf(wholeProcess) - allBefore;
    // The worker decoded three 7.8-megapixel images; the main thread parsed three bodies of about
    // 1 MB and answered the checks (with the decoding on it, it had about 90 % of the CPU).
    assert.ok(
      allMs - mainMs > 4 * mainMs,
      `the images were decoded off the main thread: main ${mainMs} ms of ${allMs} ms CPU`,
    );
    const usage = await fetch(`${svc.url}/v1/keys/usage`, { headers });
    assert.equal(((await usage.json()) as { used: number }).used, 0, 'refusals are not charged');
    console.log(
      `# figures: 3 noisy images read at once; /healthz ${checks} checks, slowest ${Math.round(slowest)} ms; main thread ${mainMs} of ${allMs} ms CPU`,
    );
  } finally {
    await svc.stop('SIGKILL');
  }
});
