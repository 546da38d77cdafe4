/**
 * A real SMTP server (smtp-server) on 127.0.0.1 that keeps every message it accepts, parsed
 * with mailparser. Point the service at it with `MOD97_SMTP_URL: smtp.url`.
 *
 *   const smtp = await startSmtp();
 *   after(() => smtp.stop());
 *   … POST /v1/keys/claim {email} …
 *   const code = await smtp.nextCode(email);
 */
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope recipients, lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  headers: Map<string, unknown>;
  raw: string;
}

export interface FailureMode {
  /** Where the server says no: to the recipient (RCPT TO) or after the message (DATA). */
  stage?: 'rcpt' | 'data';
  /** 4xx (try later) or 5xx (refused). */
  code?: number;
}

export interface TestSmtp {
  url: string;
  messages: ReceivedMail[];
  /** The oldest message to `to` not yet taken by nextMail/nextCode; waits for one if none. */
  nextMail(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** The 6-digit code on a line of its own in the next message's text body. */
  nextCode(to: string, timeoutMs?: number): Promise<string>;
  /** The server refuses the next `n` messages. */
  failNext(n?: number, mode?: FailureMode): void;
  stop(): Promise<void>;
}

const CODE_LINE = /^\s*(\d{6})\s*$/m;

export async function startSmtp(): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters: Array<{ to: string; deliver: (mail: ReceivedMail) => void }> = [];
  let failures = 0;
  let failure: Required<FailureMode> = { stage: 'rcpt', code: 451 };

  const refusal = (): Error =>
    Object.assign(new Error(failure.code >= 500 ? 'Mailbox unavailable' : 'Greylisted, come back in 5 minutes'), {
      responseCode: failure.code,
    });

  const isFor = (mail: ReceivedMail, to: string) => !taken.has(mail) && mail.to.includes(to.toLowerCase());

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (failures > 0 && failure.stage === 'rcpt') {
        failures--;
        return callback(refusal());
      }
      callback();
    },
    onData(stream, session, callback) {
      // The message is parsed and stored before the server says 250, so it is there
      // by the time the sender's call returns.
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then(
          (parsed) => {
            if (failures > 0 && failure.stage === 'data') {
              failures--;
              return callback(refusal());
            }
            const mail: ReceivedMail = {
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              subject: parsed.subject ?? '',
              text: parsed.text ?? '',
              headers: parsed.headers,
              raw: raw.toString('utf8'),
            };
            messages.push(mail);
            const waiter = waiters.find((w) => isFor(mail, w.to));
            if (waiter) {
              waiters.splice(waiters.indexOf(waiter), 1);
              taken.add(mail);
              waiter.deliver(mail);
            }
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  // A deadline, not a wait: the mail resolves the promise as it arrives. 15 s because a full
  // `npm test` on two busy cores once took longer than 5 s to mail a claim code.
  const nextMail = (to: string, timeoutMs = 15_000): Promise<ReceivedMail> => {
    const waiting = messages.find((m) => isFor(m, to));
    if (waiting) {
      taken.add(waiting);
      return Promise.resolve(waiting);
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        to,
        deliver: (mail: ReceivedMail) => {
          clearTimeout(timer);
          resolve(mail);
        },
      };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(`no mail to ${to} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.push(waiter);
    });
  };

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    nextMail,
    async nextCode(to, timeoutMs) {
      const mail = await nextMail(to, timeoutMs);
      const match = CODE_LINE.exec(mail.text);
      if (!match) throw new Error(`the mail to ${to} has no line holding just a 6-digit code:\n${mail.text}`);
      return match[1]!;
    },
    failNext(n = 1, mode = {}) {
      failures = n;
      failure = { stage: mode.stage ?? 'rcpt', code: mode.code ?? 451 };
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
