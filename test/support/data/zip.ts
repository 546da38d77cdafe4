/** ZIP archives for tests, written by hand: ordinary ones, damaged ones, and ZIP bombs small on disk. */
import { once } from 'node:events';
import { constants, crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** Deflated data. */
  data: Buffer;
  crc: number;
  /** The uncompressed size the archive declares (a bomb may lie). */
  size: number;
}

export const entryOf = (name: string, content: Buffer): ZipEntry => ({
  name,
  data: deflateRawSync(content),
  crc: crc32(content),
  size: content.length,
});

/** A ZIP archive of deflated entries, with local headers, a central directory and its end record. */
export function zipOf(...entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(e.crc >>> 0, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(e.crc >>> 0, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const MIB = 1 << 20;

/**
 * Raw deflate data that inflates to `mib` MiB of zeros, built in milliseconds: once the window
 * holds zeros, the block that encodes 1 MiB more of them is the same every time, so it is
 * written once and repeated (about 1 KiB per MiB).
 */
export async function zerosDeflated(mib: number): Promise<Buffer> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const flushed = async (chunk: Buffer) => {
    deflate.write(chunk);
    await new Promise<void>((r) => deflate.flush(constants.Z_SYNC_FLUSH, () => r()));
    return Buffer.concat(out.splice(0));
  };
  const first = await flushed(Buffer.alloc(MIB));
  const repeated = await flushed(Buffer.alloc(MIB));
  deflate.end();
  await once(deflate, 'end');
  const tail = Buffer.concat(out);
  return Buffer.concat([first, ...Array.from({ length: mib - 1 }, () => repeated), tail]);
}

/** A one-entry ZIP bomb: `mib` MiB of zeros; it declares `declaredBytes` (its true size unless told). */
export async function zipBomb(name: string, mib: number, declaredBytes = mib * MIB): Promise<Buffer> {
  return zipOf({ name, data: await zerosDeflated(mib), crc: 0, size: Math.min(declaredBytes, 0xfffffffe) });
}
