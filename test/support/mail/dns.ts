/**
 * A real DNS server (dns2, UDP) on 127.0.0.1 that answers MX questions from a small zone
 * table. Point the service at it with `MOD97_DNS_SERVERS: dns.server`.
 *
 *   const dns = await startDns();
 *   after(() => dns.stop());
 *   // claim with `someone@${MAIL_DOMAINS.deliverable}` → ok, `@${MAIL_DOMAINS.nullMx}` → 400 …
 */
import dns2 from 'dns2';

const { Packet } = dns2;
// RFC 1035 response codes (dns2 has them at run time as Packet.RCODE, but not in its types).
const SERVFAIL = 2;
const NXDOMAIN = 3;

export interface MxRecord {
  exchange: string;
  priority: number;
}

/** How the server answers for one name. Names not in the table get NXDOMAIN. */
export type Zone =
  | { mx: MxRecord[] } // `mx: []` is a name that exists but has no MX (NODATA)
  | 'silent' // never answers: the look-up times out
  | 'servfail';

/** RFC 7505: "this domain accepts no mail". */
export const NULL_MX: Zone = { mx: [{ exchange: '.', priority: 0 }] };

/** Domains that pass the syntax and throwaway checks, each with a different DNS answer. */
export const MAIL_DOMAINS = {
  deliverable: 'post.mod97-fixture.eu',
  nullMx: 'nullmx.mod97-fixture.eu',
  noMx: 'nomx.mod97-fixture.eu',
  nxdomain: 'nowhere.mod97-fixture.eu',
  silent: 'silent.mod97-fixture.eu',
  servfail: 'broken.mod97-fixture.eu',
} as const;

/** An address at the deliverable fixture domain. */
export const address = (name: string) => `${name}@${MAIL_DOMAINS.deliverable}`;

export const DEFAULT_ZONES: Record<string, Zone> = {
  [MAIL_DOMAINS.deliverable]: { mx: [{ exchange: `mx1.${MAIL_DOMAINS.deliverable}`, priority: 10 }] },
  [MAIL_DOMAINS.nullMx]: NULL_MX,
  [MAIL_DOMAINS.noMx]: { mx: [] },
  [MAIL_DOMAINS.silent]: 'silent',
  [MAIL_DOMAINS.servfail]: 'servfail',
};

export interface TestDns {
  /** `127.0.0.1:port`, the MOD97_DNS_SERVERS form. */
  server: string;
  /** Every question received, as `name TYPE` (lower-case name, no trailing dot). */
  queries: string[];
  stop(): Promise<void>;
}

export async function startDns(zones: Record<string, Zone> = DEFAULT_ZONES): Promise<TestDns> {
  const table = new Map(Object.entries(zones).map(([name, zone]) => [name.toLowerCase(), zone]));
  const typeName = new Map<number, string>(Object.entries(Packet.TYPE).map(([name, code]) => [code, name]));
  const queries: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      if (!question) return;
      const name = question.name.toLowerCase().replace(/\.$/, '');
      queries.push(`${name} ${typeName.get(question.type) ?? question.type}`);
      const zone = table.get(name);
      if (zone === 'silent') return;
      if (zone === undefined) response.header.rcode = NXDOMAIN;
      else if (zone === 'servfail') response.header.rcode = SERVFAIL;
      else if (question.type === Packet.TYPE.MX) {
        for (const mx of zone.mx) {
          // A plain record object is what dns2 encodes; its types wrongly ask for a toBuffer method.
          const record = { name: question.name, type: Packet.TYPE.MX, class: Packet.CLASS.IN, ttl: 60, ...mx };
          response.answers.push(record as typeof record & Pick<(typeof response.answers)[number], 'toBuffer'>);
        }
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return {
    server: `127.0.0.1:${addresses.udp!.port}`,
    queries,
    stop: () => server.close(),
  };
}
