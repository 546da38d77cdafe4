/**
 * Environment → one typed, frozen config object (README, "Configuration"), read once at start:
 * no other module reads the environment. Every variable is optional.
 */
import { isIP } from 'node:net';
import { DomainError } from './errors.ts';
import { readStripeConfig, type StripeSettings } from './payments/stripe/config.ts';

/** A SQLite file beside the working directory: a start with no settings works. */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/mod97.db';

export type Env = Readonly<Record<string, string | undefined>>;

/** `MOD97_DATA_URL_<KIND>` variable → the URLs it lists; a kind not named here uses its publisher's. */
export type DataUrls = Readonly<Record<string, readonly string[]>>;

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  /** Whether MOD97_PUBLIC_URL was given: the start warns when `publicUrl` is only the default. */
  readonly publicUrlSet: boolean;
  readonly databaseUrl: string;
  readonly smtpUrl: string | null;
  readonly mailFrom: string;
  readonly outboxDir: string;
  readonly dnsServers: readonly string[];
  readonly mxCheck: boolean;
  readonly trustProxy: readonly string[];
  readonly keyPepper: string | null;
  readonly logLevel: string;
  /** The bearer token /metrics asks for; null leaves it open to loopback only. */
  readonly metricsToken: string | null;
  /** MOD97_DATA_REFRESH: `daily` runs `mod97 data update` inside the service once a day. */
  readonly dataRefresh: 'daily' | 'off';
  readonly dataUrls: DataUrls;
  /** The card rail; null unless STRIPE_SECRET_KEY is set. */
  readonly stripe: StripeSettings | null;
  /**
   * The MOD97_X402_* variables when MOD97_X402_FACILITATOR_URL is set, else null. They are checked
   * by payments/x402/config.ts once the rail's SDK is loaded: reading them needs its token table,
   * and a service whose rail is off never loads it.
   */
  readonly x402: Env | null;
}

/** What the `mod97` command reads (README, "Client and command line"). */
export interface CliConfig {
  /** MOD97_URL; null means the default address. */
  readonly serviceUrl: string | null;
  readonly apiKey: string | null;
  readonly databaseUrl: string;
  readonly dataUrls: DataUrls;
}

const list = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * An empty (or blank) variable counts as unset, for every variable: `PORT=` must not listen on a
 * random port (Number('') is 0).
 */
const setOnly = (given: Env): Record<string, string> =>
  Object.fromEntries(
    Object.entries(given).filter(
      (entry): entry is [string, string] => entry[1] !== undefined && entry[1].trim() !== '',
    ),
  );

const DATA_URL = /^MOD97_DATA_URL_/;

const dataUrls = (env: Record<string, string>): DataUrls =>
  Object.freeze(
    Object.fromEntries(Object.entries(env).flatMap(([name, v]) => (DATA_URL.test(name) ? [[name, list(v)]] : []))),
  );

function dataRefresh(value: string | undefined): Config['dataRefresh'] {
  const mode = (value ?? 'off').trim().toLowerCase();
  if (mode !== 'daily' && mode !== 'off')
    throw new DomainError('invalid_config', `MOD97_DATA_REFRESH must be "daily" or "off", got "${mode}"`);
  return mode;
}

/**
 * A payment rail set by half starts nothing and says nothing: the operator believes it is on.
 * Each pair below is either wholly set or wholly unset; one half alone stops the start naming the
 * other. (The rest of each rail's variables are checked by its own config reader.)
 */
