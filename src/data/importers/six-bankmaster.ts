import { clearingFromSixV3 } from '../clearing.ts';
import type { ClearingRecord } from '../types.ts';
import { decodeText, readRows } from './text.ts';
import { ImportError, type Importer, resolveAsOf } from './types.ts';

/** SIX BankMaster V3: ';'-separated, one header row whose last field is SIX's creation stamp. */
export const sixBankmaster: Importer<ClearingRecord> = {
  kind: 'six-bankmaster',
  title: 'SIX BankMaster V3 (Swiss and Liechtenstein IIDs)',
  // SIX's file is a few MiB: a file many times larger is not the publisher's
  maxBytes: 32 * 1024 * 1024,
  defaultUrls: ['https://api.six-group.com/api/epcd/bankmaster/v3/bankmaster_V3.csv'],
  parse(input) {
    const [header, ...rows] = readRows(decodeText(input.bytes), ';', input.name, { header: true });
    if (header?.[0] !== 'IID/QR-IID' || header[14] !== 'BIC') {
      throw new ImportError(`${input.name} is not a SIX BankMaster V3 CSV (first column must be "IID/QR-IID")`);
    }
    const records = rows.map(clearingFromSixV3).filter((r): r is ClearingRecord => r !== null);
    if (records.length === 0) throw new ImportError(`${input.name} holds no IID rows`);
    const stamp = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})/.exec(header[21] ?? '');
    const created = stamp ? ` created ${stamp[1]}-${stamp[2]}-${stamp[3]} ${stamp[4]}:${stamp[5]}` : '';
    // every row carries its "Valid on" day; the newest one dates the file as a whole
    const validOn = records.reduce<string | null>(
      (max, r) => (r.valid_on && (!max || r.valid_on > max) ? r.valid_on : max),
      null,
    );
    const dated = resolveAsOf(input, validOn, null, 'no row has a "Valid on" date');
    return { kind: 'six-bankmaster', source: `SIX BankMaster V3${created}`, ...dated, records };
  },
};
