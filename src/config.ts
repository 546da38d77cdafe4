/** Environment → one typed config object (README, "Configuration"). Every variable is optional. */
import { DomainError } from './errors.ts';

/** A SQLite file beside the working directory: a start with no settings works. */
export const DEFAULT_DATABASE_URL = 'sqlite:./data/mod97.db';

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string;
  smtpUrl: string | null;
  mailFrom: string;
  outboxDir: string;
  dnsServers: string[];
  mxCheck: boolean;
  trustProxy: string[];
  keyPepper: string | null;
  logLevel: string;
  env: Record<string, string | undefined>;
}

const list = (v: string | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function readConfig(given: Record<string, string | undefined> = process.env): Config {
  // An empty (or blank) variable counts as unset, for every variable, here and for the modules
  // that read `config.env`: `PORT=` must not listen on a random port (Number('') is 0).
  const env = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined && v.trim() !== ''));
  const port = Number(env.PORT ?? 3000);
  if (!/^\s*\d+\s*$/.test(env.PORT ?? '3000') || port > 65535) {
    throw new DomainError('invalid_config', `PORT must be a port number, got "${env.PORT}"`);
  }
  const mx = (env.MOD97_MX_CHECK ?? 'on').trim().toLowerCase();
  if (mx !== 'on' && mx !== 'off') {
    throw new DomainError('invalid_config', 'MOD97_MX_CHECK must be "on" or "off"');
  }
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    publicUrl: (env.MOD97_PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl: env.MOD97_DATABASE_URL ?? DEFAULT_DATABASE_URL,
    smtpUrl: env.MOD97_SMTP_URL ?? null,
    mailFrom: env.MOD97_MAIL_FROM ?? 'mod97 <no-reply@localhost>',
    outboxDir: env.MOD97_OUTBOX_DIR ?? './data/outbox',
    dnsServers: list(env.MOD97_DNS_SERVERS),
    mxCheck: mx === 'on',
    trustProxy: list(env.MOD97_TRUST_PROXY),
    keyPepper: env.MOD97_KEY_PEPPER ?? null,
    logLevel: env.MOD97_LOG_LEVEL ?? 'info',
    env,
  };
}
