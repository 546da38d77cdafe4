/** A real pino logger whose JSON lines are kept in memory, to check what the mail code logs. */
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

export interface CapturedLog {
  logger: Logger;
  /** Raw JSON lines, as they would reach a log file. */
  lines: string[];
  entries(): Array<Record<string, unknown>>;
}

export function captureLog(): CapturedLog {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });
  const logger = pino({ level: 'info' }, stream);
  return { logger, lines, entries: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}
