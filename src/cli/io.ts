/** What every `mod97` command shares: its output, its exit codes, and how it meets the service. */
import { accessSync, constants, statSync } from 'node:fs';
import type { CliConfig } from '../config.ts';
import { codeOf, messageOf } from '../thrown.ts';
import { Mod97, Mod97Error } from '../../clients/typescript/src/index.ts';
import { nearestNames } from '../typing-slips.ts';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** The real stderr, for a progress bar when it is a terminal; absent in tests run in process. */
  stderr?: NodeJS.WriteStream;
}

/** 0 done; 1 done, but something was invalid or failed; 2 wrong usage or a service error; 3 payment needed. */
export const EXIT = { ok: 0, failed: 1, usage: 2, paymentRequired: 3 } as const;

/**
 * Wrong usage: one line on stderr that points to `mod97 <command> --help`; exit 2. `usage` is
 * the whole text, printed only when the command line gave nothing to complain about.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
  }
}

/** `; did you mean …?` naming the commands or options within typing slips of `typed`, or nothing. */
export function didYouMean(typed: string, names: readonly string[]): string {
  const near = nearestNames(typed, names);
  return near.length ? `; did you mean ${near.join(' or ')}?` : '';
}

/** A command that cannot go on for a reason the user can fix (a file, a column): `error: message`, exit 2, no help text. */
export class Refusal extends Error {}

export const DEFAULT_URL = 'http://127.0.0.1:3000';

/** The service as the user configured it, named in every error about reaching it. */
let serviceUrl = { url: DEFAULT_URL, from: 'the default; set MOD97_URL to change it' };

export function clientFor(settings: CliConfig): Mod97 {
  refuseUnsendableKey(settings.apiKey);
  serviceUrl = settings.serviceUrl
    ? { url: settings.serviceUrl, from: 'MOD97_URL' }
    : { url: DEFAULT_URL, from: 'the default; set MOD97_URL to change it' };
  return new Mod97({ baseUrl: serviceUrl.url, apiKey: settings.apiKey ?? undefined });
}

/**
 * A key that an HTTP header cannot carry (a line break pasted with it, a tab, a control or
 * non-Latin character) would fail inside fetch with an error that quotes the value and reads
 * like a network fault. Refused first, naming the variable; the value is never printed.
 */
export function refuseUnsendableKey(apiKey: string | null): void {
  if (apiKey === null) return;
  // A header value is visible ASCII and spaces; anything else, or spaces around it, is refused.
  if (/^[\x21-\x7e]+$/.test(apiKey)) return;
  const what = /[\r\n]/.test(apiKey)
    ? 'a line break'
    : apiKey.trim() === ''
      ? 'nothing but spaces'
      : /^\s*bearer\s/i.test(apiKey)
        ? 'the word Bearer before the key (the command adds it)'
        : /\s/.test(apiKey)
          ? 'a space or tab'
          : 'a character an HTTP header cannot carry';
  throw new Refusal(
    `MOD97_API_KEY holds ${what}, so it cannot be sent (its value is not shown). Set it to the key alone, e.g. export MOD97_API_KEY=ifk_... with nothing around it. Nothing was sent.`,
  );
}

export function requireKey(settings: CliConfig, usage: string): void {
  if (!settings.apiKey)
    throw new UsageError('this command needs a key in MOD97_API_KEY (get one with: mod97 keys generate)', usage);
}

/** Why a connection failed, in words, from the system's error code the client keeps in its message. */
const CONNECTION_CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused (is the service running?)',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name could not be resolved',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'the connection was closed',
};

/** One line for people about a refusal or failure of the service; a failure to reach it names the URL tried. */
export function describeServiceError(e: Mod97Error): string {
  if (e.status === 0) {
    const where = `${serviceUrl.url} (${serviceUrl.from})`;
    if (e.code === 'timeout') return `no answer from ${where} in time`;
    const cause = /\(([A-Z][A-Z_]+)\)/.exec(e.body.message)?.[1];
    const why = (cause && CONNECTION_CAUSES[cause]) ?? e.body.message.replace(/^Could not reach the service:?\s*/, '');
    return `cannot reach ${where}: ${why}`;
  }
  return `${e.body.message} (${e.status} ${e.code})`;
}

/** A refusal or failure of the service, as one line for people: exit 2. */
export function serviceError(io: CliIo, e: unknown): number {
  if (!(e instanceof Mod97Error)) throw e;
  io.err(`error: ${describeServiceError(e)}`);
  return EXIT.usage;
}

/**
 * Why a file cannot be read, in words, before anything is opened for writing: one wording for
 * every command that reads a file (batch, extract).
 */
export function checkReadable(file: string): void {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(file);
  } catch (e) {
    throw new Refusal(`cannot read ${file}: ${fileFault(e) ?? messageOf(e)}`);
  }
  if (stat.isDirectory()) throw new Refusal(`cannot read ${file}: it is a directory, not a file`);
  if (!stat.isFile()) throw new Refusal(`cannot read ${file}: it is not a regular file`);
  try {
    accessSync(file, constants.R_OK);
  } catch {
    throw new Refusal(`cannot read ${file}: permission denied`);
  }
}

const FILE_FAULTS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  EEXIST: 'it exists already',
};

/** Why the system refused a file a command was given, in the words every command uses; null for another error. */
export function fileFault(e: unknown): string | null {
  return FILE_FAULTS[String(codeOf(e))] ?? null;
}
