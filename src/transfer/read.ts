/**
 * Reading a payment QR code's text from an image (PNG or JPEG), in the image reader's worker
 * thread (read-in-worker.ts); read-payload.ts reads the text.
 *
 * An image is judged by its header before any pixel is decoded: at most 4096 px a side and 8
 * megapixels. A PNG's compressed data is then inflated with a ceiling of the bytes its
 * dimensions can need, so a small file that inflates to gigabytes (a decompression bomb) is
 * refused after reading no more than that ceiling; jpeg-js is given the same pixel bound and a
 * memory bound of its own. The decoder's time grows with the pixels, so a photo is scaled down
 * to about a megapixel first (a code filling a tenth of a 12-megapixel photo still has several
 * pixels a module).
 */
import { inflateSync } from 'node:zlib';
import { decodeQR } from '@paulmillr/qr/decode.js';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

export const IMAGE_LIMITS = { side: 4096, megapixels: 8 } as const;
/** Larger images are scaled down to about this many pixels before the QR decoder reads them. */
const DECODE_PIXELS = 1_000_000;

export type ReadFailure = { ok: false; code: 'image_too_large' | 'image_unreadable' | 'qr_not_found'; message: string };
/** The text of the code in an image, or why there is none. */
export type ImageRead = { ok: true; payload: string } | ReadFailure;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const unreadable = (message: string): ReadFailure => ({ ok: false, code: 'image_unreadable', message });

function sizeRefusal(width: number, height: number): ReadFailure | null {
  if (width < 1 || height < 1) return unreadable('The image has no pixels.');
  if (width > IMAGE_LIMITS.side || height > IMAGE_LIMITS.side || width * height > IMAGE_LIMITS.megapixels * 1e6)
    return {
      ok: false,
      code: 'image_too_large',
      message: `The image is ${width} × ${height} px; send at most ${IMAGE_LIMITS.side} px a side and ${IMAGE_LIMITS.megapixels} megapixels (a crop of the code is enough).`,
    };
  return null;
}

/** Samples per pixel of each PNG colour type. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7: x start, y start, x step, y step of the 7 passes. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;

/** The bytes a PNG's image data inflates to: each row's filter byte and samples, per pass when interlaced. */
function inflatedSize(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number {
  const rows = (w: number, h: number) => (w > 0 && h > 0 ? (Math.ceil((w * bitsPerPixel) / 8) + 1) * h : 0);
  if (!interlaced) return rows(width, height);
  return ADAM7.reduce(
    (sum, [xs, ys, dx, dy]) => sum + rows(Math.ceil((width - xs) / dx), Math.ceil((height - ys) / dy)),
    0,
  );
}

function pngPixels(bytes: Buffer): Pixels | ReadFailure {
  if (bytes.length < 33 || bytes.toString('latin1', 12, 16) !== 'IHDR') return unreadable('The PNG has no header.');
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  const refusal = sizeRefusal(width, height);
  if (refusal) return refusal;
  const depth = bytes[24];
  const channels = CHANNELS[bytes[25]];
  if (channels === undefined) return unreadable('The PNG has an unknown colour type.');
  const compressed: Buffer[] = [];
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    if (at + 12 + length > bytes.length) return unreadable('The PNG is cut short.');
    if (type === 'IDAT') compressed.push(bytes.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  const ceiling = inflatedSize(width, height, depth * channels, bytes[28] === 1);
  try {
    inflateSync(Buffer.concat(compressed), { maxOutputLength: ceiling });
  } catch (e) {
    return unreadable(
      e instanceof RangeError
        ? `The PNG's data inflates to more than its ${width} × ${height} px can hold.`
        : 'The PNG data does not inflate.',
    );
  }
  try {
    const png = PNG.sync.read(bytes);
    return { width: png.width, height: png.height, data: png.data };
  } catch {
    return unreadable('The PNG cannot be decoded.');
  }
}

/** The dimensions in a JPEG's start-of-frame marker, read before decoding. */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  for (let at = 2; at + 9 < bytes.length; ) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return null;
}

function jpegPixels(bytes: Buffer): Pixels | ReadFailure {
  const size = jpegSize(bytes);
  if (!size) return unreadable('The JPEG has no frame header.');
  const refusal = sizeRefusal(size.width, size.height);
  if (refusal) return refusal;
  try {
    const image = jpeg.decode(bytes, {
      useTArray: true,
      formatAsRGBA: true,
      maxResolutionInMP: IMAGE_LIMITS.megapixels,
      maxMemoryUsageInMB: 256,
    });
    return { width: image.width, height: image.height, data: image.data };
  } catch {
    return unreadable('The JPEG cannot be decoded.');
  }
}

interface Pixels {
  width: number;
  height: number;
  /** RGBA */
  data: Uint8Array;
}

/** Grey RGB at a whole fraction of the size (each pixel the mean of a square of them), when over DECODE_PIXELS. */
function scaledDown(image: Pixels): Pixels {
  const factor = Math.ceil(Math.sqrt((image.width * image.height) / DECODE_PIXELS));
  if (factor <= 1) return image;
  const width = Math.floor(image.width / factor);
  const height = Math.floor(image.height / factor);
  const data = new Uint8Array(width * height * 3);
  const area = factor * factor;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy++) {
        let at = ((y * factor + dy) * image.width + x * factor) * 4;
        for (let dx = 0; dx < factor; dx++, at += 4)
          sum += (image.data[at] + image.data[at + 1] + image.data[at + 2]) / 3;
      }
      data.fill(Math.round(sum / area), (y * width + x) * 3, (y * width + x) * 3 + 3);
    }
  }
  return { width, height, data };
}

/** The text of the QR code in a PNG or JPEG. */
export function readImage(bytes: Buffer): ImageRead {
  const isPng = bytes.subarray(0, 8).equals(PNG_SIGNATURE);
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  if (!isPng && !isJpeg) return unreadable('The image is neither a PNG nor a JPEG.');
  const pixels = isPng ? pngPixels(bytes) : jpegPixels(bytes);
  if ('ok' in pixels) return pixels;
  try {
    return { ok: true, payload: decodeQR(scaledDown(pixels)) };
  } catch {
    return { ok: false, code: 'qr_not_found', message: 'No QR code could be read in the image.' };
  }
}
