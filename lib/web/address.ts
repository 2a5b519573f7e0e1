import { BlockList, isIP } from "node:net";

/**
 * Which addresses a request made on a user's behalf may reach: public unicast only. Everything a server can reach but
 * the public cannot — loopback, private networks, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT,
 * unique-local IPv6, multicast, unspecified and reserved ranges — is refused (SSRF). Ranges: RFC 6890's special-purpose
 * registries (IPv4 and IPv6); IPv4 embedded in IPv6 (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64
 * `64:ff9b::/96`, 6to4 `2002::/16`) is judged by the IPv4 address it carries.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network", unspecified
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["100::", 64], // discard-only
  ["2001::", 23], // IETF protocol assignments (Teredo etc.)
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique-local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
  ["3fff::", 20], // documentation (RFC 9637)
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}
/**
 * Public IPv6 unicast is 2000::/3 (IANA's IPv6 address space): everything else is reserved or special — the local-use
 * NAT64 prefix 64:ff9b:1::/48 (RFC 8215, which a local translator turns into private IPv4), the IPv4-translated
 * ::ffff:0:a.b.c.d (RFC 2765), SRv6 SIDs 5f00::/16, the dummy prefix 100:0:0:1::/64 — and refused with it.
 */
const globalUnicast = new BlockList();
globalUnicast.addSubnet("2000::", 3, "ipv6");

/** The 8 groups of an IPv6 address as numbers (handles `::` and a trailing dotted IPv4). */
function ipv6Groups(address: string): number[] | null {
  let a = address.toLowerCase();
  const zone = a.indexOf("%");
  if (zone >= 0) a = a.slice(0, zone);
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (dotted) {
    const parts = (dotted[1] as string).split(".").map(Number);
    const hex = `${(((parts[0] as number) << 8) | (parts[1] as number)).toString(16)}:${(((parts[2] as number) << 8) | (parts[3] as number)).toString(16)}`;
    a = a.slice(0, dotted.index) + hex;
  }
  const [head, tail] = a.split("::") as [string, string | undefined];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const fill = a.includes("::") ? 8 - h.length - t.length : 0;
  const groups = [...h, ...Array(fill).fill("0"), ...t].map((g) => Number.parseInt(g, 16));
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

function ipv4Of(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), or null. */
export function embeddedIpv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (!g) return null;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && (g[5] === 0xffff || g[5] === 0) && !(g[5] === 0 && g[6] === 0)) {
    return ipv4Of(g[6] as number, g[7] as number); // ::ffff:a.b.c.d, ::a.b.c.d
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return ipv4Of(g[6] as number, g[7] as number); // NAT64
  if (g[0] === 0x2002) return ipv4Of(g[1] as number, g[2] as number); // 6to4
  return null;
}

/** True when `address` (an IP literal) is a public unicast address a user's request may reach. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, "ipv4");
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4) return isPublicAddress(v4);
    const bare = address.split("%")[0] as string;
    return globalUnicast.check(bare, "ipv6") && !blocked.check(bare, "ipv6");
  }
  return false;
}
