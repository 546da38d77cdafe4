/**
 * Sends the mailbox-verification code: over SMTP when MOD97_SMTP_URL is set, otherwise as
 * one .eml file a message in the outbox folder (README, "Configuration"; docs/api.md, "Mailbox verification").
 *
 * The code appears in the message body only: never in the subject (subjects end up in
 * previews and logs), never in a log line, never in an error.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import { DomainError } from '../errors.ts';
import type { MailLog } from './log.ts';

type CodePurpose = 'generate' | 'claim';

interface CodeMeta {
  /** Names the key on a claim. */
  keyPrefix?: string;
  expiresInMinutes: number;
}

export interface Mailer {
  /** Resolves once the message is handed over; throws DomainError('verification_unavailable') otherwise. */
  sendCode(to: string, code: string, purpose: CodePurpose, meta: CodeMeta): Promise<void>;
  close(): void;
}

interface MailerConfig {
  /** `smtp://host:port` or `smtps://user:pass@host:port`; absent or null: the outbox. */
  smtpUrl?: string | null;
  from: string;
  outboxDir: string;
  /** Socket inactivity limit; connecting and the greeting get half of it. Default 10 s. */
  timeoutMs?: number;
}

const SUBJECT = 'Your mod97 verification code';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Short lines, so that the message reads well even as a raw .eml file. */
function codeMessageText(code: string, purpose: CodePurpose, meta: CodeMeta): string {
  const unlocks =
    purpose === 'generate'
      ? ['It lets you create a mod97 API key of the email tier', '(200 requests a month) for this address.']
      : [
          `It lets you claim the mod97 API key with prefix ${meta.keyPrefix ?? '(unknown)'},`,
          'which raises it to 200 requests a month.',
        ];
  return [
    'Your mod97 verification code is:',
    '',
    code,
    '',
    ...unlocks,
    `It is valid for ${meta.expiresInMinutes} minutes.`,
    '',
    'On the mod97 web pages: type it in the "Code" field of the page',
    `you asked from (${purpose === 'generate' ? '"Get a free key", /keys/new' : '"Claim your key", /claim'}).`,
    'From your code or the command line: send it, with the same address,',
    `in the "code" field (mod97 keys ${purpose === 'generate' ? 'generate' : 'claim'} --email ADDRESS --code CODE).`,
    '',
    'If you did not ask for this code, ignore this message:',
    'nothing happens without it.',
    '',
  ].join('\n');
}

function unavailable(): DomainError {
  return new DomainError(
    'verification_unavailable',
    'The verification mail could not be sent; please try again later.',
  );
}

function checkSmtpUrl(smtpUrl: string): URL {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new DomainError('invalid_config', 'MOD97_SMTP_URL is not a URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new DomainError('invalid_config', 'MOD97_SMTP_URL must start with smtp:// or smtps://');
  }
  return url;
}

export function createMailer(config: MailerConfig, log: MailLog): Mailer {
  const timeoutMs = config.timeoutMs ?? 10_000;
  // A bad URL stops the start-up; nodemailer itself is loaded on the first mail, since most
  // processes never send one and it adds to every start.
  const { smtpUrl } = config;
  const smtp = smtpUrl ? checkSmtpUrl(smtpUrl) : null;
  let transport: Transporter | null = null;
  const transportNow = async (): Promise<Transporter> => {
    if (transport) return transport;
    const { default: nodemailer } = await import('nodemailer');
    transport =
      smtp && smtpUrl // the one implies the other
        ? nodemailer.createTransport({
            url: smtpUrl,
            connectionTimeout: timeoutMs / 2,
            greetingTimeout: timeoutMs / 2,
            socketTimeout: timeoutMs,
            // Plain SMTP to this machine never leaves it; elsewhere STARTTLS is used when offered.
            ignoreTLS: smtp.protocol === 'smtp:' && LOOPBACK.has(smtp.hostname),
            // nodemailer's own logger could print the message, and with it the code.
            logger: false,
            debug: false,
          })
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows', logger: false });
    return transport;
  };

  const writeToOutbox = async (to: string, message: Buffer): Promise<void> => {
    await mkdir(config.outboxDir, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
    const file = join(config.outboxDir, name);
    // Written under a temporary name first, so that whoever watches the folder never reads half a message.
    await writeFile(`${file}.part`, message, { mode: 0o600 });
    await rename(`${file}.part`, file);
    log.info({ to, file }, 'verification mail written to the outbox');
  };

  return {
    async sendCode(to, code, purpose, meta) {
      try {
        const info = await (await transportNow()).sendMail({
          from: config.from,
          // An address object, not a string: a string is parsed as a list of recipients.
          to: { name: '', address: to },
          subject: SUBJECT,
          text: codeMessageText(code, purpose, meta),
          headers: { 'Auto-Submitted': 'auto-generated' },
        });
        if (config.smtpUrl) log.info({ to, messageId: info.messageId }, 'verification mail sent');
        else await writeToOutbox(to, info.message);
      } catch (err) {
        const e: { code?: unknown; responseCode?: unknown; command?: unknown } =
          typeof err === 'object' && err !== null ? err : {};
        // Only the error's kind: its text may quote the server, or in the outbox case a path.
        log.warn(
          { to, mailError: e.code, responseCode: e.responseCode, command: e.command },
          'verification mail could not be sent',
        );
        throw unavailable();
      }
    },
    close() {
      transport?.close();
    },
  };
}
