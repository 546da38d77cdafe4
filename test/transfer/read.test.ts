/**
 * Reading images: a PNG and a JPEG of a code, an image with no code, and hostile images (huge
 * dimensions, a PNG whose data inflates far past what its dimensions hold) refused before they
 * cost memory.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createDeflate, crc32, deflateSync } from 'node:zlib';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { drawQr, toPng } from '../../src/transfer/draw.ts';
import { readImage } from '../../src/transfer/read.ts';

const PAYLOAD = 'BCD\n002\n1\nSCT\nBHBLDEHHXXX\nFranz Mustermänn\nDE71110220330123456789\nEUR12.30\n\nRF18539007547034';

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A grey 8-bit PNG with the given header and compressed data. */
function png(width: number, height: number, idat: Buffer, interlace = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  ihdr[12] = interlace;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** `megabytes` of zeros deflated as one stream (about 1 kB per MB), without holding them. */
async function zeros(megabytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const mb = Buffer.alloc(1 << 20);
  for (let i = 0; i < megabytes; i++) if (!deflate.write(mb)) await new Promise((r) => deflate.once('drain', r));
  deflate.end();
  await done;
  return Buffer.concat(out);
}

describe('reading an image', () => {
  test('a PNG and a JPEG of a code give its text', () => {
    const image = toPng(drawQr(PAYLOAD, false));
    assert.deepEqual(readImage(image), { ok: true, payload: PAYLOAD });
    const decoded = PNG.sync.read(image);
    const asJpeg = jpeg.encode({ data: decoded.data, width: decoded.width, height: decoded.height }, 90).data;
    assert.deepEqual(readImage(Buffer.from(asJpeg)), { ok: true, payload: PAYLOAD });
  });

  test('a photo-sized image, the code in a corner, is scaled down and read', () => {
    const code = PNG.sync.read(toPng(drawQr(PAYLOAD, false)));
    const photo = new PNG({ width: 3000, height: 2000 });
    photo.data.fill(255);
    PNG.bitblt(code, photo, 0, 0, code.width, code.height, 2200, 1200);
    assert.deepEqual(readImage(PNG.sync.write(photo)), { ok: true, payload: PAYLOAD });
  });

  test('an image without a code is qr_not_found; other bytes are image_unreadable', () => {
    const blank = new PNG({ width: 200, height: 200 });
    blank.data.fill(255);
    assert.equal((readImage(PNG.sync.write(blank)) as { code: string }).code, 'qr_not_found');
    assert.equal((readImage(Buffer.from('GIF89a...')) as { code: string }).code, 'image_unreadable');
    assert.equal((readImage(Buffer.from([0x89, 0x50, 0x4e, 0x47])) as { code: string }).code, 'image_unreadable');
  });

  test('huge dimensions are refused from the header, before any pixel is decoded', () => {
    const wide = readImage(png(100_000, 100_000, deflateSync(Buffer.alloc(10))));
    assert.equal((wide as { code: string }).code, 'image_too_large');
    assert.match((wide as { message: string }).message, /100000 × 100000 px.*4096 px a side and 8 megapixels/);
    assert.equal(
      (readImage(png(4000, 4000, deflateSync(Buffer.alloc(10)))) as { code: string }).code,
      'image_too_large',
    );
    // A JPEG whose frame header claims 30000 × 30000.
    const sof = Buffer.from([
      0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x75, 0x30, 0x75, 0x30, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1,
    ]);
    assert.equal((readImage(sof) as { code: string }).code, 'image_too_large');
  });

  test('a decompression bomb (300 MB of zeros in a 2000 × 2000 PNG) is refused without inflating it', async () => {
    const bomb = await zeros(300);
    assert.ok(bomb.length < 400_000, `${bomb.length} bytes`);
    for (const interlace of [0, 1]) {
      const before = process.memoryUsage().rss;
      const r = readImage(png(2000, 2000, bomb, interlace));
      const grown = (process.memoryUsage().rss - before) / 1e6;
      assert.equal((r as { code: string }).code, 'image_unreadable');
      assert.match((r as { message: string }).message, /inflates to more than its 2000 × 2000 px/);
      // The ceiling is the 4 MB the dimensions need, not the 300 MB the data holds.
      assert.ok(grown < 100, `memory grew by ${grown.toFixed(0)} MB (interlace ${interlace})`);
    }
  });
});
