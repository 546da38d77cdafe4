import type { ParsedDataset } from '../types.ts';

/** What an importer receives: the publisher's file as bytes, and what is known about it. */
export interface ImportInput {
  bytes: Uint8Array;
  /** File name or URL; some formats are recognised by it (EPC scheme, dates in names). */
  name: string;
  /** Operator's `--as-of`, used when the format carries no date of its own. */
  asOf?: string;
  /** File modification time or HTTP Last-Modified (YYYY-MM-DD): the last resort for `asOf`. */
  fileDate?: string;
  /** Explicit EPC scheme (`SCT`, `SCT_INST`, `SDD_CORE`, `SDD_B2B`) when the name does not say. */
  scheme?: string;
}

export interface Importer {
  kind: string;
  title: string;
  /** Public publisher URLs that `mod97 data update` downloads (override: MOD97_DATA_URL_<KIND>). */
  defaultUrls: string[];
  parse(input: ImportInput): ParsedDataset<unknown>;
}

export class ImportError extends Error {}

/** The format's own date wins, then `--as-of`, then a date in the file name, then the file date. */
export function resolveAsOf(input: ImportInput, fromFormat: string | null, fromName: string | null): string {
  const asOf = fromFormat ?? input.asOf ?? fromName ?? input.fileDate;
  if (!asOf || !/^\d{4}-\d{2}-\d{2}$/.test(asOf)) {
    throw new ImportError(`cannot tell the date of ${input.name}: pass --as-of YYYY-MM-DD`);
  }
  return asOf;
}
