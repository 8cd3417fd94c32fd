import type { PayoutLink } from "@/generated/prisma/client";
import { withTransaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { endFundedLink, getMerchantPayoutLinkOrThrow, lockLink, type PayoutLinkDeps } from "./payout-link-records";

/**
 * spec: POST /v1/payout/link/cancel — only a funded link: `cancelled`, its reserve returned once
 * (`link:<id>:release`). A link a claim finished first answers as claimed (with its payout);
 * anything else is `payoutlink.not_funded`.
 */
export async function cancelPayoutLink(deps: PayoutLinkDeps, merchantId: string, linkId: string): Promise<PayoutLink> {
  const found = await getMerchantPayoutLinkOrThrow(deps, merchantId, linkId);
  if (found.status !== "funded" && found.status !== "claiming") throw new AppError("payoutlink.not_funded", `The link is ${found.status}.`);
  return withTransaction(deps.db, async (tx) => {
    const link = await lockLink(tx, found.id);
    // spec: a claim that completed while this cancel waited wins; the cancel answers the claimed link.
    if (link.status === "claimed") return link;
    if (link.status !== "funded") throw new AppError("payoutlink.not_funded", `The link is ${link.status}.`);
    return endFundedLink(tx, link, "cancelled", deps.now());
  });
}
