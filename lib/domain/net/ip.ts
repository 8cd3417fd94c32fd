/**
 * IP addresses and CIDR ranges as numbers, for allow-lists and for the SSRF rule.
 * An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is treated as the IPv4 address it carries.
 */
export type IpFamily = 4 | 6;

export interface IpAddress {
  family: IpFamily;
  /** The address as an unsigned integer (32 or 128 bits). */
  value: bigint;
}

export interface CidrRange {
  family: IpFamily;
  /** The first address of the range. */
  network: bigint;
  prefixLength: number;
}

function parseIpv4(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || (part.length > 1 && part.startsWith("0"))) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = (value << 8n) | BigInt(octet);
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  let address = text;
  const zone = address.indexOf("%");
  if (zone !== -1) return null;
  // A trailing dotted quad stands for the last 32 bits.
  let tail: bigint | null = null;
  const lastColon = address.lastIndexOf(":");
  if (address.includes(".", lastColon)) {
    tail = parseIpv4(address.slice(lastColon + 1));
    if (tail === null) return null;
    address = `${address.slice(0, lastColon + 1)}0:0`;
  }
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] === "" ? [] : halves[0].split(":");
  const rest = halves.length === 2 ? (halves[1] === "" ? [] : halves[1].split(":")) : [];
  const groups = halves.length === 2 ? head.length + rest.length : head.length;
  if (halves.length === 1 ? groups !== 8 : groups > 7) return null;
  const all = [...head, ...Array<string>(8 - groups).fill("0"), ...rest];
  let value = 0n;
  for (const group of all) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  if (tail !== null) value = (value & ~0xffffffffn) | tail;
  return value;
}

const IPV4_MAPPED_PREFIX = 0xffffn << 32n;

/** Parses an IPv4 or IPv6 address (brackets allowed); null when it is not one. */
export function parseIp(text: string): IpAddress | null {
  const trimmed = text.trim().replace(/^\[(.*)\]$/, "$1");
  const v4 = parseIpv4(trimmed);
  if (v4 !== null) return { family: 4, value: v4 };
  if (!trimmed.includes(":")) return null;
  const v6 = parseIpv6(trimmed);
  if (v6 === null) return null;
  if (v6 >> 32n === 0xffffn) return { family: 4, value: v6 - IPV4_MAPPED_PREFIX };
  return { family: 6, value: v6 };
}

function bitsOf(family: IpFamily): number {
  return family === 4 ? 32 : 128;
}

/** Parses "a.b.c.d", "a.b.c.d/n", an IPv6 address or "v6/n"; host bits must be zero. */
export function parseCidr(text: string): CidrRange | null {
  const [addressText, prefixText, extra] = text.trim().split("/");
  if (extra !== undefined) return null;
  const parsed = parseIp(addressText);
  if (!parsed) return null;
  // A mapped IPv6 range written in v6 form counts its prefix in 128 bits.
  const writtenFamily: IpFamily = addressText.includes(":") ? 6 : 4;
  let prefixLength = bitsOf(parsed.family);
  if (prefixText !== undefined) {
    if (!/^\d{1,3}$/.test(prefixText)) return null;
    const written = Number(prefixText);
    if (written > bitsOf(writtenFamily)) return null;
    prefixLength = writtenFamily === 6 && parsed.family === 4 ? written - 96 : written;
    if (prefixLength < 0) return null;
  }
  const hostBits = BigInt(bitsOf(parsed.family) - prefixLength);
  const network = (parsed.value >> hostBits) << hostBits;
  if (network !== parsed.value) return null;
  return { family: parsed.family, network, prefixLength };
}

export function cidrContains(range: CidrRange, address: IpAddress): boolean {
  if (range.family !== address.family) return false;
  const hostBits = BigInt(bitsOf(range.family) - range.prefixLength);
  return address.value >> hostBits === range.network >> hostBits;
}

export function formatIp(address: IpAddress): string {
  if (address.family === 4) {
    return [24n, 16n, 8n, 0n].map((shift) => ((address.value >> shift) & 0xffn).toString()).join(".");
  }
  const groups = Array.from({ length: 8 }, (_, i) => Number((address.value >> BigInt((7 - i) * 16)) & 0xffffn));
  // RFC 5952: compress the longest run of two or more zero groups.
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength && j - i >= 2) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart === -1) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}

/** Canonical text of a range: a bare address for a single host, else "network/prefix". */
export function formatCidr(range: CidrRange): string {
  const address = formatIp({ family: range.family, value: range.network });
  return range.prefixLength === bitsOf(range.family) ? address : `${address}/${range.prefixLength}`;
}
