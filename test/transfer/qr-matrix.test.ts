/**
 * qrMatrix derives the 8 masks from one drawing instead of drawing the code 8 times: its matrix
 * must be exactly the one @paulmillr/qr's own search gives (same version, same mask), for codes
 * of every size the two standards make.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import encodeQR from '@paulmillr/qr';
import { qrMatrix, smallestVersion } from '../../src/transfer/qr-matrix.ts';

test("equals @paulmillr/qr's own matrix at error correction M, version and mask included", () => {
  const texts = [
    // Byte mode, as the library picks for any text with a line break (every payment payload).
    'BCD\n',
    'BCD\n002\n1\nSCT\n\nRed Cross of Belgium\nBE72000000001616',
    ...Array.from(
      { length: 40 },
      (_, n) => `BCD\n002\n1\nSCT\n\nName ${n} Müller\nDE89370400440532013000\nEUR${n}.50\n\n\n${'x'.repeat(n * 25)}`,
    ),
    // Versions past 20: several alignment patterns a side, version information.
    ...[400, 600, 900, 1400].map((n) => `SPC\n${'ü'.repeat(n / 4)}${'7'.repeat(n)}`),
  ];
  const masks = new Set<string>();
  for (const text of texts) {
    const expected = encodeQR(text, 'raw', { ecc: 'medium', border: 0 });
    assert.deepEqual(qrMatrix(text), expected, `${text.length} characters`);
    masks.add(expected.map((row) => row.slice(0, 9).map(Number).join('')).slice(8, 9)[0] ?? '');
  }
  // The format bits beside the top-left finder differ by mask: several masks were exercised.
  assert.ok(masks.size >= 4, `masks seen: ${masks.size}`);
});

test("a larger version asked for (as a QR-bill code may need) is the library's matrix at that version", () => {
  const text = `SPC\n0200\n1\nCH4431999123000889012\n${'x'.repeat(200)}`;
  assert.equal(smallestVersion(Buffer.byteLength(text)), 11);
  for (const version of [11, 14, 23]) {
    assert.deepEqual(
      qrMatrix(text, version),
      encodeQR(text, 'raw', { ecc: 'medium', border: 0, version }),
      `version ${version}`,
    );
  }
  assert.throws(() => qrMatrix(text, 10));
});
