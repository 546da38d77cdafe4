/**
 * Drawing a payment QR code: the module matrix is @paulmillr/qr's at error correction M (both
 * standards ask for M; qr-matrix.ts); this module lays it out with a quiet zone of 4 modules, adds the
 * Swiss cross a QR-bill's code carries in its centre, and writes SVG text or a PNG.
 *
 * The cross: the guidelines draw a 7 × 7 mm cross on a 46 × 46 mm code (quiet zone not
 * counted), so here it is 7/46 of the code's width: a white square, a black square inside it
 * and a white cross, in the proportions of the guidelines' artwork (19.8 units across: the
 * black square is 6 mm). A code with the cross takes a version the cross leaves readable
 * (cross-version.ts).
 */
import { PNG } from 'pngjs';
import { crossSafeVersion } from './cross-version.ts';
import { qrMatrix } from './qr-matrix.ts';

export const QUIET_MODULES = 4;
/** PNG pixels per module: a version-14 QR-bill code is 81 × 8 = 648 px across. */
export const PNG_MODULE_PX = 8;

export interface QrDrawing {
  /** The code's modules, without the quiet zone: true is dark. */
  modules: boolean[][];
  swissCross: boolean;
}

export function drawQr(payload: string, swissCross: boolean): QrDrawing {
  return { modules: swissCross ? qrMatrix(payload, crossSafeVersion(payload)) : qrMatrix(payload), swissCross };
}

interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
  dark: boolean;
}

/** The cross's three layers in module units of the whole image (quiet zone included). */
function crossRects(size: number): Rect[] {
  const side = (size * 7) / 46;
  const unit = side / 19.8;
  const origin = QUIET_MODULES + (size - side) / 2;
  const at = (x: number, y: number, w: number, h: number, dark: boolean): Rect => ({
    x: origin + x * unit,
    y: origin + y * unit,
    w: w * unit,
    h: h * unit,
    dark,
  });
  return [
    at(0, 0, 19.8, 19.8, false),
    at(1.42, 1.42, 16.96, 16.96, true),
    at(8.25, 4.4, 3.3, 11, false),
    at(4.4, 8.25, 11, 3.3, false),
  ];
}

const num = (n: number) => String(Math.round(n * 1000) / 1000);

/**
 * One path of dark runs, row by row: a few kB for a code of ~70 modules across. `stroke="none"`
 * is written out because some renderers (ImageMagick's own) outline shapes unless told.
 */
export function toSvg({ modules, swissCross }: QrDrawing): string {
  const size = modules.length;
  const full = size + 2 * QUIET_MODULES;
  let path = '';
  for (const [y, row] of modules.entries()) {
    for (let x = 0; x < size; ) {
      if (!row[x]) {
        x++;
        continue;
      }
      const start = x;
      while (x < size && row[x]) x++;
      path += `M${start + QUIET_MODULES} ${y + QUIET_MODULES}h${x - start}v1h${start - x}z`;
    }
  }
  const cross = swissCross
    ? crossRects(size)
        .map(
          (r) =>
            `<rect x="${num(r.x)}" y="${num(r.y)}" width="${num(r.w)}" height="${num(r.h)}" fill="${r.dark ? '#000' : '#fff'}" stroke="none"/>`,
        )
        .join('')
    : '';
  const px = full * PNG_MODULE_PX;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${full} ${full}" width="${px}" height="${px}" shape-rendering="crispEdges"><rect width="${full}" height="${full}" fill="#fff" stroke="none"/><path d="${path}" fill="#000" stroke="none"/>${cross}</svg>`;
}

/** 8-bit grey PNG, 8 px per module. */
export function toPng({ modules, swissCross }: QrDrawing): Buffer {
  const size = modules.length;
  const scale = PNG_MODULE_PX;
  const width = (size + 2 * QUIET_MODULES) * scale;
  const grey = Buffer.alloc(width * width, 255);
  const fill = (x0: number, y0: number, x1: number, y1: number, value: number) => {
    for (let y = y0; y < y1; y++) grey.fill(value, y * width + x0, y * width + x1);
  };
  for (const [y, row] of modules.entries()) {
    for (let x = 0; x < size; x++) {
      if (!row[x]) continue;
      const px = (x + QUIET_MODULES) * scale;
      const py = (y + QUIET_MODULES) * scale;
      fill(px, py, px + scale, py + scale, 0);
    }
  }
  if (swissCross) {
    for (const r of crossRects(size)) {
      const px = (v: number) => Math.round(v * scale);
      fill(px(r.x), px(r.y), px(r.x + r.w), px(r.y + r.h), r.dark ? 0 : 255);
    }
  }
  const png = new PNG({ width, height: width, colorType: 0, inputColorType: 0, inputHasAlpha: false });
  png.data = grey;
  // No per-row filter search: a two-tone image deflates as well unfiltered, in a fraction of the time.
  return PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false, filterType: 0 });
}
