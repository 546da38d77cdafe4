/**
 * Every code drawn here is read back by decoders that share no code with the drawing: zbarimg
 * (ZBar, Debian's zbar-tools) reads the PNG and the SVG (rasterised by ImageMagick's convert) to
 * exactly the payload; skipped when zbarimg is absent.
 *
 * ZBar cannot read a QR code with a Swiss cross over its centre (an open ZBar bug with every
 * QR-bill: mchehab/zbar issues 121, 167 and 216), so a QR-bill code is checked twice: zbarimg
 * reads the same matrix drawn without the cross, and jsQR (another decoder) and our reader
 * read the code with its cross.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import jsqr from 'jsqr';
import { PNG } from 'pngjs';
import { drawQr, PNG_MODULE_PX, QUIET_MODULES, toPng, toSvg } from '../../src/transfer/draw.ts';
import { readImage } from '../../src/transfer/read.ts';

const ZBARIMG = '/usr/bin/zbarimg';
const CONVERT = '/usr/bin/convert';
const noZbar = existsSync(ZBARIMG) ? false : 'zbarimg is not installed (Debian zbar-tools)';
const noConvert = existsSync(CONVERT) ? false : 'ImageMagick convert is not installed';

const dir = mkdtempSync(join(tmpdir(), 'mod97-qr-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** zbarimg's reading of an image file: the bytes of the code, as UTF-8 (-Sbinary: no charset guessing). */
function zbar(file: string): string {
  return execFileSync(ZBARIMG, ['--raw', '-q', '-Sbinary', file], { stdio: ['ignore', 'pipe', 'ignore'] }).toString(
    'utf8',
  );
}

function svgAsPng(svg: string, name: string): string {
  const svgFile = join(dir, `${name}.svg`);
  const pngFile = join(dir, `${name}-svg.png`);
  writeFileSync(svgFile, svg);
  execFileSync(CONVERT, [svgFile, pngFile], { stdio: 'ignore' });
  return pngFile;
}

/** The dark modules an SVG draws, sampled at each module's centre from its path of runs. */
function svgModules(svg: string): boolean[][] {
  const size = Number(/viewBox="0 0 (\d+)/.exec(svg)?.[1]) - 2 * QUIET_MODULES;
  const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  const path = /<path d="([^"]+)"/.exec(svg)?.[1] ?? '';
  for (const [, x, y, w] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let i = 0; i < Number(w); i++)
      (grid[Number(y) - QUIET_MODULES] as boolean[])[Number(x) - QUIET_MODULES + i] = true;
  }
  return grid;
}

/** jsQR's webpack build sets module.exports to an object whose `default` is the function. */
type JsQr = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null;
const jsQR: JsQr = (jsqr as unknown as { default?: JsQr }).default ?? (jsqr as unknown as JsQr);

const jsqrRead = (png: Buffer) => {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
};

const EPC = [
  'BCD\n002\n1\nSCT\nBHBLDEHHXXX\nFranz Mustermänn\nDE71110220330123456789\nEUR12.30\n\nRF18539007547034',
  'BCD\n002\n1\nSCT\n\nRed Cross of Belgium\nBE72000000001616',
  `BCD\n002\n1\nSCT\nCOBADEFFXXX\n${'Ä'.repeat(70)}\nDE89370400440532013000\nEUR999999999.99\n\n\n${'x'.repeat(100)}`,
];
const SWISS = [
  'SPC\n0200\n1\nCH4431999123000889012\nS\nRobert Schneider AG\nRue du Lac\n1268\n2501\nBiel\nCH\n\n\n\n\n\n\n\n1949.75\nCHF\nS\nPia-Maria Rutschmann-Schnyder\nGrosse Marktgasse\n28\n9400\nRorschach\nCH\nQRR\n210000000003139471430009017\nOrder dated 18.06.2020\nEPD',
  `SPC\n0200\n1\nLI21088100002324013AA\nS\nBäckerei Müller\nStädtle\n\n9490\nVaduz\nLI\n\n\n\n\n\n\n\n\nEUR\n\n\n\n\n\n\n\nSCOR\nRF18539007547034\n${'Rechnung '.repeat(15).slice(0, 140)}\nEPD`,
];

