import type { PayoutLink } from "@/generated/prisma/client";
import type { Db } from "@/lib/db/client";
import { withTransaction } from "@/lib/db/transaction";
import { log } from "@/lib/log";
import { expirePayoutLink, listLinksPastTerm, listStuckClaims, reapStuckClaim, stuckClaimCutoff } from "@/lib/services/payout-links/expire-payout-links";
import { getMerchantPayoutLinkOrThrow, type PayoutLinkDeps } from "@/lib/services/payout-links/payout-link-records";

/**
 * The `payoutlink.expire` job (every 60 s): funded links past their term expire, their reserve
 * returned once; claims stuck in `claiming` over 15 minutes (a crash between binding the address
 * and making the payout) are put back to funded. Each link in a transaction of its own: one that
 * fails is logged and left to the next pass.
 */
export async function expireAndReapPayoutLinks(deps: { db: Db; now(): Date }, limit = 500): Promise<{ expired: number; reaped: number }> {
  const now = deps.now();
  let expired = 0;
  for (const id of await listLinksPastTerm(deps.db, now, limit)) {
    try {
      if (await withTransaction(deps.db, (tx) => expirePayoutLink(tx, id, now))) expired++;
    } catch (error) {
      log.warn("payout link not expired; the next pass retries", { linkId: id, error });
    }
  }
  const cutoff = stuckClaimCutoff(now);
  let reaped = 0;
  for (const id of await listStuckClaims(deps.db, cutoff, limit)) {
    try {
      if (await withTransaction(deps.db, (tx) => reapStuckClaim(tx, id, cutoff, now))) {
        reaped++;
        log.warn("payout link claim stuck in claiming put back to funded", { linkId: id });
      }
    } catch (error) {
      log.warn("payout link not reaped; the next pass retries", { linkId: id, error });
    }
  }
  return { expired, reaped };
}

/** The sandbox's `POST /v1/sandbox/expire` with a link_id: the term treated as reached, the expiry run. */
export async function expirePayoutLinkNow(deps: PayoutLinkDeps, merchantId: string, linkId: string): Promise<PayoutLink> {
  const link = await getMerchantPayoutLinkOrThrow(deps, merchantId, linkId);
  const now = deps.now();
  if (link.status === "funded") await deps.db.payoutLink.updateMany({ where: { id: link.id, status: "funded" }, data: { expiresAt: now } });
  await expireAndReapPayoutLinks({ db: deps.db, now: () => now });
  return deps.db.payoutLink.findUniqueOrThrow({ where: { id: link.id } });
}
