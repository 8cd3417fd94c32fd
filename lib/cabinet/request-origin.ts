import { headers } from "next/headers";
import { getApiDeps } from "@/lib/api/deps";
import { PEER_TOKEN_ENV, resolveClientIp, vouchedPeerAddress } from "@/lib/api/client-ip";
import type { RequestOrigin } from "@/lib/services/cabinet/cabinet-deps";

/** Where a request came from, by the same rules as the API (the socket peer, or behind a trusted proxy). */
export function originFromHeaders(headerList: Headers): RequestOrigin {
  const peer = vouchedPeerAddress(headerList, process.env[PEER_TOKEN_ENV]);
  return {
    ipAddress: resolveClientIp(peer, headerList.get("x-forwarded-for"), getApiDeps().trustedProxies),
    userAgent: headerList.get("user-agent") ?? "",
  };
}

/** The origin of the request being served (a page render or a server action). */
export async function currentOrigin(): Promise<RequestOrigin> {
  return originFromHeaders(await headers());
}
