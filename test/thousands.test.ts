import assert from 'node:assert/strict';
import { test } from 'node:test';
import { thousands } from '../src/thousands.ts';

test("thousands() groups an integer as toLocaleString('en-US') does", () => {
  for (const n of [0, 7, 999, 1000, 1234, 25_000, 100_000, 999_999, 1_000_000, 1_234_567_890, -1, -1000, -1_234_567])
    assert.equal(thousands(n), n.toLocaleString('en-US'), String(n));
});
