import type { PayoutLink, Prisma } from "@/generated/prisma/client";
import { isUuid } from "@/lib/domain/input/uuid";
import { assertLinksEnabled, type PayoutLinkDeps } from "./payout-link-records";
import { containsText } from "@/lib/db/text-search";

/** Past this many links a list page is empty anyway; it keeps the offset a database integer. */
const MAX_LIST_OFFSET = 1_000_000_000;

/** spec: POST /v1/payout/link/list — `{limit, offset}`, limit outside 1–200 becomes 50, newest first. */
export async function listPayoutLinks(deps: PayoutLinkDeps, merchantId: string, input: { limit?: unknown; offset?: unknown; query?: string }): Promise<PayoutLink[]> {
  assertLinksEnabled(deps);
  const limit = typeof input.limit === "number" && Number.isInteger(input.limit) && input.limit >= 1 && input.limit <= 200 ? input.limit : 50;
  const offset = typeof input.offset === "number" && Number.isFinite(input.offset) && input.offset > 0 ? Math.min(Math.floor(input.offset), MAX_LIST_OFFSET) : 0;
  // The cabinet's search box: part of the title, reference, e-mail or claim address, any case; or the link's id.
  const query = input.query?.trim() ?? "";
  const matches: Prisma.PayoutLinkWhereInput[] = [{ title: containsText(query) }, { reference: containsText(query) }, { email: containsText(query) }, { claimAddress: containsText(query) }];
  if (isUuid(query)) matches.push({ id: query.toLowerCase() });
  return deps.db.payoutLink.findMany({ where: { merchantId, ...(query === "" ? {} : { OR: matches }) }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit, skip: offset });
}
