import type { ClaimCardFacts } from "@/lib/api/serialize/payout-link";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { effectiveStatus } from "@/lib/domain/payout-link/link-status";
import type { PayoutStatus } from "@/lib/domain/payout/transition";
import { findSettlementAsset } from "@/lib/catalogue";
import { isAppError } from "@/lib/errors";
import { quoteFee } from "@/lib/services/money-out/payout-terms";
import { sendsMemo } from "@/lib/services/money-out/payout-destination";
import { findPayoutLinkByToken, type PayoutLinkDeps } from "./payout-link-records";

/**
 * spec: GET /v1/claim/{token} — what the public claim card shows (toClaimCard): the link as the
 * token's holder may see it and, after a claim, the payout it made. Only the token's holder sees it.
 */
export async function readClaimCard(deps: PayoutLinkDeps, token: string): Promise<ClaimCardFacts> {
  const link = await findPayoutLinkByToken(deps, token);
  const payout = link.payoutId ? await deps.db.payout.findUnique({ where: { id: link.payoutId }, select: { status: true, txid: true, amountMinor: true, feeMinor: true } }) : null;
  return {
    link,
    status: effectiveStatus(link, deps.now()),
    memoSupported: sendsMemo(link.network),
    payout: payout ? { status: payout.status as PayoutStatus, txid: payout.txid, receiveMinor: toMinor(payout.amountMinor), feeMinor: toMinor(payout.feeMinor) } : null,
  };
}

/**
 * What a claim made now would deliver: the check less the payout fee quoted now (the fee is
 * quoted again at the claim). Null when no rate can be had: the page then shows the check alone.
 */
export async function estimateClaimReceipt(deps: Pick<PayoutLinkDeps, "rates">, link: { currency: string; network: string; amountMinor: bigint }): Promise<{ receiveMinor: bigint; feeMinor: bigint } | null> {
  const asset = findSettlementAsset(link.currency, link.network);
  if (!asset) return null;
  try {
    const feeMinor = await quoteFee(deps, { asset });
    return link.amountMinor > feeMinor ? { receiveMinor: link.amountMinor - feeMinor, feeMinor } : null;
  } catch (error) {
    if (isAppError(error)) return null;
    throw error;
  }
}
