/**
 * `mod97 batch FILE.csv`: every row of a CSV, in order, with five columns added from the batch
 * route. It streams: one batch of rows is held at a time, whatever the file's size. Batches are
 * sized to what the key has left, so a key running out stops after its last whole batch instead
 * of being refused a large one; the output always ends on a whole batch and `--resume` goes on.
 */
import { createReadStream, createWriteStream, existsSync, statSync, type WriteStream } from 'node:fs';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CsvError, parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { type BatchResult, type Mod97, Mod97Error } from '../client/index.ts';
import { scanWritten, sniffDialect } from './csv-files.ts';
import { clientFor, EXIT, requireKey, serviceError, UsageError, type CliIo } from './io.ts';
import { Progress } from './progress.ts';

export const BATCH_USAGE = `usage: mod97 batch FILE.csv [--column iban] [--bic-column NAME] [--out OUT.csv] [--resume] [--force]
Reads a CSV file with a header row (',' or ';' between fields, quoted fields, UTF-8 with or
without BOM) and writes every row, in order, with the same delimiter, UTF-8 without BOM, and
five added columns: iban_valid (true/false; empty for an empty cell), iban_formatted,
iban_errors (codes joined by |), bank_bic, bank_name.
  --column NAME  the header of the IBAN column (default iban, any case)
  --bic-column NAME  a column of BICs to check against each IBAN's bank: adds bic_matches
                 (true/false; empty when no source knows the bank or the cell is empty;
                 invalid_bic when the cell is not a BIC)
  --out OUT.csv  where to write (default FILE.mod97.csv); an existing file is kept unless
                 --resume (continue it) or --force (start it again) is given
  --resume       continue after the last row OUT.csv holds (from the first row if none)
Needs MOD97_API_KEY; costs 1 request per non-empty IBAN, sent in batches of up to 1000 sized to
what the key has left. Progress goes to stderr. When the quota runs out it stops after the last
whole batch, keeps the output, says how to go on, and exits 3; Ctrl-C stops the same way.
exit: 0 done, 2 wrong usage or a service error, 3 the quota or payment ran out, 130 interrupted`;

const ADDED_COLUMNS = ['iban_valid', 'iban_formatted', 'iban_errors', 'bank_bic', 'bank_name'];
const BATCH_MAX = 1000;
/** Rows with empty cells are written with the next batch; this bounds how many wait for it. */
const MAX_PENDING_ROWS = 2 * BATCH_MAX;
/** A BIC as the service takes it: 8 or 11 letters and digits, once spaces are gone and case raised. */
const BIC_SHAPE = /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const BIC_COLUMN = 'bic_matches';

interface PendingRow {
  cells: string[];
  iban: string;
  /** With --bic-column: the cell as sent (upper case, no spaces; '' when empty), or null when it is not a BIC. */
  bic?: string | null;
}

type Result = BatchResult['results'][number];
const columnsOf = (r: Result): string[] => [
  String(r.valid),
  r.formatted,
  r.errors.map((e) => e.code).join('|'),
  r.bank?.bic ?? '',
  r.bank?.name ?? '',
];

class Stop {
  constructor(
    readonly code: number,
    readonly lines: string[],
  ) {}
}

export async function batchCommand(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      column: { type: 'string', default: 'iban' },
      'bic-column': { type: 'string' },
      out: { type: 'string' },
      resume: { type: 'boolean' },
      force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(BATCH_USAGE);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError('give one CSV file', BATCH_USAGE);
  requireKey(env, BATCH_USAGE);
  const input = positionals[0]!;
  if (!existsSync(input) || !statSync(input).isFile()) throw new UsageError(`cannot read ${input}`, BATCH_USAGE);
  const output = values.out ?? join(dirname(input), `${basename(input, extname(input))}.mod97.csv`);
  if (resolve(output) === resolve(input)) throw new UsageError('--out must not be the input file', BATCH_USAGE);
  if (existsSync(output) && !values.resume && !values.force)
    throw new UsageError(`${output} exists: add --resume to continue it or --force to start it again`, BATCH_USAGE);

  const columns = { iban: values.column, bic: values['bic-column'] ?? null };
  const run = new BatchRun(clientFor(env), io, input, output, columns, values.resume ?? false);
  const interrupt = () => (run.interrupted ? process.exit(130) : (run.interrupted = true));
  process.on('SIGINT', interrupt);
  try {
    return await run.go();
  } finally {
    process.off('SIGINT', interrupt);
  }
}

class BatchRun {
  interrupted = false;
  private readonly dialect;
  private out!: WriteStream;
  private remaining = 0;
  private written = 0;
  private sent = { batches: 0, valid: 0, invalid: 0, empty: 0 };
  private readonly progress: Progress;
  /** The header of the output an earlier run wrote, when resuming one. */
  private resumeHeader: string[] | null = null;

