import { inflateRawSync } from 'node:zlib';

/**
 * The first file of a ZIP archive, or null when `bytes` is not a ZIP. Reads the central
 * directory (sizes in local headers may be zero when the archive was streamed).
 */
export function firstZipEntry(bytes: Uint8Array): { name: string; bytes: Uint8Array } | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 22 || buf.readUInt32LE(0) !== 0x04034b50) return null;
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  if (eocd < 0) return null;
  const central = buf.readUInt32LE(eocd + 16);
  const method = buf.readUInt16LE(central + 10);
  const compressedSize = buf.readUInt32LE(central + 20);
  const nameLength = buf.readUInt16LE(central + 28);
  const local = buf.readUInt32LE(central + 42);
  const name = buf.toString('utf8', central + 46, central + 46 + nameLength);
  const dataStart = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
  const data = buf.subarray(dataStart, dataStart + compressedSize);
  if (method === 0) return { name, bytes: data };
  if (method === 8) return { name, bytes: inflateRawSync(data) };
  throw new Error(`ZIP compression method ${method} is not supported`);
}