const RAIL_HALVES = [
  ['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'the card rail (Stripe)'],
  ['MOD97_X402_FACILITATOR_URL', 'MOD97_X402_PAY_TO', 'the x402 rail'],
] as const;

function refuseHalfRails(env: Record<string, string>): void {
  for (const [a, b, rail] of RAIL_HALVES) {
    const missing = env[a] === undefined ? a : env[b] === undefined ? b : null;
    const given = missing === a ? b : a;
    if (missing !== null && env[given] !== undefined)
      throw new DomainError(
        'invalid_config',
        `${given} is set but ${missing} is not: ${rail} needs both. Set ${missing}, or unset ${given} to leave the rail off.`,
      );
  }
  // Any other variable of a rail that is off would be ignored without a word.
  for (const [isOfRail, [a, b, rail]] of RAIL_VARIABLES) {
    const stray = Object.keys(env).find(isOfRail);
    if (stray !== undefined && env[a] === undefined)
      throw new DomainError(
        'invalid_config',
        `${stray} is set but ${a} is not: ${rail} needs ${a} and ${b}. Set them, or unset ${stray}.`,
      );
  }
}

/** The other variables each rail reads (Stripe's own tools have STRIPE_ variables mod97 does not read). */
const RAIL_VARIABLES: readonly [(name: string) => boolean, readonly [string, string, string]][] = [
  [(name) => name.startsWith('STRIPE_PRICE_') || name === 'STRIPE_API_BASE', RAIL_HALVES[0]],
  [(name) => name.startsWith('MOD97_X402_'), RAIL_HALVES[1]],
];

/** The address the service is reached at, as links and CORS name it: an http(s) URL. */
function publicUrl(value: string | undefined, port: number): string {
  if (value === undefined) return `http://localhost:${port}`;
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    // said below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new DomainError(
      'invalid_config',
      `MOD97_PUBLIC_URL must be the http(s) address clients reach the service at, such as https://iban.example.com; got "${value}"`,
    );
  return value.replace(/\/+$/, '');
}

/**
 * MOD97_TRUST_PROXY: addresses and CIDR ranges, comma-separated. One that is neither stops the
 * start naming it (src/http/network.ts reads them).
 */
function trustProxy(value: string | undefined): readonly string[] {
  const entries = list(value);
  for (const entry of entries) {
    const fault = proxyEntryFault(entry);
    if (fault)
      throw new DomainError(
        'invalid_config',
        `MOD97_TRUST_PROXY: "${entry}" ${fault}; give the proxies' addresses or CIDR ranges, comma-separated, such as 127.0.0.1,10.0.0.0/8`,
      );
  }
  return Object.freeze(entries);
}

function proxyEntryFault(entry: string): string | null {
  const [address = '', bits, ...more] = entry.split('/');
  // an address as the proxy writes it: with a zone, or in brackets with a port
  const bare = address.replace(/^\[([^\]]*)\](?::\d+)?$|^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1$2').replace(/%.*$/, '');
  const kind = isIP(bits === undefined ? bare : address);
  if (kind === 0 || more.length > 0) return 'is not an IP address or CIDR range';
  if (bits === undefined) return null;
  const most = kind === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > most) return `has a prefix length other than 0 to ${most}`;
  return null;
}

/** MOD97_DATABASE_URL: `sqlite:` must name a file (its folder, file and contents are checked as it opens). */
function databaseUrl(value: string | undefined): string {
  if (value === undefined) return DEFAULT_DATABASE_URL;
  if (/^sqlite:\s*$/.test(value))
    throw new DomainError(
      'invalid_config',
      `MOD97_DATABASE_URL is "${value}", which names no file: give sqlite:PATH (such as sqlite:/var/lib/mod97/mod97.db), sqlite::memory: or a postgres:// URL`,
    );
  return value;
}

/**
 * MOD97_MAIL_FROM: one address, `no-reply@example.com` or `Name <no-reply@example.com>` (a name
 * with a comma in quotes). Anything else would go out as an empty envelope sender and no From.
 */
