/**
 * The real service wired to a real SMTP server and a real DNS server, both on 127.0.0.1:
 *
 *   const { svc, smtp } = await startMailService();
 *   await svc.call('/v1/keys/claim', { key, json: { email } });
 *   const code = await smtp.nextCode(email);
 */
import { startService, type TestClock, type TestService } from '../app.ts';
import type { Reply } from '../http.ts';
import { startDns, type TestDns } from './dns.ts';
import { startSmtp, type TestSmtp } from './smtp.ts';

export interface MailService {
  svc: TestService;
  smtp: TestSmtp;
  dns: TestDns;
}

export async function startMailService(
  opts: { env?: Record<string, string>; clock?: TestClock; databaseUrl?: string } = {},
): Promise<MailService> {
  const smtp = await startSmtp();
  const dns = await startDns();
  const svc = await startService({
    ...opts,
    env: { MOD97_SMTP_URL: smtp.url, MOD97_DNS_SERVERS: dns.server, ...opts.env },
  });
  const close = svc.close.bind(svc);
  let stopped = false;
  svc.close = async () => {
    await close();
    if (stopped) return;
    stopped = true;
    await smtp.stop();
    await dns.stop();
  };
  return { svc, smtp, dns };
}

/**
 * The mailed-code claim: asks for a code, reads it from the SMTP server, sends it back.
 * Returns both answers (202 code_sent, then 200 on success).
 */
export async function claimByCode(
  { svc, smtp }: Pick<MailService, 'svc' | 'smtp'>,
  key: string,
  email: string,
  from: string,
): Promise<{ sent: Reply; claimed: Reply }> {
  const sent = await svc.call('/v1/keys/claim', { key, json: { email }, from });
  const claimed = await svc.call('/v1/keys/claim', { key, json: { email, code: await smtp.nextCode(email) }, from });
  return { sent, claimed };
}

/** A key that has served one call, so that it can be claimed. */
export async function usedKey(svc: TestService, from: string): Promise<string> {
  const key = await svc.newKey(from);
  const r = await svc.call('/v1/iban/validate', { key, json: { iban: 'DE89 3704 0044 0532 0130 00' }, from });
  if (r.status !== 200) throw new Error(`validate answered ${r.status}: ${r.text}`);
  return key;
}
