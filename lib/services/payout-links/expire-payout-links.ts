import type { PayoutLink } from "@/generated/prisma/client";
import { withTransaction } from "@/lib/db/transaction";
import { CLAIMING_TIMEOUT_MS } from "@/lib/domain/payout-link/link-status";
import { log } from "@/lib/log";
import { endFundedLink, getMerchantPayoutLinkOrThrow, lockLink, type PayoutLinkDeps } from "./payout-link-records";

/**
 * Periodic job (every 60 s): funded links past their term expire, their reserve returned once;
 * claims stuck in `claiming` over 15 minutes (a crash between binding the address and making the
 * payout, which commits with `claimed`) are put back to funded.
 */
export async function expireAndReapPayoutLinks(deps: Pick<PayoutLinkDeps, "db" | "now">, limit = 500): Promise<{ expired: number; reaped: number }> {
  const now = deps.now();
  const due = await deps.db.payoutLink.findMany({ where: { status: "funded", expiresAt: { lte: now } }, select: { id: true }, take: limit });
  let expired = 0;
  for (const { id } of due) {
    try {
      const ended = await withTransaction(deps.db, async (tx) => {
        const link = await lockLink(tx, id);
        if (link.status !== "funded" || link.expiresAt > now) return false; // claimed or cancelled meanwhile
        await endFundedLink(tx, link, "expired", now);
        return true;
      });
      if (ended) expired++;
    } catch (error) {
      log.warn("payout link not expired; the next pass retries", { linkId: id, error });
    }
  }
  const cutoff = new Date(now.getTime() - CLAIMING_TIMEOUT_MS);
  const stuck = await deps.db.payoutLink.findMany({ where: { status: "claiming", claimingAt: { lte: cutoff } }, select: { id: true }, take: limit });
  let reaped = 0;
  for (const { id } of stuck) {
    try {
      // A claim's payout and its `claimed` commit together: one still claiming has no payout, and
      // goes back to funded for the recipient to claim again.
      const didReap = await withTransaction(deps.db, async (tx) => {
        const link = await lockLink(tx, id);
        if (link.status !== "claiming" || !link.claimingAt || link.claimingAt > cutoff) return false; // finished, or claimed anew meanwhile
        await tx.payoutLink.update({ where: { id }, data: { status: "funded", claimAddress: null, claimMemo: null, claimingAt: null, updatedAt: now } });
        return true;
      });
      if (didReap) {
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
