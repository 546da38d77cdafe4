/** The `mod97` command: reads the command line, refuses a key on it, and hands over to a command. */
import { type CliConfig, type Env, readCliConfig } from '../config.ts';
import { BACKUP_USAGE, backupCommand } from './backup.ts';
import { BATCH_USAGE, batchCommand } from './batch.ts';
import { DATA_USAGE, dataCommand } from './data.ts';
import { EXTRACT_USAGE, extractCommand } from './extract.ts';
import {
  DEFAULT_URL,
  didYouMean,
  EXIT,
  fileFault,
  Refusal,
  refuseUnsendableKey,
  UsageError,
  type CliIo,
} from './io.ts';
import { KEYS_USAGE, keysCommand } from './keys.ts';
import { MIGRATE_TO_USAGE, migrateToCommand } from './migrate-to.ts';
import { QR_USAGE, qrCommand } from './qr.ts';
import { REFERENCE_USAGE, referenceCommand } from './reference.ts';
import { VALIDATE_USAGE, validateCommand } from './validate.ts';
import { codeOf, messageOf } from '../thrown.ts';

export type { CliIo } from './io.ts';

const USAGE = `usage: mod97 <command> [options]   (mod97 <command> --help for more)
  validate IBAN...                 check IBANs, one line each
  batch FILE.csv [--column iban] [--bic-column NAME] [--out OUT.csv] [--resume|--force] [--dry-run]
                                   add validation columns to every row of a CSV file
  extract [FILE|-]                 find every IBAN in a text (an invoice, a scan), one line each
  qr --iban IBAN --name NAME ... [--out FILE.svg|png]
                                   the QR code of a payment (EPC or Swiss QR-bill)
  qr read FILE                     read a payment QR code from an image or a payload
  reference validate|create        check payment references (RF, QR, Belgian, FI, NO, SE), or make one
  keys generate|usage|rotate|claim get a free key, see its quota, rotate or claim it
  serve                            run the service (PORT, HOST, MOD97_DATABASE_URL, ...)
  mcp                              an MCP server on stdio that calls the service
  data import|update|list          load reference data into the service's database
  backup FILE                      a consistent copy of the SQLite database, while it serves
  migrate-to postgres://...        copy the SQLite database into PostgreSQL, counted per table
environment: MOD97_URL (default ${DEFAULT_URL}), MOD97_API_KEY (the key; never on the command line)`;

const SERVE_USAGE = `usage: mod97 serve
Runs the mod97 service in this process, configured by the environment (PORT, HOST,
MOD97_DATABASE_URL, MOD97_PUBLIC_URL, ... as in the README). Stops cleanly on SIGINT or SIGTERM.`;

const MCP_USAGE = `usage: mod97 mcp
An MCP server on stdin/stdout for agents. Each tool call goes to the service at MOD97_URL
(default ${DEFAULT_URL}) with the key in MOD97_API_KEY (without one: the no-key trial).`;

/** `ifk_` and hex: the shape of a key, also cut short (never put on the command line). */
const KEY_SHAPED = /ifk_[0-9a-f]{16,}/i;
const KEY_OPTION = /^--?(api[-_]?key|key)(=|$)/i;

const HELP = new Set(['--help', '-h', 'help']);

