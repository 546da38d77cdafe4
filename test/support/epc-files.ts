/**
 * EPC register exports for the memory bound of `mod97 data import` (docs/reliability.md, "Hostile data files"), built
 * from the real file's shape (the shared copy of the EPC's SCT export when there is one):
 * - hostile: a header of 3,000 columns over 40,000 short rows, ~577 KB on disk, which took
 *   2.8 GB when every row was held with every column;
 * - valid: the real export's rows repeated, with BICs made unique, to ~31 MB (under the 32 MiB
 *   bound of one EPC file);
 * - minimal: ~31 MB of rows holding only a BIC and a name, ~2.8 million of them.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_DATA } from './shared-data.ts';

const REAL = `${SHARED_DATA}epc-scheme-register/SepaAdherence.csv`;
const HEADER =
  '"Country","ParticipantName","Address","City","BIC","Readiness Date","Scheme Leaving Date","Scheme Options"';
const SAMPLE_ROWS = [
  '"GERMANY","Deutsche Bank AG","Taunusanlage 12","Frankfurt am Main","DEUTDEFFXXX","2008-01-28","",""',
  '"FRANCE","BNP Paribas","16 boulevard des Italiens","Paris","BNPAFRPPXXX","2008-01-28","",""',
  '"ITALY","Banca Monte dei Paschi di Siena S.p.A.","Piazza Salimbeni 3","Siena","PASCITMMXXX","2008-01-28","",""',
];

/** A valid export of ~31 MB in its smallest form: a BIC and a name a row, ~2.8 million rows. */
export function writeMinimalEpc(dir: string, bytes = 31_000_000): { path: string; rows: number } {
  const out = ['BIC,ParticipantName'];
  let size = out[0].length + 1;
  let n = 0;
  while (size < bytes) {
    const row = `B${n.toString(36).toUpperCase().padStart(7, '0')},n`;
    out.push(row);
    size += row.length + 1;
    n++;
  }
  const path = join(dir, 'SepaAdherence-minimal.csv');
  writeFileSync(path, `${out.join('\n')}\n`);
  return { path, rows: n };
}

/** The hostile file: 3,000 columns named, rows of one BIC and a name each. */
export function writeHostileEpc(dir: string): string {
  const header = ['BIC', 'ParticipantName', ...Array.from({ length: 2998 }, (_, i) => `c${i}`)].join(',');
  const rows = Array.from({ length: 40_000 }, (_, i) => `B${String(i).padStart(7, '0')},n`);
  const path = join(dir, 'SepaAdherence-hostile.csv');
  writeFileSync(path, `${header}\n${rows.join('\n')}\n`);
  return path;
}

/** A valid export of about `bytes` (31 MB by default): the real rows again and again, each BIC unique. */
export function writeLargeEpc(dir: string, bytes = 31_000_000): { path: string; rows: number } {
  const lines = existsSync(REAL) ? readFileSync(REAL, 'utf8').split(/\r?\n/).filter(Boolean) : [HEADER, ...SAMPLE_ROWS];
  const [header, ...body] = lines;
  const out: string[] = [header];
  let size = header.length + 1;
  let n = 0;
  while (size < bytes) {
    // the BIC's branch code made unique: XXX → a base-36 counter
    // (the BIC is the quoted code just before the Readiness Date)
    const branch = (n % 46656).toString(36).toUpperCase().padStart(3, '0');
    const row = body[n % body.length].replace(
      /"([A-Z0-9]{8})(?:[A-Z0-9]{3})?",("\d{4}-\d{2}-\d{2}"|"")/,
      (_, bic8: string, date: string) => `"${bic8}${branch}",${date}`,
    );
    out.push(row);
    size += Buffer.byteLength(row) + 1;
    n++;
  }
  const path = join(dir, 'SepaAdherence-large.csv');
  writeFileSync(path, `${out.join('\n')}\n`);
  return { path, rows: n };
}
