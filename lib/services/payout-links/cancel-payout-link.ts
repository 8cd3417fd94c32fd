import type { PayoutLink } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { AppError } from "@/lib/errors";
import { endFundedLink, getMerchantPayoutLinkOrThrow, lockLink, type PayoutLinkDeps } from "./payout-link-records";

/** A cancel call: the merchant's link. */
export interface CancelLinkRequest {
  merchantId: string;
  linkId: string;
}

/**
 * spec: POST /v1/payout/link/cancel — only a funded link: `cancelled`, its reserve returned once
 * (`link:<id>:release`). A link a claim finished first answers as claimed (with its payout);
 * anything else is `payoutlink.not_funded`.
 */
export const cancelPayoutLink = {
  async prepare(deps: PayoutLinkDeps, { merchantId, linkId }: CancelLinkRequest): Promise<PayoutLink> {
    const found = await getMerchantPayoutLinkOrThrow(deps, merchantId, linkId);
    if (found.status !== "funded" && found.status !== "claiming") throw new AppError("payoutlink.not_funded", `The link is ${found.status}.`);
    return found;
  },
  async execute(tx: Tx, deps: Pick<PayoutLinkDeps, "now">, found: PayoutLink): Promise<PayoutLink> {
    const link = await lockLink(tx, found.id);
    // spec: a claim that completed while this cancel waited wins; the cancel answers the claimed link.
    if (link.status === "claimed") return link;
    if (link.status !== "funded") throw new AppError("payoutlink.not_funded", `The link is ${link.status}.`);
    return endFundedLink(tx, link, "cancelled", deps.now());
  },
} satisfies UnitOfWork<CancelLinkRequest, PayoutLink, PayoutLink>;
