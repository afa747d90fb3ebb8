/** The client's address: the socket peer, or X-Forwarded-For's nearest untrusted hop when the peer is a trusted proxy. */
export function clientIp(
  remoteAddress: string | undefined,
  forwardedFor: string | undefined,
  trustedProxies: readonly string[],
): string {
  const peer = normaliseIp(remoteAddress ?? '');
  if (!forwardedFor || !trustedProxies.includes(peer)) return peer;
  const hops = forwardedFor
    .split(',')
    .map((hop) => normaliseIp(hop.trim()))
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!trustedProxies.includes(hops[i])) return hops[i];
  }
  return hops[0] ?? peer;
}

function normaliseIp(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}
