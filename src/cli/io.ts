/** What every `mod97` command shares: its output, its exit codes, and how it meets the service. */
import { Mod97, Mod97Error } from '../client/index.ts';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** The real stderr, for a progress bar when it is a terminal; absent in tests run in process. */
  stderr?: NodeJS.WriteStream;
}

/** 0 done; 1 done, but something was invalid or failed; 2 wrong usage or a service error; 3 payment needed. */
export const EXIT = { ok: 0, failed: 1, usage: 2, paymentRequired: 3 } as const;

/** Wrong usage: the message, then the usage text of the command, on stderr; exit 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}

export const DEFAULT_URL = 'http://127.0.0.1:3000';

export function clientFor(env: NodeJS.ProcessEnv): Mod97 {
  return new Mod97({ baseUrl: env.MOD97_URL || DEFAULT_URL, apiKey: env.MOD97_API_KEY || undefined });
}

export function requireKey(env: NodeJS.ProcessEnv, usage: string): void {
  if (!env.MOD97_API_KEY)
    throw new UsageError('this command needs a key in MOD97_API_KEY (get one with: mod97 keys generate)', usage);
}

/** A refusal or failure of the service, as one line for people: exit 2. */
export function serviceError(io: CliIo, e: unknown): number {
  if (!(e instanceof Mod97Error)) throw e;
  io.err(`error: ${e.body.message} (${e.status ? `${e.status} ` : ''}${e.code})`);
  return EXIT.usage;
}
