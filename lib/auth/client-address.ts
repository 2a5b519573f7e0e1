/**
 * The address of the client a sign-in counts against, from the headers the reverse proxy in front of Lectern sets.
 * `X-Forwarded-For` is a list each proxy appends to (nginx's `$proxy_add_x_forwarded_for`, Caddy's default), so only
 * its right-most entry was written by our proxy; everything left of it is whatever the client sent, and trusting the
 * left-most entry let anyone pick a fresh address for every guess. Without the header, `X-Real-IP`; else none.
 */
export function clientAddressFrom(forwardedFor: string | null, realIp: string | null): string | undefined {
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  const address = hops[hops.length - 1] ?? realIp?.trim();
  // (an address, not arbitrary text: it becomes part of a rate-limit key)
  return address && /^[0-9A-Fa-f.:[\]%\w-]{1,64}$/.test(address) ? address : undefined;
}
