/**
 * What the usage chart's per-day counting costs a charged call: `DailyUsage.add` on the
 * request's path (a Map update), and the batched write behind it, on SQLite.
 * `node --import tsx bench/daily-usage.ts`
 */
import { randomUUID } from 'node:crypto';
import { DailyUsage } from '../src/quota/daily.ts';
import { openStore } from '../src/store/index.ts';

const store = await openStore('sqlite::memory:');
const daily = new DailyUsage(store, Date.now, (err) => console.error(err));
const keys = Array.from({ length: 1000 }, () => randomUUID());
const CALLS = 1_000_000;

for (let i = 0; i < 100_000; i++) daily.add(keys[i % keys.length], 1); // warm-up
await daily.flush();
let t = process.hrtime.bigint();
for (let i = 0; i < CALLS; i++) daily.add(keys[i % keys.length], 1);
const addNs = Number(process.hrtime.bigint() - t) / CALLS;
t = process.hrtime.bigint();
await daily.flush();
const flushMs = Number(process.hrtime.bigint() - t) / 1e6;
console.log(
  `add: ${addNs.toFixed(0)} ns per charged call (${CALLS.toLocaleString('en-US')} calls over ${keys.length} keys)`,
);
console.log(`flush: ${flushMs.toFixed(1)} ms for one batch of ${keys.length} key-days (written once a second)`);
await store.close();
