import { cidrContains, parseCidr, type CidrRange, type IpAddress } from "./ip";

function ranges(list: string[]): CidrRange[] {
  return list.map((text) => {
    const range = parseCidr(text);
    if (!range) throw new Error(`bad built-in range ${text}`);
    return range;
  });
}

const LOOPBACK = ranges(["127.0.0.0/8", "::1/128"]);

/** Addresses an outbound webhook or callback may never reach: private, link-local, metadata, reserved. */
const FORBIDDEN = ranges([
  "0.0.0.0/8", // "this network"
  "10.0.0.0/8",
  "100.64.0.0/10", // carrier-grade NAT
  "169.254.0.0/16", // link-local, including 169.254.169.254 cloud metadata
  "172.16.0.0/12",
  "192.0.0.0/24", // IETF protocol assignments
  "192.0.2.0/24", // documentation
  "192.168.0.0/16",
  "198.18.0.0/15", // benchmarking
  "198.51.100.0/24", // documentation
  "203.0.113.0/24", // documentation
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, broadcast
  "::/128",
  "64:ff9b::/96", // NAT64 can reach IPv4 private space
  "100::/64", // discard
  "2001:db8::/32", // documentation
  "fc00::/7", // unique local
  "fe80::/10", // link-local
  "ff00::/8", // multicast
  "fd00:ec2::254/128", // AWS IPv6 metadata
]);

/**
 * spec: operator contract §1 — whether an outbound URL may connect to this address: never to
 * private, link-local, metadata or reserved ranges; to loopback only when the operator allows it.
 */
export function isAllowedOutboundAddress(address: IpAddress, options: { allowLoopback: boolean }): boolean {
  if (LOOPBACK.some((range) => cidrContains(range, address))) return options.allowLoopback;
  return !FORBIDDEN.some((range) => cidrContains(range, address));
}