  constructor(
    private readonly client: Mod97,
    private readonly io: CliIo,
    private readonly input: string,
    private readonly output: string,
    private readonly column: { iban: string; bic: string | null },
    private readonly resume: boolean,
  ) {
    this.dialect = sniffDialect(input);
    this.progress = new Progress(io, statSync(input).size);
  }

  async go(): Promise<number> {
    const skip = await this.start();
    if (skip === null) return EXIT.usage;
    try {
      return await this.rows(skip);
    } catch (e) {
      const stop =
        e instanceof CsvError
          ? new Stop(EXIT.usage, [`error: ${this.input} is not valid CSV: ${e.message}`, ...this.howToGoOn()])
          : e;
      if (!(stop instanceof Stop)) throw e;
      this.progress.stop();
      for (const line of stop.lines) this.io.err(line);
      return stop.code;
    } finally {
      this.progress.stop();
      await new Promise((done) => this.out.end(done));
    }
  }

  /** Reads the key's quota and opens the output; the rows an earlier run wrote, or null when the service failed. */
  private async start(): Promise<number | null> {
    let skip = 0;
    let header: string[] | null = null;
    if (this.resume) ({ header, rows: skip } = await scanWritten(this.output, this.dialect.delimiter));
    try {
      this.remaining = (await this.client.usage()).remaining;
    } catch (e) {
      serviceError(this.io, e);
      return null;
    }
    this.out = createWriteStream(this.output, { flags: header ? 'a' : 'w' });
    this.resumeHeader = header;
    return skip;
  }

