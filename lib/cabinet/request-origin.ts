import { headers } from "next/headers";
import { getApiDeps } from "@/lib/api/deps";
import { clientAddressOf } from "@/lib/api/client-ip";
import type { RequestOrigin } from "@/lib/services/cabinet/cabinet-deps";

/** Where a request came from, by the same rules as the API (lib/api/client-ip.ts). */
export function originFromHeaders(headerList: Headers): RequestOrigin {
  return {
    ipAddress: clientAddressOf(headerList, getApiDeps().clientAddress),
    userAgent: headerList.get("user-agent") ?? "",
  };
}

/** The origin of the request being served (a page render or a server action). */
export async function currentOrigin(): Promise<RequestOrigin> {
  return originFromHeaders(await headers());
}
