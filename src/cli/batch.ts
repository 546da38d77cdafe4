/**
 * `mod97 batch FILE.csv`: every row of a CSV, in order, with five columns added from the batch
 * route. The input is read twice: once to check it and count what it will cost before anything
 * is written or sent, then to write it. Each distinct IBAN is sent once; its answer is kept
 * only until the last row holding it is written. Batches are sized to what the key has left,
 * so a key running out stops after its last whole batch instead of being refused a large one;
 * the output always ends on a whole batch and `--resume` goes on.
 */
import type { CliConfig } from '../config.ts';
import { createWriteStream, existsSync, statSync, type WriteStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { stringify } from 'csv-stringify/sync';
import { type BatchResult, type Mod97, Mod97Error } from '../../clients/typescript/src/index.ts';
import { readInput, scanWritten, sniffDialect, type Written } from './csv-files.ts';
import {
  checkReadable,
  clientFor,
  describeServiceError,
  EXIT,
  Refusal,
  requireKey,
  UsageError,
  type CliIo,
} from './io.ts';
import { LastRows } from './last-rows.ts';
import { Progress } from './progress.ts';
import { isRecord } from '../is-record.ts';
import { counted } from '../thousands.ts';

export const BATCH_USAGE = `usage: mod97 batch FILE.csv [--column iban] [--bic-column NAME] [--out OUT.csv] [--resume] [--force] [--dry-run]
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
  --resume       continue after the last row OUT.csv holds (from the first row if none); refused
                 when any row of OUT.csv is not the input's row of the same number, or it has
                 blank or changed lines. IBANs OUT.csv already answers are not sent (nor
                 charged) again: their answers are copied from it
  --dry-run      check the file and print what it will cost and what the key has left; send
                 nothing, write nothing
Before writing, the whole file is checked: the column exists, the file is UTF-8 and no row is
wider than the header, and it is not an earlier output (one with the five added columns): else
it stops, naming what is wrong, and writes nothing. Each distinct IBAN
(spaces removed, upper case) is sent once and its answer copied to every row holding it: the
cost is 1 request per distinct IBAN, printed with what the key has left before anything is sent.
An IBAN cell over 64 characters is answered here as invalid (invalid_request) and not sent. An
added cell that starts with = + - @, a tab or a carriage return gets a leading ' so that a
spreadsheet shows it instead of running it; input cells are copied as they are.
Needs MOD97_API_KEY. Batches of up to 50 IBANs, sized to what the key has left. Progress goes
to stderr. When the quota runs out it stops after the last whole batch, keeps the output, says
how to go on, and exits 3; Ctrl-C stops the same way (a run that wrote every row is finished).
exit: 0 done, 2 wrong usage, a file that cannot be used or a service error, 3 the quota or
payment ran out, 130 interrupted`;

const ADDED_COLUMNS = ['iban_valid', 'iban_formatted', 'iban_errors', 'bank_bic', 'bank_name'];
/**
 * IBANs per batch: few enough that the answer stays within the 64 KiB the service keeps for the
 * retries of an Idempotency-Key (docs/api.md, Safe retries). A result is at most about 1 KiB (an
 * invalid IBAN with three suggestions and a BIC checked), so 50 stay near 50 KiB; a batch whose
 * answer is lost on the way back is then sent again and answered once, never charged twice.
 */
const BATCH_MAX = 50;
/** Rows are written with the next batch; this bounds how many wait for it (rows whose IBAN was answered before, or empty). */
const MAX_PENDING_ROWS = 2 * BATCH_MAX;
/** The longest IBAN the service takes: a longer cell would have the whole batch refused. */
const IBAN_MAX_CHARS = 64;
/** A BIC as the service takes it: 8 or 11 letters and digits, once spaces are gone and case raised. */
const BIC_SHAPE = /^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const BIC_COLUMN = 'bic_matches';
/** What a spreadsheet takes for a formula (or, for tab and CR, a cell that hides one). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A file that already holds the added columns is an earlier output: checked again, it would get
 * a second set of them beside the first, which a reader could not tell apart.
 */
function refuseOwnOutput(input: string, header: string[]): void {
  const names = new Set(header.map((h) => h.trim().toLowerCase()));
  if (ADDED_COLUMNS.every((c) => names.has(c)))
    throw new Refusal(
      `${input} already has the columns mod97 batch adds (${ADDED_COLUMNS.join(', ')}): it is an earlier output; run the original file again, or remove those columns first`,
    );
}

/** An added cell as a spreadsheet shows it, never runs it (the OWASP advice for CSV injection). */
export const inertCell = (cell: string): string => (FORMULA_START.test(cell) ? `'${cell}` : cell);

/** The same IBAN however it was typed: what is sent, once per file. */
const normalise = (cell: string): string => cell.replace(/\s+/g, '').toUpperCase();

/** A row's input cells as one number (48 bits of SHA-1): what --resume compares, row by row. */
const rowDigest = (cells: string[]): number =>
  createHash('sha1').update(cells.join('\u0000')).update(String(cells.length)).digest().readUIntBE(0, 6);

interface PendingRow {
  number: number;
  cells: string[];
  /** What decides the answer: the IBAN as sent (with the BIC, when one is checked); '' for an empty cell; null for a cell too long to send. */
  key: string | null;
  /** With --bic-column: the cell as sent (upper case, no spaces; '' when empty), or null when it is not a BIC. */
  bic?: string | null;
}

interface Columns {
  iban: number;
  bic: number;
}

type Result = BatchResult['results'][number];
const columnsOf = (r: Result): string[] => [
  String(r.valid),
  r.formatted,
  r.errors.map((e) => e.code).join('|'),
  r.bank?.bic ?? '',
  r.bank?.name ?? '',
];
/** A cell too long to be an IBAN, answered here: one bad cell must not stop a file. */
const TOO_LONG = ['false', '', 'invalid_request', '', ''];

class Stop {
  constructor(
    readonly code: number,
    readonly lines: string[],
  ) {}
}

interface Options {
  input: string;
  output: string;
  column: { iban: string; bic: string | null };
  resume: boolean;
  dryRun: boolean;
}

export async function batchCommand(argv: string[], settings: CliConfig, io: CliIo): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      column: { type: 'string', default: 'iban' },
      'bic-column': { type: 'string' },
      out: { type: 'string' },
      resume: { type: 'boolean' },
      force: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.out(BATCH_USAGE);
    return EXIT.ok;
  }
  if (positionals.length !== 1)
    throw new UsageError(positionals.length ? 'give one CSV file, not several' : 'give a CSV file', BATCH_USAGE);
  requireKey(settings, BATCH_USAGE);
  const input = positionals[0];
  checkReadable(input);
  const output = values.out ?? join(dirname(input), `${basename(input, extname(input))}.mod97.csv`);
  if (resolve(output) === resolve(input)) throw new UsageError('--out must not be the input file', BATCH_USAGE);
  const dryRun = values['dry-run'] ?? false;
  if (existsSync(output) && statSync(output).isDirectory())
    throw new Refusal(`${output} is a directory; name a file with --out`);
  // Before anything is sent: an output that cannot be written would lose answers already paid for.
  const folder = dirname(resolve(output));
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new Refusal(`cannot write ${output}: the folder ${dirname(output)} does not exist`);
  if (existsSync(output) && !values.resume && !values.force && !dryRun)
    throw new UsageError(`${output} exists: add --resume to continue it or --force to start it again`, BATCH_USAGE);

  const column = { iban: values.column, bic: values['bic-column'] ?? null };
  const run = new BatchRun(clientFor(settings), io, { input, output, column, resume: values.resume ?? false, dryRun });
  const interrupt = () => (run.interrupted ? process.exit(130) : (run.interrupted = true));
  process.on('SIGINT', interrupt);
  try {
    return await run.go();
  } finally {
    process.off('SIGINT', interrupt);
    // A run that got this far is over: a Ctrl-C before the process is gone must not turn its
    // exit code into 130 (a second one still ends it).
    process.once('SIGINT', () => {});
  }
}

