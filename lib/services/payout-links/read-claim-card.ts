import type { ClaimCardFacts } from "@/lib/api/serialize/payout-link";
import { effectiveStatus } from "@/lib/domain/payout-link/link-status";
import type { PayoutStatus } from "@/lib/domain/payout/transition";
import { sendsMemo } from "@/lib/services/money-out/payout-destination";
import { findPayoutLinkByToken, type PayoutLinkDeps } from "./payout-link-records";

/**
 * spec: GET /v1/claim/{token} — what the public claim card shows (toClaimCard): the link as the
 * token's holder may see it and, after a claim, the payout it made. Only the token's holder sees it.
 */
export async function readClaimCard(deps: PayoutLinkDeps, token: string): Promise<ClaimCardFacts> {
  const link = await findPayoutLinkByToken(deps, token);
  const payout = link.payoutId ? await deps.db.payout.findUnique({ where: { id: link.payoutId }, select: { status: true, txid: true } }) : null;
  return {
    link,
    status: effectiveStatus(link, deps.now()),
    memoSupported: sendsMemo(link.network),
    payout: payout ? { status: payout.status as PayoutStatus, txid: payout.txid } : null,
  };
}