  private async rows(skip: number): Promise<number> {
    const parser = createReadStream(this.input).pipe(
      parse({ delimiter: this.dialect.delimiter, bom: true, relax_column_count: true, info: true }),
    );
    let header: string[] | null = null;
    let at = -1;
    let bicAt = -1;
    let width = 0;
    let row = 0;
    let pending: PendingRow[] = [];
    let ibans = 0;
    let limit = BATCH_MAX;
    let bytes = 0;
    if (skip) this.io.err(`resuming after row ${skip} of ${this.input}`);
    this.progress.start(this.remaining);
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { bytes: number } }>) {
      if (!header) {
        width = record.length;
        header = [...record, ...this.addedColumns()];
        at = this.columnIndex(record, this.column.iban, '--column');
        if (this.column.bic !== null) bicAt = this.columnIndex(record, this.column.bic, '--bic-column');
        await this.writeHeader(header);
        continue;
      }
      if (++row <= skip) continue;
      if (this.interrupted) break;
      const cells = record.length < width ? padded(record, width) : record;
      const iban = (cells[at] ?? '').trim();
      pending.push(bicAt < 0 ? { cells, iban } : { cells, iban, bic: bicCell(cells[bicAt]) });
      bytes = info.bytes;
      // the quota is looked at before a batch's first IBAN: a key that ran out stops here
      if (iban && ibans === 0) limit = await this.batchSize();
      if (iban && ++ibans >= limit) {
        await this.flush(pending, bytes);
        pending = [];
        ibans = 0;
      } else if (pending.length >= MAX_PENDING_ROWS) {
        await this.flush(pending, bytes);
        pending = [];
        ibans = 0;
      }
    }
    if (!header) throw new Stop(EXIT.usage, [`error: ${this.input} has no header row`]);
    if (!this.interrupted && pending.length) await this.flush(pending, bytes);
    this.progress.stop();
    if (this.interrupted) {
      this.io.err(`interrupted: ${this.howToGoOn().join('\n')}`);
      return 130;
    }
    const { valid, invalid, empty } = this.sent;
    this.io.out(
      `${this.written} rows written to ${this.output} (${valid} valid, ${invalid} invalid, ${empty} without an IBAN)`,
    );
    return EXIT.ok;
  }

  /**
   * IBANs for the next batch: up to 1000, and no more than the key has left. With nothing left
   * (after asking again, in case the key was raised meanwhile), a batch of one is sent: its
   * refusal costs nothing and carries the service's own ways to go on.
   */
  private async batchSize(): Promise<number> {
    if (this.remaining <= 0) this.remaining = (await this.client.usage().catch(() => ({ remaining: 0 }))).remaining;
    return Math.max(1, Math.min(BATCH_MAX, this.remaining));
  }

  private addedColumns(): string[] {
    return this.column.bic === null ? ADDED_COLUMNS : [...ADDED_COLUMNS, BIC_COLUMN];
  }

  private columnIndex(header: string[], name: string, option: string): number {
    const at = header.findIndex((h) => h.trim().toLowerCase() === name.toLowerCase());
    if (at < 0)
      throw new Stop(EXIT.usage, [
        `error: no column "${name}" in the header of ${this.input} (${header.join(', ')}); name it with ${option}`,
      ]);
    return at;
  }

  private async flush(rows: PendingRow[], bytes: number): Promise<void> {
    // A BIC that is not one is never sent (the service would refuse the whole batch for it).
    const ibans = rows.filter((r) => r.iban).map((r) => (r.bic ? { iban: r.iban, bic: r.bic } : r.iban));
    let results: Result[] = [];
    if (ibans.length) {
      try {
        const answer = await this.client.batch(ibans);
        results = answer.results;
        if (answer.quota) this.remaining = answer.quota.remaining;
        else this.remaining -= ibans.length;
      } catch (e) {
        if (e instanceof Mod97Error && e.status === 402) throw this.exhausted(e);
        const why = e instanceof Mod97Error ? `${e.body.message} (${e.status ? `${e.status} ` : ''}${e.code})` : e;
        throw new Stop(EXIT.usage, [`error: ${why}`, ...this.howToGoOn()]);
      }
    }
    let next = 0;
    const lines = rows.map(({ cells, iban, bic }) => {
      if (!iban) {
        this.sent.empty++;
        return [...cells, ...this.addedColumns().map(() => '')];
      }
      const r = results[next++]!;
      this.sent[r.valid ? 'valid' : 'invalid']++;
      if (bic === undefined) return [...cells, ...columnsOf(r)];
      const matches = bic === null ? 'invalid_bic' : bic === '' ? '' : String(r.bic_check?.matches ?? '');
      return [...cells, ...columnsOf(r), matches];
    });
    await this.write(stringify(lines, { delimiter: this.dialect.delimiter, record_delimiter: this.dialect.eol }));
    this.written += rows.length;
    this.sent.batches++;
    const { batches, valid, invalid } = this.sent;
    this.progress.update({
      batches,
      sent: ibans.length,
      rows: this.written,
      valid,
      invalid,
      quotaLeft: this.remaining,
      bytes,
    });
  }

  private async writeHeader(header: string[]): Promise<void> {
    if (this.resumeHeader) {
      if (this.resumeHeader.join('\u0000') !== header.join('\u0000'))
        throw new Stop(EXIT.usage, [
          `error: ${this.output} was not written from this file (its header differs); choose another --out or use --force`,
        ]);
      return;
    }
    await this.write(stringify([header], { delimiter: this.dialect.delimiter, record_delimiter: this.dialect.eol }));
  }

  private write(text: string): Promise<void> {
    return new Promise((done, fail) => this.out.write(text, (err) => (err ? fail(err) : done())));
  }

  private exhausted(e: Mod97Error): Stop {
    const body = e.body as {
      used?: number;
      limit?: number;
      options?: { type: string; url?: string; raises_limit_to?: number; resets_at?: string; price_usd?: number }[];
    };
    const why =
      e.code === 'quota_exhausted'
        ? `the key's quota is used up (${body.used} of ${body.limit})`
        : `the service asks for payment (${e.code})`;
    const option = (type: string) => body.options?.find((o) => o.type === type);
    const claim = option('claim');
    const credits = option('credits');
    const wait = option('wait');
    const ways = [
      ...(claim ? [`  claim this key (${claim.raises_limit_to} a month): mod97 keys claim --email ADDRESS`] : []),
      ...(credits ? [`  buy credits (from $${credits.price_usd}): ${credits.url}`] : []),
      ...(wait ? [`  wait until ${wait.resets_at}`] : []),
    ];
    return new Stop(EXIT.paymentRequired, [
      `stopped: ${why}.`,
      ...this.howToGoOn([
        'To go on, raise the quota or use another key:',
        ...ways,
        '  or set MOD97_API_KEY to a key with quota left,',
      ]),
    ]);
  }

  private howToGoOn(before: string[] = []): string[] {
    return [
      `${this.written} rows written to ${this.output} in this run; it ends on a whole batch.`,
      ...before,
      `then continue where it stopped: mod97 batch ${this.input} --out ${this.output} --resume`,
    ];
  }
}

function padded(record: string[], width: number): string[] {
  return [...record, ...Array<string>(width - record.length).fill('')];
}

/** '' for an empty cell (nothing to check), null for one that is not a BIC. */
function bicCell(cell: string | undefined): string | null {
  const bic = (cell ?? '').replace(/\s+/g, '').toUpperCase();
  return !bic || BIC_SHAPE.test(bic) ? bic : null;
}
