/**
 * The regular files of a gzip-compressed tar archive (an npm package's tarball), read in memory
 * and bounded as the ZIP reader (zip.ts) is: the archive never inflates past the kind's bound,
 * and a damaged or truncated one is refused, never read in part. Formats: ustar with the
 * POSIX (pax) and GNU long-name extensions, which is what npm packs.
 */
import { gunzipSync } from 'node:zlib';
import { codeOf, messageOf } from '../../thrown.ts';
import { ImportError, mib } from './types.ts';

export interface TarFile {
  /** The path inside the archive, as the archive names it (`package/swiftCodes/peru.js`). */
  path: string;
  /** A view into the inflated archive, not a copy. */
  bytes: Uint8Array;
}

const BLOCK = 512;
/** True when the bytes begin as a gzip stream does. */
export const isGzip = (bytes: Uint8Array): boolean => bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/** A NUL-terminated text field of a header. */
const field = (buf: Buffer, start: number, length: number): string => {
  const end = buf.indexOf(0, start);
  return buf.toString('utf8', start, end < 0 || end > start + length ? start + length : end);
};

/** An octal number field; null when it is not one (base-256 sizes are past any bound here). */
function octal(buf: Buffer, start: number, length: number): number | null {
  const text = field(buf, start, length).trim();
  return /^[0-7]+$/.test(text) ? Number.parseInt(text, 8) : null;
}

/** The header's checksum: its bytes summed, the checksum field counted as spaces. */
function checksumOk(buf: Buffer, at: number): boolean {
  let sum = 8 * 0x20;
  for (let i = 0; i < BLOCK; i++) if (i < 148 || i >= 156) sum += buf[at + i];
  return octal(buf, at + 148, 8) === sum;
}

/** The `path` record of a pax extended header ("<length> path=<value>\n" records). */
function paxPath(data: Buffer): string | null {
  let at = 0;
  while (at < data.length) {
    const space = data.indexOf(0x20, at);
    const length = Number.parseInt(data.toString('utf8', at, space), 10);
    if (space < 0 || !(length > 0) || at + length > data.length) return null;
    const record = data.toString('utf8', space + 1, at + length - 1);
    if (record.startsWith('path=')) return record.slice('path='.length);
    at += length;
  }
  return null;
}

/** Inflates the gzip stream, stopping at `maxBytes` (a small download can inflate to gigabytes). */
function gunzip(bytes: Uint8Array, maxBytes: number, fileName: string): Buffer {
  try {
    return gunzipSync(bytes, { maxOutputLength: maxBytes });
  } catch (err) {
    if (codeOf(err) === 'ERR_BUFFER_TOO_LARGE')
      throw new ImportError(`${fileName} inflates past the ${mib(maxBytes)} bound for one file; nothing changed`);
    throw new ImportError(
      `${fileName} is a damaged gzip archive (${messageOf(err)}): a truncated or altered download; nothing changed`,
    );
  }
}

/** Every regular file of the archive, in archive order; directories, links and the like are left out. */
export function gzippedTarFiles(bytes: Uint8Array, opts: { maxBytes: number; fileName: string }): TarFile[] {
  const { fileName } = opts;
  const buf = gunzip(bytes, opts.maxBytes, fileName);
  const damaged = (why: string) => new ImportError(`${fileName} is a damaged tar archive: ${why}; nothing changed`);
  const files: TarFile[] = [];
  let longName: string | null = null;
  let at = 0;
  for (;;) {
    if (at + BLOCK > buf.length) throw damaged('it ends without its end-of-archive block');
    // the end of the archive: a block of zeros
    if (buf.subarray(at, at + BLOCK).every((b) => b === 0)) break;
    if (!checksumOk(buf, at)) throw damaged(`the header at byte ${at} fails its checksum`);
    const size = octal(buf, at + 124, 12);
    if (size === null) throw damaged(`the header at byte ${at} has no size`);
    const start = at + BLOCK;
    if (start + size > buf.length) throw damaged('a file is cut short');
    const data = buf.subarray(start, start + size);
    const type = String.fromCharCode(buf[at + 156]);
    const prefix = field(buf, at + 345, 155);
    const name = field(buf, at, 100);
    if (type === 'x') longName = paxPath(data);
    else if (type === 'L') longName = field(data, 0, data.length);
    else {
      if (type === '0' || type === '\0')
        files.push({ path: longName ?? (prefix ? `${prefix}/${name}` : name), bytes: data });
      longName = null;
    }
    at = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}