function mailFrom(value: string | undefined): string {
  if (value === undefined) return 'mod97 <no-reply@localhost>';
  const form = /^\s*(?:("[^"]*"|[^"<>,;]*?)\s*<([^<>]*)>|([^<>]*))\s*$/.exec(value);
  const address = form?.[2] ?? form?.[3] ?? '';
  if (!/^[^\s@",;:<>()[\]\\]+@[^\s@",;:<>()[\]\\]+$/.test(address.trim()))
    throw new DomainError(
      'invalid_config',
      `MOD97_MAIL_FROM must be one e-mail address, as no-reply@example.com or "mod97 <no-reply@example.com>"; got "${value}"`,
    );
  return value;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevel(value: string | undefined): string {
  if (value === undefined) return 'info';
  if (!LOG_LEVELS.includes(value))
    throw new DomainError('invalid_config', `MOD97_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${value}"`);
  return value;
}

/** The fewest bytes a pepper may have: a short one can be guessed along with the keys. */
export const MIN_PEPPER_BYTES = 32;

function keyPepper(value: string | undefined): string | null {
  if (value === undefined) return null;
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes < MIN_PEPPER_BYTES)
    throw new DomainError(
      'invalid_config',
      `MOD97_KEY_PEPPER is ${bytes} bytes long; it must be at least ${MIN_PEPPER_BYTES} (e.g. the output of \`openssl rand -hex 32\`). An existing install must keep the pepper its keys were made with: see docs/operations.md, "The pepper".`,
    );
  return value;
}

const x402Variables = (env: Record<string, string>): Env | null =>
  env.MOD97_X402_FACILITATOR_URL === undefined
    ? null
    : Object.freeze(Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('MOD97_X402_'))));

export function readConfig(given: Env = process.env): Config {
  const env = setOnly(given);
  const port = Number(env.PORT ?? 3000);
  if (!/^\s*\d+\s*$/.test(env.PORT ?? '3000') || port > 65535) {
    throw new DomainError('invalid_config', `PORT must be a port number, got "${env.PORT}"`);
  }
  refuseHalfRails(env);
  const mx = (env.MOD97_MX_CHECK ?? 'on').trim().toLowerCase();
  if (mx !== 'on' && mx !== 'off') {
    throw new DomainError('invalid_config', 'MOD97_MX_CHECK must be "on" or "off"');
  }
  return Object.freeze({
    port,
    host: env.HOST ?? '127.0.0.1',
    publicUrl: publicUrl(env.MOD97_PUBLIC_URL, port),
    publicUrlSet: env.MOD97_PUBLIC_URL !== undefined,
    databaseUrl: databaseUrl(env.MOD97_DATABASE_URL),
    smtpUrl: env.MOD97_SMTP_URL ?? null,
    mailFrom: mailFrom(env.MOD97_MAIL_FROM),
    outboxDir: env.MOD97_OUTBOX_DIR ?? './data/outbox',
    dnsServers: Object.freeze(list(env.MOD97_DNS_SERVERS)),
    mxCheck: mx === 'on',
    trustProxy: trustProxy(env.MOD97_TRUST_PROXY),
    keyPepper: keyPepper(env.MOD97_KEY_PEPPER),
    logLevel: logLevel(env.MOD97_LOG_LEVEL),
    metricsToken: env.MOD97_METRICS_TOKEN ?? null,
    dataRefresh: dataRefresh(env.MOD97_DATA_REFRESH),
    dataUrls: dataUrls(env),
    stripe: readStripeConfig(env),
    x402: x402Variables(env),
  });
}

/**
 * The key as the clients send it: without the spaces, tabs and line breaks around it (the newline
 * a `.env` file or `$(cat key.txt)` leaves). One of nothing but spaces stays as it is, for the
 * command to refuse by name (src/cli/io.ts).
 */
function keyWithoutSurroundings(value: string | undefined): string | null {
  if (value === undefined) return null;
  return value.trim() === '' ? value : value.trim();
}

export function readCliConfig(given: Env): CliConfig {
  const env = setOnly(given);
  return Object.freeze({
    serviceUrl: env.MOD97_URL ?? null,
    apiKey: keyWithoutSurroundings(env.MOD97_API_KEY),
    databaseUrl: env.MOD97_DATABASE_URL ?? DEFAULT_DATABASE_URL,
    dataUrls: dataUrls(env),
  });
}
