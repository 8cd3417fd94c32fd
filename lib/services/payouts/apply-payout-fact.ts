import type { Payout, Prisma } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { decidePayout, type PayoutFact, type PayoutStatus } from "@/lib/domain/payout/transition";
import { postJournal } from "@/lib/ledger/post";
import { assetKey, payoutPaidJournal, payoutReleasedJournal } from "@/lib/ledger/postings";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { recordPayoutEvent } from "@/lib/services/money-out/payout-events";
import { returnWalletRefund } from "@/lib/services/static-wallets/refund-blocked-wallet";
import { lockPaymentShares, moveSplitShares, returnSplitPayout } from "@/lib/services/splits/split-shares";

/**
 * The only writer of a payout's status after its creation, inside the caller's transaction: the
 * domain decides; the row changes only from the status it was read in (compare-and-set); the
 * reserve is paid out or released in the same transaction, at most once (the journals' unique
 * references); and the new status is announced. Returns the updated payout, or null when the
 * fact did not apply (another writer moved it first).
 */
export async function applyPayoutFact(tx: Tx, payout: Payout, fact: PayoutFact, now: Date, data: Prisma.PayoutUpdateManyMutationInput = {}): Promise<Payout | null> {
  const decision = decidePayout(payout.status as PayoutStatus, fact);
  if (!decision) return null;
  const { count } = await tx.payout.updateMany({ where: { id: payout.id, status: payout.status }, data: { ...data, status: decision.status, updatedAt: now } });
  if (count === 0) return null;
  const ledger = { payoutId: payout.id, merchantId: payout.merchantId, asset: assetKey(payout.currency, payout.network) };
  if (decision.ledger === "release" && payout.kind === "split") {
    // A partner's share that did not go out goes back to its share, to be sent again.
    await returnSplitPayout(tx, payout, now);
  } else if (decision.ledger === "release" && payout.kind === "wallet_refund") {
    // A blocked wallet's deposits that did not go back are held again, for the next refund call.
    await returnWalletRefund(tx, payout, now);
  } else if (decision.ledger === "release") {
    // A refund that will not be paid no longer reduces its payment's split shares; they grow back
    // from the released reserve. The payment's lock comes first, as for every writer of its shares.
    const shares = payout.kind === "refund" ? await lockPaymentShares(tx, payout.invoiceId!, now) : [];
    await postJournal(tx, payoutReleasedJournal({ ...ledger, debit: toMinor(payout.debitMinor) }), now);
    if (shares.length > 0) await moveSplitShares(tx, { invoiceId: payout.invoiceId!, creditedDelta: 0n, funding: { kind: "available" } }, now);
  }
  if (decision.ledger === "pay") await postJournal(tx, payoutPaidJournal({ ...ledger, amount: toMinor(payout.amountMinor), fee: toMinor(payout.feeMinor) }), now);
  const updated = await tx.payout.findUniqueOrThrow({ where: { id: payout.id } });
  await recordPayoutEvent(tx, updated, now);
  return updated;
}
