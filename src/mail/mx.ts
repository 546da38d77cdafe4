/**
 * The claim-time MX look-up (docs/api.md, "POST /v1/keys/claim"). Only a definite answer refuses an
 * address: no MX, a null MX (RFC 7505) or a name that does not exist. A DNS server that
 * fails or does not answer in time must not lock people out, so that is `unknown`.
 */
import { Resolver } from 'node:dns/promises';
import { DomainError } from '../errors.ts';
import type { MailLog } from './log.ts';
import { messageOf, codeOf } from '../thrown.ts';

type MxVerdict = 'ok' | 'undeliverable' | 'unknown';

export interface MxChecker {
  check(domain: string): Promise<MxVerdict>;
}

interface MxOptions {
  /** `ip` or `ip:port` (`[v6]:port`), as in MOD97_DNS_SERVERS; empty or absent: the system resolver. */
  servers?: readonly string[];
  /** MOD97_MX_CHECK; off answers `ok` without asking DNS. */
  enabled: boolean;
  /** Budget of one whole look-up, whatever the number of servers. */
  timeoutMs?: number;
}

const DEFINITE_NO = new Set(['ENODATA', 'ENOTFOUND']);

export function createMxChecker(opts: MxOptions, log: MailLog): MxChecker {
  if (!opts.enabled) return { check: async () => 'ok' };
  const timeoutMs = opts.timeoutMs ?? 3000;
  const servers = opts.servers ?? [];

  // One resolver per look-up: cancelling a late query must not cancel someone else's.
  const newResolver = (): Resolver => {
    const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
    if (servers.length > 0) resolver.setServers(servers);
    return resolver;
  };
  try {
    newResolver();
  } catch (err) {
    throw new DomainError(
      'invalid_config',
      `MOD97_DNS_SERVERS must be a comma list of ip or ip:port (${messageOf(err)})`,
    );
  }

  return {
    async check(domain) {
      const resolver = newResolver();
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          reject(Object.assign(new Error('MX look-up timed out'), { code: 'ETIMEOUT' }));
          resolver.cancel();
        }, timeoutMs);
      });
      try {
        // The trailing dot makes the name absolute, so no resolv.conf search suffix is tried.
        const records = await Promise.race([resolver.resolveMx(`${domain}.`), deadline]);
        // A null MX is the single record `0 .`, which node reports with an empty exchange.
        return records.some((r) => r.exchange !== '' && r.exchange !== '.') ? 'ok' : 'undeliverable';
      } catch (err) {
        const found = codeOf(err); // node's DNS errors carry a string code
        const code = typeof found === 'string' ? found : 'unknown';
        if (DEFINITE_NO.has(code)) return 'undeliverable';
        log.warn({ domain, dnsError: code }, 'MX look-up failed; the address is accepted without it');
        return 'unknown';
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