/** Runs one command line; returns the exit code (0 ok, 1 failed or invalid, 2 usage or service error, 3 payment needed). */
export async function runCli(argv: string[], env: Env, io: CliIo, now: () => number = Date.now): Promise<number> {
  const settings = readCliConfig(env);
  // Checked before anything else, so that nothing is sent; the message never repeats the argument.
  if (argv.some((a) => KEY_OPTION.test(a) || KEY_SHAPED.test(a))) {
    io.err(
      'error: a key was given on the command line. mod97 reads the key only from MOD97_API_KEY, so that it stays out of shell history and process lists. Nothing was sent.',
    );
    return EXIT.usage;
  }
  const [group, ...rest] = argv;
  try {
    if (!group) throw new UsageError('', USAGE);
    if (HELP.has(group)) {
      io.out(USAGE);
      return EXIT.ok;
    }
    switch (group) {
      case 'validate':
        return await validateCommand(rest, settings, io);
      case 'batch':
        return await batchCommand(rest, settings, io);
      case 'extract':
        return await extractCommand(rest, settings, io);
      case 'qr':
        return await qrCommand(rest, settings, io);
      case 'reference':
        return await referenceCommand(rest, settings, io);
      case 'keys':
        return await keysCommand(rest, settings, io);
      case 'data':
        return await dataCommand(rest, settings, io, now);
      case 'serve':
        return await serve(rest, io);
      case 'mcp':
        return await mcp(rest, settings, io);
      case 'backup':
        return await backupCommand(rest, settings, io);
      case 'migrate-to':
        return await migrateToCommand(rest, settings, io);
      default:
        throw new UsageError(`unknown command "${group}"${didYouMean(group, Object.keys(USAGES))}`, USAGE);
    }
  } catch (e) {
    if (e instanceof Refusal) {
      io.err(`error: ${e.message}`);
      return EXIT.usage;
    }
    const fileFault = fileFaultOf(e);
    if (fileFault) {
      io.err(`error: ${fileFault}`);
      return EXIT.usage;
    }
    const usage = e instanceof UsageError || String(codeOf(e) ?? '').startsWith('ERR_PARSE_ARGS');
    if (!usage) {
      io.err(`error: ${messageOf(e)}`);
      return EXIT.failed;
    }
    const message = shortParseError(e, group);
    // Nothing to complain about (a bare `mod97`, `mod97 keys`): the help itself; else one line that points to it.
    if (!message) io.err((e instanceof UsageError ? e.usage : undefined) ?? usageOf(group));
    else {
      // every command's own error points to its help (also one added later); an unknown command to the overview
      const command = !group || (e instanceof UsageError && e.usage === USAGE) ? '' : ` ${group}`;
      io.err(`error: ${message} (see mod97${command} --help)`);
    }
    return EXIT.usage;
  }
}

/**
 * node:util's parseArgs explains at length how to pass a value starting with '-'; one clause is
 * enough here. `e` is a UsageError or one of node's ERR_PARSE_ARGS errors; an unknown option is
 * matched against the options the command's usage names.
 */
function shortParseError(e: unknown, group: string | undefined): string {
  const code = codeOf(e);
  const message = messageOf(e);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'([^']+)'/.exec(message)?.[1] ?? '';
    const options = [...new Set(usageOf(group).match(/--[a-z][a-z-]*/g))];
    return `unknown option ${option}${didYouMean(option, options)}`.trim();
  }
  const missing = /^Option '(-\S+)(?:, (--\S+))? <value>' argument missing/.exec(message);
  if (missing) return `${missing[2] ?? missing[1]} needs a value`;
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL')
    return `unexpected argument ${/'([^']+)'/.exec(message)?.[1] ?? ''}`.trim();
  return message.split('\n')[0];
}

const USAGES: Record<string, string> = {
  validate: VALIDATE_USAGE,
  batch: BATCH_USAGE,
  extract: EXTRACT_USAGE,
  qr: QR_USAGE,
  reference: REFERENCE_USAGE,
  keys: KEYS_USAGE,
  data: DATA_USAGE,
  serve: SERVE_USAGE,
  mcp: MCP_USAGE,
  backup: BACKUP_USAGE,
  'migrate-to': MIGRATE_TO_USAGE,
};
const usageOf = (group: string | undefined): string => USAGES[group ?? ''] ?? USAGE;

async function serve(argv: string[], io: CliIo): Promise<number> {
  if (argv.some((a) => HELP.has(a))) {
    io.out(SERVE_USAGE);
    return EXIT.ok;
  }
  if (argv.length) throw new UsageError('serve takes no arguments', SERVE_USAGE);
  // server.ts listens and handles its own signals; the process lives as long as the server.
  await import('../server.ts');
  return EXIT.ok;
}

/** The stdio bridge is built separately (src/mcp/stdio.ts); a build without it says so. */
async function mcp(argv: string[], settings: CliConfig, io: CliIo): Promise<number> {
  if (argv.some((a) => HELP.has(a))) {
    io.out(MCP_USAGE);
    return EXIT.ok;
  }
  if (argv.length) throw new UsageError('mcp takes no arguments', MCP_USAGE);
  refuseUnsendableKey(settings.apiKey);
  // Loaded only here: the MCP SDK is not needed by the other commands. stdout is the MCP channel from here on.
  const { runStdioBridge } = await import('../mcp/stdio.ts');
  await runStdioBridge({ url: settings.serviceUrl ?? DEFAULT_URL, apiKey: settings.apiKey ?? undefined });
  return EXIT.ok;
}

/** A file a command was given that the system refused, in the words every command uses for it. */
function fileFaultOf(e: unknown): string | null {
  const why = fileFault(e);
  const path = e instanceof Error && 'path' in e && typeof e.path === 'string' ? e.path : null;
  return why && path ? `cannot use ${path}: ${why}` : null;
}