class BatchRun {
  interrupted = false;
  private readonly dialect;
  private out: WriteStream | null = null;
  private remaining = 0;
  private written = 0;
  private sent = { batches: 0, ibans: 0, valid: 0, invalid: 0, empty: 0 };
  private readonly progress: Progress;
  /** Answers of IBANs sent, by key, until the last row holding each is written. */
  private readonly answers = new Map<string, string[]>();
  /** For each key to come, the number of the last row that holds it (from the first reading). */
  private lastRowOf = new LastRows();
  private columns: Columns = { iban: -1, bic: -1 };
  /** The columns of the output's header (--resume), found once. */
  private writtenColumns: Columns | null = null;
  /** With --resume: the digest of each row already written (its input cells), in order. */
  private readonly writtenRows: number[] = [];
  /** With --resume: the first row written that is not the input's row of the same number. */
  private changedRow = 0;
  private readonly input: string;
  private readonly output: string;

  constructor(
    private readonly client: Mod97,
    private readonly io: CliIo,
    private readonly options: Options,
  ) {
    this.input = options.input;
    this.output = options.output;
    this.dialect = sniffDialect(this.input);
    this.progress = new Progress(io, statSync(this.input).size);
  }

  async go(): Promise<number> {
    try {
      const done = this.options.resume
        ? await scanWritten(this.output, this.dialect.delimiter, !this.options.dryRun, (record, header) =>
            this.readWritten(record, header),
          )
        : null;
      const plan = await this.check(done?.rows ?? 0);
      if (done?.header) this.checkResume(done, done.header, plan);
      // answers copied from the output only for IBANs still to come
      for (const key of this.answers.keys()) if (!this.lastRowOf.has(key)) this.answers.delete(key);
      const skip = done?.rows ?? 0;
      if (!(await this.announce(plan, skip))) return EXIT.usage;
      if (this.options.dryRun) return EXIT.ok;
      this.out = createWriteStream(this.output, { flags: done?.header ? 'a' : 'w' });
      if (!done?.header) await this.write(this.csv([plan.header]));
      return await this.rows(skip, done);
    } catch (e) {
      if (!(e instanceof Stop)) throw e;
      this.progress.stop();
      for (const line of e.lines) this.io.err(line);
      return e.code;
    } finally {
      this.progress.stop();
      const out = this.out;
      if (out) await new Promise((closed) => out.end(closed));
    }
  }

