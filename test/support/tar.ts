/** Tar archives as npm packs them (ustar, a pax header for a path past 100 bytes), for the tarball importer's tests. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

export interface ArchivedFile {
  path: string;
  bytes: Uint8Array;
}

const BLOCK = 512;
const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

function header(path: string, size: number, type: '0' | 'x'): Buffer {
  const h = Buffer.alloc(BLOCK);
  h.write(path.slice(0, 100), 0);
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write('14707041420\0', 136);
  h.write(' '.repeat(8), 148);
  h.write(type, 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  const sum = h.reduce((a, b) => a + b, 0);
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

/** A pax record `<length> path=<value>\n`, whose length counts its own digits. */
function paxPath(path: string): Buffer {
  const body = ` path=${path}\n`;
  let length = body.length + 1;
  while (String(length).length + body.length !== length) length = String(length).length + body.length;
  return Buffer.from(`${length}${body}`);
}

/** The uncompressed archive: each file after its header, then the two blocks of zeros that end it. */
export function ustar(files: ArchivedFile[]): Buffer {
  const parts: Buffer[] = [];
  for (const { path, bytes } of files) {
    if (Buffer.byteLength(path) > 100) {
      const pax = paxPath(path);
      parts.push(header('PaxHeader', pax.length, 'x'), pax, padding(pax.length));
    }
    parts.push(header(path, bytes.length, '0'), Buffer.from(bytes), padding(bytes.length));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

export const tgz = (files: ArchivedFile[]): Buffer => gzipSync(ustar(files));

/** An installed package's package.json and the files of one of its folders, under `package/` as in npm's tarballs. */
export function packageFiles(packageDir: string, folder: string): ArchivedFile[] {
  const names = readdirSync(join(packageDir, folder)).sort();
  return [
    { path: 'package/package.json', bytes: readFileSync(join(packageDir, 'package.json')) },
    ...names.map((name) => ({
      path: `package/${folder}/${name}`,
      bytes: readFileSync(join(packageDir, folder, name)),
    })),
  ];
}
