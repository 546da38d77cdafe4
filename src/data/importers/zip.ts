import * as zlib from 'node:zlib';
import { ImportError, mib } from './types.ts';
import { messageOf, codeOf } from '../../thrown.ts';

/** CRC-32 (IEEE): zlib's own from Node 20.15; a table otherwise (package.json allows any Node 20). */
const crc32: (data: Uint8Array) => number =
  // typeof: the types know only the Node that has it
  typeof zlib.crc32 === 'function'
    ? zlib.crc32
    : (() => {
        const table = new Int32Array(256).map((_, n) => {
          let c = n;
          for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
          return c;
        });
        return (data: Uint8Array) => {
          let c = -1;
          for (const byte of data) c = table[(c ^ byte) & 0xff] ^ (c >>> 8);
          return (c ^ -1) >>> 0;
        };
      })();

interface Entry {
  name: string;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  local: number;
}

/** The central directory's entries (sizes in local headers may be zero when the archive was streamed). */
function entries(buf: Buffer, fileName: string): Entry[] {
  let eocd = buf.length - 22;
  // the end record sits in the last 64 KiB + 22 bytes (its comment is at most 65,535 bytes)
  const stop = Math.max(0, buf.length - 22 - 0xffff);
  while (eocd >= stop && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < stop) throw new ImportError(`${fileName} is a damaged ZIP archive: no central directory`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const out: Entry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50)
      throw new ImportError(`${fileName} is a damaged ZIP archive: bad central directory`);
    const nameLength = buf.readUInt16LE(at + 28);
    out.push({
      name: buf.toString('utf8', at + 46, at + 46 + nameLength),
      method: buf.readUInt16LE(at + 10),
      crc: buf.readUInt32LE(at + 16),
      compressedSize: buf.readUInt32LE(at + 20),
      size: buf.readUInt32LE(at + 24),
      local: buf.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
  }
  return out;
}

/**
 * The one file of a ZIP archive whose name `wanted` accepts, or null when `bytes` is not a ZIP.
 * Bounded: an entry that says, or turns out, to inflate past `maxBytes` is refused once that
 * many bytes are out (a small archive can inflate to gigabytes), and its CRC-32 must match.
 */
export function zipEntry(
  bytes: Uint8Array,
  opts: { wanted: (name: string) => boolean; what: string; maxBytes: number; fileName: string },
): { name: string; bytes: Uint8Array } | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 22 || buf.readUInt32LE(0) !== 0x04034b50) return null;
  const { fileName, maxBytes } = opts;
  const all = entries(buf, fileName);
  const found = all.filter((e) => opts.wanted(e.name));
  if (found.length !== 1) {
    const names = all.map((e) => e.name).join(', ') || 'none';
    throw new ImportError(
      `${fileName}: expected exactly one ${opts.what} in the ZIP archive, found ${found.length} (entries: ${names.slice(0, 300)})`,
    );
  }
  const entry = found[0];
  if (entry.size === 0xffffffff || entry.compressedSize === 0xffffffff)
    throw new ImportError(`${fileName}: ${entry.name} is a ZIP64 entry (over 4 GiB), past the ${mib(maxBytes)} bound`);
  if (entry.size > maxBytes)
    throw new ImportError(
      `${fileName}: ${entry.name} inflates to ${mib(entry.size)}, past the ${mib(maxBytes)} bound for one file; nothing changed`,
    );
  if (entry.local + 30 > buf.length || buf.readUInt32LE(entry.local) !== 0x04034b50)
    throw new ImportError(`${fileName} is a damaged ZIP archive: bad local header for ${entry.name}`);
  const dataStart = entry.local + 30 + buf.readUInt16LE(entry.local + 26) + buf.readUInt16LE(entry.local + 28);
  const data = buf.subarray(dataStart, dataStart + entry.compressedSize);
  let out: Buffer;
  if (entry.method === 0) out = data;
  else if (entry.method === 8) {
    try {
      // the declared size may lie: the inflater itself stops one byte past it
      out = zlib.inflateRawSync(data, { maxOutputLength: entry.size + 1 });
    } catch (err) {
      if (codeOf(err) === 'ERR_BUFFER_TOO_LARGE')
        throw new ImportError(
          `${fileName}: ${entry.name} inflates past the ${mib(entry.size)} its archive declares (a ZIP bomb or a damaged archive), bound ${mib(maxBytes)} for one file; nothing changed`,
        );
      throw new ImportError(`${fileName} is a damaged ZIP archive: ${entry.name} does not inflate (${messageOf(err)})`);
    }
  } else throw new ImportError(`${fileName}: ZIP compression method ${entry.method} is not supported`);
  if (out.length > maxBytes)
    throw new ImportError(
      `${fileName}: ${entry.name} inflates past the ${mib(maxBytes)} bound for one file; nothing changed`,
    );
  if (out.length !== entry.size || crc32(out) !== entry.crc)
    throw new ImportError(
      `${fileName} is a damaged ZIP archive: ${entry.name} fails its CRC-32 or size check (truncated or altered download); nothing changed`,
    );
  return { name: entry.name, bytes: out };
}