  /**
   * The first reading: the header and column, UTF-8, row widths, and the keys to send after
   * `skip` rows (each with its last row), all before the output is touched.
   */
  private async check(skip: number) {
    let header: string[] | null = null;
    let rows = 0;
    let tooLong = 0;
    const lastRowOf = new LastRows();
    for await (const { cells } of readInput(this.input, this.dialect.delimiter)) {
      if (!header) {
        refuseOwnOutput(this.input, cells);
        header = [...cells, ...this.addedColumns()];
        this.columns = {
          iban: this.columnIndex(cells, this.options.column.iban, '--column'),
          bic: this.options.column.bic === null ? -1 : this.columnIndex(cells, this.options.column.bic, '--bic-column'),
        };
        continue;
      }
      if (++rows <= skip) {
        // every row already written must be this row of the input, not only the last one
        if (!this.changedRow && rowDigest(cells) !== this.writtenRows[rows - 1]) this.changedRow = rows;
        continue;
      }
      const { key } = this.pending(rows, cells);
      if (key === null) tooLong++;
      else if (key) lastRowOf.set(key, rows);
    }
    if (!header) throw new Refusal(`${this.input} is empty: it needs a header row naming its columns`);
    this.lastRowOf = lastRowOf;
    return { header, rows, tooLong };
  }

  /**
   * One whole row of the output met by --resume: its input cells' digest, and its answer, kept so
   * that an IBAN answered before is not sent (nor charged) again. The columns are found by the
   * output's own header; one that does not match the input's is refused after (checkResume).
   */
  private readWritten(record: string[], header: string[]): void {
    const width = header.length - this.addedColumns().length;
    const cells = record.slice(0, width);
    this.writtenRows.push(rowDigest(cells));
    if (this.writtenColumns === null) {
      const find = (name: string | null) =>
        name === null ? -1 : header.slice(0, width).findIndex((h) => h.trim().toLowerCase() === name.toLowerCase());
      this.writtenColumns = { iban: find(this.options.column.iban), bic: find(this.options.column.bic) };
    }
    if (this.writtenColumns.iban < 0) return;
    const { key, bic } = this.pending(0, cells, this.writtenColumns);
    if (!key || this.answers.has(key)) return;
    // bic_matches is the answer's own only where the row's BIC was sent with its IBAN
    this.answers.set(key, [...record.slice(width, width + 5), bic ? (record[width + 5] ?? '') : '']);
  }

  /** An output from another file, or changed since, would be continued wrongly: refused, naming what differs. */
  private checkResume(done: Written, doneHeader: string[], plan: { header: string[]; rows: number }): void {
    const again = 'choose another --out, or start it again with --force';
    if (doneHeader.join('\u0000') !== plan.header.join('\u0000'))
      throw new Refusal(`${this.output} was not written from ${this.input} (its header differs); ${again}`);
    if (done.rows > plan.rows)
      throw new Refusal(
        `${this.output} holds ${done.rows} rows, ${this.input} only ${plan.rows}: rows were added to one or removed from the other; ${again}`,
      );
    const n = this.changedRow;
    if (n)
      throw new Refusal(
        `row ${n} of ${this.output}${n === done.rows ? ' (its last)' : ''} is not row ${n} of ${this.input}: rows were removed, added or changed in one of them since it was written; ${again}`,
      );
  }

