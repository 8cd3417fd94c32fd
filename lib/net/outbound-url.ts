import { isAllowedOutboundAddress } from "@/lib/domain/net/address-policy";
import { parseIp } from "@/lib/domain/net/ip";
import { AppError, type ErrorCode } from "@/lib/errors";
import { lookupAllAddresses, type HostResolver } from "./cached-host-resolver";

/** Why an outbound URL was refused. */
export type OutboundUrlProblem = "malformed" | "scheme" | "credentials" | "unresolvable" | "forbidden_address";

export class OutboundUrlError extends Error {
  constructor(
    readonly problem: OutboundUrlProblem,
    message: string,
  ) {
    super(message);
    this.name = "OutboundUrlError";
  }
}

export interface VettedUrl {
  url: URL;
  /** The address the connection must go to: resolved and checked once, so DNS cannot change it in between. */
  address: string;
  family: 4 | 6;
}

/** Checks the form of a webhook or callback URL: absolute http(s), no credentials. No DNS. */
export function parseOutboundUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new OutboundUrlError("malformed", "not an absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new OutboundUrlError("scheme", "only http and https URLs are allowed");
  if (url.username || url.password) throw new OutboundUrlError("credentials", "URLs with credentials are not allowed");
  if (!url.hostname) throw new OutboundUrlError("malformed", "the URL has no host");
  return url;
}

/**
 * The SSRF rule: resolves the host and refuses the URL when any of its addresses is private,
 * link-local, metadata or reserved (loopback only with allowLoopback). Called when a URL is
 * accepted and again before every send, because DNS answers can change (senders pass a
 * resolver that reuses an answer for a few seconds; the addresses are checked all the same).
 */
export async function vetOutboundUrl(
  text: string,
  options: { allowLoopback: boolean; resolve?: HostResolver },
): Promise<VettedUrl> {
  const url = parseOutboundUrl(text);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  const literal = parseIp(host);
  let candidates: { address: string; family: number }[];
  if (literal) {
    candidates = [{ address: host, family: literal.family }];
  } else {
    try {
      candidates = await (options.resolve ?? lookupAllAddresses)(host);
    } catch {
      throw new OutboundUrlError("unresolvable", `the host ${host} does not resolve`);
    }
    if (candidates.length === 0) throw new OutboundUrlError("unresolvable", `the host ${host} does not resolve`);
  }
  for (const candidate of candidates) {
    const address = parseIp(candidate.address);
    if (!address || !isAllowedOutboundAddress(address, options)) {
      throw new OutboundUrlError("forbidden_address", `the host ${host} resolves to a private or reserved address`);
    }
  }
  return { url, address: candidates[0].address, family: candidates[0].family === 6 ? 6 : 4 };
}

/**
 * A merchant-supplied URL the service will call (a webhook, a url_callback), vetted by the SSRF
 * rule and answered in its canonical form; a refusal is the caller's documented `refusal` code,
 * its message prefixed with `field` (e.g. "url_callback: ").
 */
export async function vetMerchantUrl(url: string, options: { allowLoopback: boolean; refusal: ErrorCode; field?: string }): Promise<string> {
  try {
    return (await vetOutboundUrl(url, { allowLoopback: options.allowLoopback })).url.toString();
  } catch (error) {
    if (error instanceof OutboundUrlError) throw new AppError(options.refusal, `${options.field ?? ""}${error.message}.`);
    throw error;
  }
}
