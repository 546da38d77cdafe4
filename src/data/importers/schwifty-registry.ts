/**
 * schwifty's bank registry files that the release does not bundle (docs/data-sources.md, "What
 * may ship"): each is a country's bank codes with names and BICs, made from a publisher who
 * reserves commercial use, from a commercial site, or from no named source. An operator who may
 * use them imports them: `mod97 data update schwifty-registry` downloads them from schwifty's
 * repository, `mod97 data import schwifty-registry generated_es.json --as-of ...` reads a copy.
 * They are parsed by the same code as the bundled files (bundle/build.ts).
 */
import { type BankRow, SCHWIFTY_FILE, schwiftyFileRows } from '../bundle/build.ts';
import { SCHWIFTY_IMPORT_FILES, SCHWIFTY_TERMS } from '../bundle/terms.ts';
import type { ParsedDataset } from '../types.ts';
import { decodeText } from './text.ts';
import { ImportError, type Importer, resolveAsOf } from './types.ts';

/** schwifty's repository, its default branch: the newest copy of each file. */
export const SCHWIFTY_RAW = 'https://raw.githubusercontent.com/mdomke/schwifty/main/schwifty/bank_registry/';

/** Each file is its own dataset (`schwifty-es-generated`, `schwifty-es-manual`): importing one never drops another. */
export const SCHWIFTY_DATASET = /^schwifty-[a-z]{2}-(generated|manual)$/;

export const schwiftyRegistry: Importer<BankRow> = {
  kind: 'schwifty-registry',
  title: "schwifty's bank registry files not bundled (bank code to name and BIC, one country a file)",
  defaultUrls: SCHWIFTY_IMPORT_FILES.map((file) => `${SCHWIFTY_RAW}${file}`),
  // the largest file (Ukraine's branches) is under 2 MiB
  maxBytes: 16 * 1024 * 1024,
  optIn: true,
  parse(input): ParsedDataset<BankRow> {
    const file = input.name.split(/[/\\]/).pop() ?? '';
    const named = SCHWIFTY_FILE.exec(file);
    if (!named)
      throw new ImportError(
        `${input.name}: cannot tell the country: name the file as schwifty does (generated_xx.json, generated_xx.v2.json or manual_xx.json)`,
      );
    const [, origin, cc] = named;
    let json: unknown;
    try {
      json = JSON.parse(decodeText(input.bytes));
    } catch {
      throw new ImportError(`${input.name} is not JSON: not a schwifty bank registry file`);
    }
    let records: BankRow[];
    try {
      records = schwiftyFileRows(json, cc.toUpperCase());
    } catch (e) {
      throw new ImportError(`${input.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
    const dated = resolveAsOf(input, null, null, 'schwifty’s registry files carry no date');
    const publisher = SCHWIFTY_TERMS.find((t) => t.file === file)?.publisher;
    return {
      kind: `schwifty-${cc}-${origin}`,
      source: `schwifty bank registry ${file}${publisher ? ` (${publisher})` : ''}`,
      ...dated,
      records,
    };
  },
};