  /** What the file will cost and what the key has left, before anything is sent; false when the service failed. */
  private async announce(plan: { rows: number; tooLong: number }, skip: number): Promise<boolean> {
    let usage: { remaining: number; limit: number; month?: string };
    try {
      usage = await this.client.usage();
    } catch (e) {
      if (!(e instanceof Mod97Error)) throw e;
      this.io.err(`error: ${describeServiceError(e)}`);
      return false;
    }
    this.remaining = usage.remaining;
    const say = (line: string) => (this.options.dryRun ? this.io.out(line) : this.io.err(line));
    // IBANs the output already answers (--resume) are copied, not sent: the answers kept by now
    // are those of IBANs still to come (go())
    const requests = this.lastRowOf.size - this.answers.size;
    const rows = plan.rows - skip;
    say(
      `${this.input}: ${counted(rows, 'row')}${skip ? ` after the ${skip} already in ${this.output}` : ''}, ${counted(this.lastRowOf.size, 'distinct IBAN')}: ${counted(requests, 'request')}${requests < this.lastRowOf.size ? ` (${this.lastRowOf.size - requests} answered in ${this.output} already: copied, not sent)` : ''}${plan.tooLong ? ` (${plan.tooLong} cells over ${IBAN_MAX_CHARS} characters answered invalid without sending)` : ''}`,
    );
    say(
      `the key has ${usage.remaining} of ${counted(usage.limit, 'request')} left${usage.month ? ` (month ${usage.month})` : ''}`,
    );
    if (requests > usage.remaining)
      say(
        `warning: the file needs ${requests - usage.remaining} more requests than the key has left; it will stop when the quota runs out, and --resume goes on once it is raised`,
      );
    return true;
  }

  private async rows(skip: number, done: Written | null): Promise<number> {
    let row = 0;
    let pending: PendingRow[] = [];
    /** Keys of the batch being gathered (sent with the next flush). */
    let batch = new Set<string>();
    let limit = BATCH_MAX;
    let bytes = 0;
    if (skip) this.io.err(`resuming after row ${skip} of ${this.input}`);
    this.progress.start(this.remaining);
    let header = true;
    /** Rows were left unread: Ctrl-C came before the last. */
    let stopped = false;
    for await (const { cells, bytes: read } of readInput(this.input, this.dialect.delimiter)) {
      if (header) {
        header = false;
        continue;
      }
      if (++row <= skip) continue;
      if (this.interrupted) {
        stopped = true;
        break;
      }
      const next = this.pending(row, cells);
      pending.push(next);
      bytes = read;
      const { key } = next;
      const toSend = !!key && !this.answers.has(key) && !batch.has(key);
      // the quota is looked at before a batch's first IBAN: a key that ran out stops here
      if (toSend && batch.size === 0) limit = await this.batchSize();
      if (toSend) batch.add(key);
      if (batch.size >= limit || pending.length >= MAX_PENDING_ROWS) {
        await this.flush(pending, batch, bytes);
        pending = [];
        batch = new Set();
      }
    }
    if (!this.interrupted && pending.length) {
      await this.flush(pending, batch, bytes);
      pending = [];
    }
    this.progress.stop();
    // A Ctrl-C that came after every row was read and written stops nothing: the run is finished.
    if (this.interrupted && (stopped || pending.length)) {
      this.io.err(`interrupted: ${this.howToGoOn().join('\n')}`);
      return 130;
    }
    const before = done?.counts ?? { valid: 0, invalid: 0, empty: 0 };
    const valid = before.valid + this.sent.valid;
    const invalid = before.invalid + this.sent.invalid;
    const empty = before.empty + this.sent.empty;
    this.io.out(
      `${counted(skip + this.written, 'row')} written to ${this.output} (${valid} valid, ${invalid} invalid, ${empty} without an IBAN)${skip ? `, ${this.written} of them in this run` : ''}; ${counted(this.sent.ibans, 'IBAN')} sent`,
    );
    return EXIT.ok;
  }

  private pending(number: number, cells: string[], columns = this.columns): PendingRow {
    const cell = (cells[columns.iban] ?? '').trim();
    const iban = normalise(cell);
    const bic = columns.bic < 0 ? undefined : bicCell(cells[columns.bic]);
    const key =
      cell.length > IBAN_MAX_CHARS || iban.length > IBAN_MAX_CHARS ? null : iban && bic ? `${iban}\u0000${bic}` : iban;
    return bic === undefined ? { number, cells, key } : { number, cells, key, bic };
  }

