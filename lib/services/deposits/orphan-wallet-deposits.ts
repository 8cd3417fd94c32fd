import type { ChainTransfer, Payout, StaticWallet } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { platformFeeMinor } from "@/lib/domain/invoice/quote";
import { log } from "@/lib/log";
import { lockAccounts, postJournal } from "@/lib/ledger/post";
import { assetKey, depositConfirmedJournal, PLATFORM, reversalJournal, settlementClawbackJournal, type Bucket } from "@/lib/ledger/postings";
import { withdrawPlannedTransfer } from "@/lib/services/outgoing/send-outgoing";
import { applyPayoutFact } from "@/lib/services/payouts/apply-payout-fact";
import { transferReference } from "@/lib/services/payouts/send-payouts";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { lockStillOrphaned, type JudgedTransfer } from "@/lib/services/deposits/orphan-transfers";
import { lockStaticWallet } from "@/lib/services/static-wallets/static-wallets";

/**
 * A reorganisation (or the mempool) dropped these deposits of one static wallet. Inside the
 * caller's transaction, under the wallet's row lock, every credit they caused is reversed, as
 * for invoices: a credited deposit's settlement is taken back (the fee from the platform; the
 * merchant's part from the deposit's own maturing lot first, then available, the rest as debt),
 * then its credit; a held deposit leaves blocked_held. The deposits are marked orphaned, so one
 * included again is credited again under its next number.
 *
 * A held deposit that a refund is returning: while nothing of the refund is signed, the refund
 * is stopped (it fails, its reserve goes back to blocked_held, its other deposits are held again
 * for the next refund call) and the deposit is reversed as any held one. Once the refund's
 * transaction is signed the money is leaving: the deposit stays as it is, for an operator (logged
 * as an error; reconciliation with the chain shows the shortfall) — whether it comes back, and
 * who bears it if not, is not a machine's guess.
 */
export async function orphanWalletDeposits(tx: Tx, walletId: string, judged: readonly JudgedTransfer[], now: Date): Promise<void> {
  const wallet = await lockStaticWallet(tx, walletId);
  const transfers = await lockStillOrphaned(tx, judged, { staticWalletId: walletId });
  const asset = assetKey(wallet.currency, wallet.network);
  const merchant = (bucket: Bucket) => ({ owner: wallet.merchantId, asset, bucket });
  const refunds = new Set(transfers.flatMap((transfer) => (transfer.refundPayoutId ? [transfer.refundPayoutId] : [])));
  const confirmed = transfers.filter((transfer) => transfer.status === "confirmed");
  if (confirmed.length > 0 || refunds.size > 0) {
    // Every lock a reversal or a stopped refund's release may take, up front and in the order the
    // maturity job takes them: the deposits' own lots first, then the accounts in the ledger's order.
    await tx.$queryRaw`SELECT id FROM maturity_lots WHERE reference = ANY(${confirmed.map(settlementReference)}::text[]) FOR UPDATE`;
    await lockAccounts(tx, [merchant("available"), merchant("debt"), merchant("incoming"), merchant("maturing"), merchant("blocked_held"), merchant("payout_held"), { owner: PLATFORM, asset, bucket: "chain" }, { owner: PLATFORM, asset, bucket: "fees" }], now);
  }
  const leavingRefunds = new Set<string>();
  for (const payoutId of refunds) {
    if (!(await stopRefund(tx, payoutId, now))) leavingRefunds.add(payoutId);
  }
  const leaving = transfers.filter((transfer) => transfer.refundPayoutId !== null && leavingRefunds.has(transfer.refundPayoutId));
  if (leaving.length > 0) log.error("held static wallet deposits vanished after their refund was signed; left for an operator", { staticWalletId: walletId, transfers: leaving.map((transfer) => transfer.id) });
  const orphaned = transfers.filter((transfer) => !leaving.includes(transfer));
  for (const transfer of orphaned.filter((transfer) => transfer.status === "confirmed")) await reverseDeposit(tx, wallet, transfer, now);
  // Unbound from any refund: included again, a deposit is decided afresh (credited or held).
  await tx.chainTransfer.updateMany({ where: { id: { in: orphaned.map((transfer) => transfer.id) } }, data: { status: "orphaned", confirmations: 0, isHeld: false, refundPayoutId: null, updatedAt: now } });
}

