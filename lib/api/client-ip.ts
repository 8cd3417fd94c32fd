import { cidrContains, formatIp, parseCidr, parseIp, type CidrRange } from "@/lib/domain/net/ip";
import { log } from "@/lib/log";
import type { HeaderReader } from "./api-request";

/**
 * The header in which the gateway's own HTTP server passes the socket's peer address to
 * route handlers. The server deletes any value a client sent, so it can be believed.
 */
export const PEER_ADDRESS_HEADER = "x-gateway-peer-address";
/**
 * Proves the peer header was set by this process's own server (lib/runtime/start.ts), not by
 * a client talking to a bare `next start`: the server sets it to a per-process random value.
 */
export const PEER_TOKEN_HEADER = "x-gateway-peer-token";
export const PEER_TOKEN_ENV = "GATEWAY_PEER_TOKEN";

/** The socket peer address the gateway's server vouched for, or null. */
export function vouchedPeerAddress(headers: HeaderReader, expectedToken: string | undefined): string | null {
  if (!expectedToken || headers.get(PEER_TOKEN_HEADER) !== expectedToken) return null;
  return headers.get(PEER_ADDRESS_HEADER);
}

/**
 * The caller's address: the socket peer, or — when the peer is a trusted reverse proxy —
 * the right-most X-Forwarded-For entry that is not itself a trusted proxy.
 */
export function resolveClientIp(peerAddress: string | null, forwardedFor: string | null, trustedProxies: readonly CidrRange[]): string {
  if (!peerAddress) return "";
  if (!forwardedFor || trustedProxies.length === 0) return canonicalPeerAddress(peerAddress);
  const peer = parseIp(peerAddress);
  if (!peer) return "";
  const isTrusted = (text: string) => {
    const address = parseIp(text);
    return address !== null && trustedProxies.some((range) => cidrContains(range, address));
  };
  if (!forwardedFor || !trustedProxies.some((range) => cidrContains(range, peer))) return formatIp(peer);
  const hops = forwardedFor.split(",").map((hop) => hop.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isTrusted(hops[i])) {
      const address = parseIp(hops[i]);
      return address ? formatIp(address) : "";
    }
  }
  return formatIp(peer);
}

/** Canonical forms of recent peer addresses ("" for none): a client sends many requests from one. */
const canonicalPeers = new Map<string, string>();
const CANONICAL_PEERS_LIMIT = 1_000;

function canonicalPeerAddress(peerAddress: string): string {
  let canonical = canonicalPeers.get(peerAddress);
  if (canonical === undefined) {
    const peer = parseIp(peerAddress);
    canonical = peer ? formatIp(peer) : "";
    // Dropped all at once when full: cheaper than tracking age, and refilled by the next requests.
    if (canonicalPeers.size >= CANONICAL_PEERS_LIMIT) canonicalPeers.clear();
    canonicalPeers.set(peerAddress, canonical);
  }
  return canonical;
}

/** How the caller's address is found in this deployment (ApiDeps). */
export interface ClientAddressRules {
  /** Reverse proxies in front of `npm start` whose X-Forwarded-For is believed. */
  trustedProxies: readonly CidrRange[];
  /**
   * A header the platform's edge sets to the client's address, replacing any value the client
   * sent (`x-real-ip` on Vercel): believed only where no server of ours vouches for the peer,
   * because behind `npm start` a client could send it.
   */
  platformHeader: string | null;
}

/**
 * The caller's address by the deployment's rules: the peer vouched for by `npm start`'s server
 * (and trusted proxies' X-Forwarded-For), else the platform's header, else unknown ("").
 */
export function clientAddressOf(headers: HeaderReader, rules: ClientAddressRules, peerToken = process.env[PEER_TOKEN_ENV]): string {
  const peer = vouchedPeerAddress(headers, peerToken);
  if (peer !== null) {
    const forwardedFor = headers.get("x-forwarded-for");
    if (forwardedFor) warnOfUnlistedProxy(peer, rules.trustedProxies);
    return resolveClientIp(peer, forwardedFor, rules.trustedProxies);
  }
  if (!rules.platformHeader) {
    warnOnce("unknown", "client addresses are unknown: no server of this service vouches for the peer and GATEWAY_CLIENT_IP_HEADER is not set; per-address limits are off, only per-account ones apply");
    return "";
  }
  const first = headers.get(rules.platformHeader)?.split(",")[0].trim();
  const address = first ? parseIp(first) : null;
  return address ? formatIp(address) : "";
}

const warned = new Set<string>();

/** Warns once per process and subject: an operator reads it at start, not with every request. */
function warnOnce(subject: string, message: string, fields: Record<string, unknown> = {}): void {
  if (warned.has(subject)) return;
  warned.add(subject);
  log.warn(message, fields);
}

/**
 * A peer that relays X-Forwarded-For without being listed in GATEWAY_TRUSTED_PROXIES looks like
 * an unlisted reverse proxy: every visitor behind it would count as that one address.
 */
function warnOfUnlistedProxy(peerAddress: string, trustedProxies: readonly CidrRange[]): void {
  const peer = parseIp(peerAddress);
  if (!peer || trustedProxies.some((range) => cidrContains(range, peer))) return;
  warnOnce(`proxy:${formatIp(peer)}`, "requests carry X-Forwarded-For from a peer GATEWAY_TRUSTED_PROXIES does not list: if it is your reverse proxy, list it, or every visitor behind it counts as one address", { peer: formatIp(peer) });
}

export function parseTrustedProxies(entries: readonly string[]): CidrRange[] {
  return entries.map((entry) => {
    const range = parseCidr(entry);
    if (!range) throw new Error(`GATEWAY_TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    return range;
  });
}