  /**
   * IBANs for the next batch: up to BATCH_MAX, and no more than the key has left. With nothing left
   * (after asking again, in case the key was raised meanwhile), a batch of one is sent: its
   * refusal costs nothing and carries the service's own ways to go on.
   */
  private async batchSize(): Promise<number> {
    if (this.remaining <= 0) this.remaining = (await this.client.usage().catch(() => ({ remaining: 0 }))).remaining;
    return Math.max(1, Math.min(BATCH_MAX, this.remaining));
  }

  private addedColumns(): string[] {
    return this.options.column.bic === null ? ADDED_COLUMNS : [...ADDED_COLUMNS, BIC_COLUMN];
  }

  private columnIndex(header: string[], name: string, option: string): number {
    const at = header.findIndex((h) => h.trim().toLowerCase() === name.toLowerCase());
    if (at < 0)
      throw new Refusal(
        `no column "${name}" in the header of ${this.input} (${header.join(', ')}); name it with ${option}`,
      );
    return at;
  }

  private async flush(rows: PendingRow[], batch: Set<string>, bytes: number): Promise<void> {
    const keys = [...batch];
    if (keys.length) {
      // A BIC that is not one is never sent (the service would refuse the whole batch for it).
      const ibans = keys.map((key) => {
        const [iban, bic] = key.split('\u0000');
        return bic ? { iban, bic } : iban;
      });
      try {
        const answer = await this.client.batch(ibans);
        answer.results.forEach((r, i) => {
          this.answers.set(keys[i], this.added(r, ibans[i]));
        });
        if (answer.quota) this.remaining = answer.quota.remaining;
        else this.remaining -= ibans.length;
        this.sent.ibans += ibans.length;
      } catch (e) {
        if (e instanceof Mod97Error && e.status === 402) throw this.exhausted(e);
        const why = e instanceof Mod97Error ? describeServiceError(e) : e;
        throw new Stop(EXIT.usage, [`error: ${why}`, ...this.howToGoOn()]);
      }
    }
    const lines = rows.map(({ number, cells, key, bic }) => {
      if (key === '') {
        this.sent.empty++;
        return [...cells, ...this.addedColumns().map(() => '')];
      }
      const added = key === null ? TOO_LONG : this.answers.get(key);
      // every key of the batch was answered above, and kept until its last row
      if (added === undefined) throw new Error(`no answer kept for row ${number}`);
      if (key !== null && this.lastRowOf.get(key) === number) {
        // no later row holds this IBAN: its answer is not kept
        this.answers.delete(key);
      }
      this.sent[added[0] === 'true' ? 'valid' : 'invalid']++;
      const matches =
        bic === undefined ? [] : [key === null ? '' : bic === null ? 'invalid_bic' : bic === '' ? '' : added[5]];
      return [...cells, ...added.slice(0, 5), ...matches].map((c, i) => (i < cells.length ? c : inertCell(c)));
    });
    await this.write(this.csv(lines));
    this.written += rows.length;
    this.sent.batches++;
    const { batches, valid, invalid } = this.sent;
    this.progress.update({
      batches,
      sent: keys.length,
      rows: this.written,
      valid,
      invalid,
      quotaLeft: this.remaining,
      bytes,
    });
  }

  /** The added cells of one answer, bic_matches last (used only with --bic-column). */
  private added(r: Result, sent: string | { iban: string; bic?: string }): string[] {
    const matches = typeof sent === 'string' ? '' : String(r.bic_check?.matches ?? '');
    return [...columnsOf(r), matches];
  }

  private csv(rows: string[][]): string {
    return stringify(rows, { delimiter: this.dialect.delimiter, record_delimiter: this.dialect.eol });
  }

  private write(text: string): Promise<void> {
    const out = this.out; // opened before the first write
    return new Promise((done, fail) => {
      if (!out) throw new Error('the output is not open');
      out.write(text, (err) => (err ? fail(err) : done()));
    });
  }

  private exhausted(e: Mod97Error): Stop {
    const body = e.body;
    const options = Array.isArray(body.options) ? body.options.filter(isRecord) : [];
    const why =
      e.code === 'quota_exhausted'
        ? `the key's quota is used up (${body.used} of ${body.limit})`
        : `the service asks for payment (${e.code})`;
    const option = (type: string) => options.find((o) => o.type === type);
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
      `${counted(this.written, 'row')} written to ${this.output} in this run; it ends on a whole batch.`,
      ...before,
      `then continue where it stopped: mod97 batch ${this.input} --out ${this.output} --resume`,
    ];
  }
}

/** '' for an empty cell (nothing to check), null for one that is not a BIC. */
function bicCell(cell: string | undefined): string | null {
  const bic = (cell ?? '').replace(/\s+/g, '').toUpperCase();
  return !bic || BIC_SHAPE.test(bic) ? bic : null;
}