describe('EPC QR codes drawn', () => {
  for (const [i, payload] of EPC.entries()) {
    test(`PNG and SVG read by zbarimg to exactly the payload (${i + 1})`, { skip: noZbar || noConvert }, () => {
      const drawing = drawQr(payload, false);
      const png = join(dir, `epc${i}.png`);
      writeFileSync(png, toPng(drawing));
      assert.equal(zbar(png), payload);
      assert.equal(zbar(svgAsPng(toSvg(drawing), `epc${i}`)), payload);
    });
  }

  test('the SVG draws the same modules as the PNG, with a quiet zone of 4', () => {
    const drawing = drawQr(EPC[0] as string, false);
    assert.deepEqual(svgModules(toSvg(drawing)), drawing.modules);
    const png = PNG.sync.read(toPng(drawing));
    assert.equal(png.width, (drawing.modules.length + 2 * QUIET_MODULES) * PNG_MODULE_PX);
    // Module (0, 0) is the finder's dark corner, just inside the light quiet zone.
    const at = (x: number, y: number) => png.data[(y * png.width + x) * 4];
    assert.equal(at(QUIET_MODULES * PNG_MODULE_PX - 1, QUIET_MODULES * PNG_MODULE_PX - 1), 255);
    assert.equal(at(QUIET_MODULES * PNG_MODULE_PX, QUIET_MODULES * PNG_MODULE_PX), 0);
  });
});

describe('Swiss QR-bill codes drawn', () => {
  for (const [i, payload] of SWISS.entries()) {
    test(`the matrix read by zbarimg; with its cross, by jsQR and our reader (${i + 1})`, {
      skip: noZbar || noConvert,
    }, () => {
      const plain = join(dir, `swiss${i}-plain.png`);
      writeFileSync(plain, toPng(drawQr(payload, false)));
      assert.equal(zbar(plain), payload);
      const drawing = drawQr(payload, true);
      const png = toPng(drawing);
      assert.equal(jsqrRead(png), payload);
      assert.deepEqual(readImage(png), { ok: true, payload });
      assert.equal(jsqrRead(readFileSync(svgAsPng(toSvg(drawing), `swiss${i}`))), payload);
    });
  }

  test('the cross is 7/46 of the code, centred: a white square, a black one, a white cross', () => {
    const drawing = drawQr(SWISS[0] as string, true);
    const size = drawing.modules.length;
    const svg = toSvg(drawing);
    const rects = [
      ...svg.matchAll(
        /<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" fill="(#\w+)" stroke="none"/g,
      ),
    ].map(([, x, y, w, h, fill]) => ({ x: Number(x), y: Number(y), w: Number(w), h: Number(h), fill }));
    assert.deepEqual(
      rects.map((r) => r.fill),
      ['#fff', '#000', '#fff', '#fff'],
    );
    const [outer] = rects;
    assert.ok(outer);
    assert.ok(Math.abs(outer.w - (size * 7) / 46) < 0.001);
    assert.ok(Math.abs(outer.x + outer.w / 2 - (QUIET_MODULES + size / 2)) < 0.001);
    // The PNG's centre pixel is white (the cross), and a pixel in the black square's corner is black.
    const png = PNG.sync.read(toPng(drawing));
    const centre = png.width / 2;
    assert.equal(png.data[(Math.floor(centre) * png.width + Math.floor(centre)) * 4], 255);
    const corner = Math.round((outer.x + outer.w * 0.12) * PNG_MODULE_PX);
    assert.equal(png.data[(corner * png.width + corner) * 4], 0);
  });
});
