// The client's address behind load balancers and reverse proxies (README "Running in production"). The sign-in and
// registration limits count per address: behind a proxy every connection comes from the proxy, so its
// `X-Forwarded-For` is believed — but only from the proxies the operator names (TRUSTED_PROXIES), since anyone else
// could write any address there and escape the limits.
import { BlockList, isIP } from "node:net";
import { LRUCache } from "lru-cache";

/** `10.0.0.7`, `10.0.0.0/8`, `fd00::/8`: what TRUSTED_PROXIES lists. Answers null for an entry that is neither. */
export function parseProxyEntry(entry: string): { address: string; prefix: number | null } | null {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (!family || rest.length > 0) return null;
  if (prefix === undefined) return { address, prefix: null };
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128) ? { address, prefix: bits } : null;
}

export type TrustedProxies = (address: string) => boolean;

/** Answers whether an address is one of `entries` (addresses or subnets, already checked by `parseProxyEntry`). */
export function trustedProxies(entries: string[]): TrustedProxies {
  if (entries.length === 0) return () => false;
  const list = new BlockList();
  for (const entry of entries) {
    const parsed = parseProxyEntry(entry);
    if (!parsed) continue;
    const family = isIP(parsed.address) === 4 ? "ipv4" : "ipv6";
    if (parsed.prefix === null) list.addAddress(parsed.address, family);
    else list.addSubnet(parsed.address, parsed.prefix, family);
  }
  // Asked on every request, mostly about the same few addresses (the proxies'), and BlockList's check builds an
  // address object each time: the answers are remembered, a bounded number since anyone may write any address.
  const known = new LRUCache<string, boolean>({ max: 10_000 });
  return (address) => {
    let isTrusted = known.get(address);
    if (isTrusted === undefined) {
      const plain = unmapped(address);
      const family = isIP(plain);
      isTrusted = family !== 0 && list.check(plain, family === 4 ? "ipv4" : "ipv6");
      known.set(address, isTrusted);
    }
    return isTrusted;
  };
}

/**
 * The client's address: the connection's, or — when the connection comes from a trusted proxy — the last address in
 * `X-Forwarded-For` that is not itself a trusted proxy (each proxy appends the address it received from, so the
 * entries left of the first untrusted one may be anything the client wrote).
 */
export function clientAddress(remoteAddress: string, forwardedFor: string | undefined, isTrusted: TrustedProxies) {
  let address = unmapped(remoteAddress);
  const hops = (forwardedFor ?? "").split(",").map((hop) => hop.trim());
  while (isTrusted(address) && hops.length > 0) {
    const next = unmapped(hops.pop() ?? "");
    if (!isIP(next)) break;
    address = next;
  }
  return address;
}

/** `::ffff:10.0.0.1` (an IPv4 client of a dual-stack socket) as `10.0.0.1`. */
const unmapped = (address: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address);
