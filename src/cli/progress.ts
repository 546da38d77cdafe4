/** Progress of `mod97 batch` on stderr: a bar on a terminal, otherwise one plain line per batch. */
import { SingleBar } from 'cli-progress';
import type { CliIo } from './io.ts';
import { counted } from '../thousands.ts';

export interface Counts {
  batches: number;
  /** IBANs sent in the last batch. */
  sent: number;
  rows: number;
  valid: number;
  invalid: number;
  quotaLeft: number;
  /** Bytes of the input read so far, of `total`. */
  bytes: number;
}

export class Progress {
  private bar: SingleBar | null = null;

  constructor(
    private readonly io: CliIo,
    private readonly total: number,
  ) {}

  start(quotaLeft: number): void {
    const tty = this.io.stderr?.isTTY ? this.io.stderr : null;
    if (!tty) return;
    this.bar = new SingleBar({
      stream: tty,
      format: 'mod97 batch |{bar}| {percentage}% | {rows} rows | {valid} valid, {invalid} invalid | quota left {left}',
      hideCursor: true,
    });
    this.bar.start(this.total, 0, { rows: 0, valid: 0, invalid: 0, left: quotaLeft });
  }

  update(c: Counts): void {
    if (this.bar) {
      this.bar.update(c.bytes, { rows: c.rows, valid: c.valid, invalid: c.invalid, left: c.quotaLeft });
      return;
    }
    const share = this.total ? Math.floor((c.bytes / this.total) * 100) : 100;
    this.io.err(
      `batch ${c.batches}: ${counted(c.sent, 'IBAN')} sent, ${counted(c.rows, 'row')} written (${c.valid} valid, ${c.invalid} invalid), ${share}% of the file, quota left ${c.quotaLeft}`,
    );
  }

  /** Leaves the terminal as it was, before any other line is printed. */
  stop(): void {
    this.bar?.stop();
    this.bar = null;
  }
}