/**
 * Stops the refund `payoutId` if nothing of it is signed: its current transfer (if planned) is
 * called off, then the payout fails and its reserve returns to blocked_held (the deposits bound
 * to it are freed). False when its transaction is signed or later: it goes its way.
 */
async function stopRefund(tx: Tx, payoutId: string, now: Date): Promise<boolean> {
  // The payout sender holds a payout's row while it advances it and takes the wallet's after:
  // waiting here (under the wallet's lock) could deadlock, so a busy payout is decided next pass.
  const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id::text AS id FROM payouts WHERE id = ${payoutId}::uuid FOR UPDATE SKIP LOCKED`;
  if (!locked) throw new Error(`the refund ${payoutId} is being sent right now; the next pass decides`);
  const payout: Payout = await tx.payout.findUniqueOrThrow({ where: { id: payoutId } });
  if (payout.status !== "approved") return false;
  const reason = "a deposit it returns was removed from the chain by a reorganisation";
  const transfer = await withdrawPlannedTransfer(tx, transferReference(payout), now, reason);
  if (transfer !== null && transfer !== "failed" && transfer !== "replaced") return false;
  const stopped = await applyPayoutFact(tx, payout, { kind: "source_reversed" }, now, { waitReason: reason });
  if (!stopped) return false;
  log.warn("a blocked wallet's refund stopped before it was signed: a deposit it returned vanished from the chain", { payoutId });
  return true;
}


function settlementReference(transfer: Pick<ChainTransfer, "id" | "credits">): string {
  return `transfer:${transfer.id}:settle:${transfer.credits}`;
}

async function reverseDeposit(tx: Tx, wallet: StaticWallet, transfer: ChainTransfer, now: Date): Promise<void> {
  const asset = assetKey(wallet.currency, wallet.network);
  const amount = toMinor(transfer.amountMinor);
  const credit = depositConfirmedJournal({ transferId: transfer.id, credit: transfer.credits, merchantId: wallet.merchantId, asset, amount, into: transfer.isHeld ? "blocked_held" : "incoming" });
  if (!transfer.isHeld) {
    // The same fee the credit took: the wallet's terms are fixed.
    const fee = platformFeeMinor(amount, wallet.feePercentBps, toMinor(wallet.feeFixedAssetMinor));
    const share = amount - fee;
    const lot = await tx.maturityLot.findFirst({ where: { reference: settlementReference(transfer), maturedAt: null } });
    const fromMaturing = lot === null ? 0n : min(share, toMinor(lot.amount));
    if (lot && fromMaturing > 0n) {
      const left = toMinor(lot.amount) - fromMaturing;
      // A lot taken back to nothing is done: it has nothing left to mature.
      await tx.maturityLot.update({ where: { id: lot.id }, data: { amount: left.toString(), ...(left === 0n ? { maturedAt: now } : {}) } });
    }
    const available = await tx.ledgerAccount.findUnique({ where: { owner_asset_bucket: { owner: wallet.merchantId, asset, bucket: "available" } }, select: { balance: true } });
    const fromAvailable = min(share - fromMaturing, toMinor(available?.balance));
    await postJournal(
      tx,
      settlementClawbackJournal({ reference: `transfer:${transfer.id}:clawback:${transfer.credits}`, merchantId: wallet.merchantId, asset, received: amount, fee, taken: { maturing: fromMaturing, available: fromAvailable } }),
      now,
    );
  }
  await postJournal(tx, reversalJournal(credit, "reorg"), now);
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
