/**
 * The caller's network (docs/api.md, "Conventions": network): the socket peer unless it is a trusted
 * proxy, then the right-most X-Forwarded-For hop that is not. IPv4 as is, IPv6 by its /64,
 * IPv4-mapped IPv6 folded to IPv4. A hop written with its port is read as its address.
 */
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Parsed = ipaddr.IPv4 | ipaddr.IPv6;

const isIPv6 = (ip: Parsed): ip is ipaddr.IPv6 => ip.kind() === 'ipv6';

/** IPv4-mapped IPv6 (::ffff:a.b.c.d) as the IPv4 address it carries. */
const unmapped = (ip: Parsed): Parsed => (isIPv6(ip) && ip.isIPv4MappedAddress() ? ip.toIPv4Address() : ip);

// `[2001:db8::1]:443` and `198.51.100.9:5555`: proxies may write a hop with its port.
const WITH_PORT = /^\[([^\]]*)\](?::\d+)?$|^(\d+\.\d+\.\d+\.\d+):\d+$/;

function parse(address: string): Parsed | null {
  let bare = address.trim();
  const withPort = bare.includes(':') ? WITH_PORT.exec(bare) : null;
  if (withPort) bare = withPort[1] ?? withPort[2];
  bare = bare.replace(/%.*$/, '');
  // node's own check first: ipaddr.isValid throws and catches inside for every address it
  // refuses (an empty or forged X-Forwarded-For hop), which costs far more than this check.
  if (isIP(bare) === 0) return null;
  const ip = ipaddr.parse(bare);
  return unmapped(ip);
}

/** The per-network identity every per-network limit counts by. */
export function networkOf(ip: Parsed): string {
  if (!isIPv6(ip)) return ip.toString();
  const parts = ip.parts.slice(0, 4).concat([0, 0, 0, 0]);
  return `${new ipaddr.IPv6(parts).toString()}/64`;
}

/** The peer of a connection: its network, and whether it is a trusted proxy. */
interface Peer {
  network: string;
  proxy: boolean;
}

/** The caller's network from the socket's peer address and X-Forwarded-For; `connection` (the socket) lets the peer be judged once per connection. */
export type NetworkResolver = (
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  connection: object,
) => string;

/**
 * `onUntrustedForward` is told, once per process, of an X-Forwarded-For from a peer that is not a
 * trusted proxy: behind a proxy left out of MOD97_TRUST_PROXY, every caller counts as the proxy's
 * one network (one trial, one keys-a-day limit for all), which nothing else would show.
 */
export function createNetworkResolver(
  trustProxy: readonly string[],
  onUntrustedForward: (peer: string) => void = () => {},
): NetworkResolver {
  let warned = false;
  const trusted = trustProxy.map((entry) => {
    if (entry.includes('/')) {
      const [range, bits] = ipaddr.parseCIDR(entry);
      return { range: unmapped(range), bits };
    }
    const ip = parse(entry);
    if (!ip) throw new Error(`MOD97_TRUST_PROXY: "${entry}" is not an address or CIDR`);
    return { range: ip, bits: ip.kind() === 'ipv4' ? 32 : 128 };
  });
  const isTrusted = (ip: Parsed) => trusted.some((t) => t.range.kind() === ip.kind() && ip.match(t.range, t.bits));

  const peerOf = (peer: string): Peer => {
    const ip = parse(peer) ?? ipaddr.parse('0.0.0.0');
    // A trusted proxy's X-Forwarded-For names the caller.
    return { network: networkOf(ip), proxy: trusted.length > 0 && isTrusted(ip) };
  };

  // A connection's peer never changes: it is judged once per connection, not once per request.
  const byConnection = new WeakMap<object, Peer>();
  const peerOn = (peer: string | undefined, connection: object): Peer => {
    let known = byConnection.get(connection);
    if (!known) byConnection.set(connection, (known = peerOf(peer ?? '')));
    return known;
  };

  return (peer, forwardedFor, connection) => {
    const known = peerOn(peer, connection);
    if (forwardedFor === undefined) return known.network;
    if (!known.proxy) {
      if (!warned) {
        warned = true;
        onUntrustedForward(peer ?? '');
      }
      return known.network;
    }
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = parse(hops[i]);
      if (!hop) break;
      if (!isTrusted(hop)) return networkOf(hop);
    }
    return known.network;
  };
}
