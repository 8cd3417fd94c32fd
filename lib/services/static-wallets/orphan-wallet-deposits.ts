import type { ChainTransfer, StaticWallet } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { platformFeeMinor } from "@/lib/domain/invoice/quote";
import { log } from "@/lib/log";
import { lockAccounts, postJournal } from "@/lib/ledger/post";
import { assetKey, depositConfirmedJournal, PLATFORM, reversalJournal, settlementClawbackJournal, type Bucket } from "@/lib/ledger/postings";
import { toMinor } from "@/lib/services/invoices/invoice-view";
import { lockStillOrphaned, type JudgedTransfer } from "@/lib/services/invoices/orphan-transfers";
import { lockStaticWallet } from "./static-wallets";

/**
 * A reorganisation (or the mempool) dropped these deposits of one static wallet. Inside the
 * caller's transaction, under the wallet's row lock, every credit they caused is reversed, as
 * for invoices: a credited deposit's settlement is taken back (the fee from the platform; the
 * merchant's part from the deposit's own maturing lot first, then available, the rest as debt),
 * then its credit; a held deposit leaves blocked_held. The deposits are marked orphaned, so one
 * included again is credited again under its next number. A held deposit whose refund is
 * already on its way stays as it is, for an operator: that money is leaving anyway.
 */
export async function orphanWalletDeposits(tx: Tx, walletId: string, judged: readonly JudgedTransfer[], now: Date): Promise<void> {
  const wallet = await lockStaticWallet(tx, walletId);
  const transfers = await lockStillOrphaned(tx, judged, { staticWalletId: walletId });
  const refunding = transfers.filter((transfer) => transfer.refundPayoutId !== null);
  if (refunding.length > 0) log.error("held static wallet deposits vanished while their refund is on its way; left for an operator", { staticWalletId: walletId, transfers: refunding.map((transfer) => transfer.id) });
  const orphaned = transfers.filter((transfer) => transfer.refundPayoutId === null);
  const credited = orphaned.filter((transfer) => transfer.status === "confirmed");
  if (credited.length > 0) {
    const asset = assetKey(wallet.currency, wallet.network);
    const merchant = (bucket: Bucket) => ({ owner: wallet.merchantId, asset, bucket });
    // The deposits' own lots first (as the maturity job takes a lot's lock before the accounts), then the accounts in the ledger's order.
    await tx.$queryRaw`SELECT id FROM maturity_lots WHERE reference = ANY(${credited.map(settlementReference)}::text[]) FOR UPDATE`;
    await lockAccounts(tx, [merchant("available"), merchant("debt"), merchant("incoming"), merchant("maturing"), merchant("blocked_held"), { owner: PLATFORM, asset, bucket: "chain" }, { owner: PLATFORM, asset, bucket: "fees" }], now);
    for (const transfer of credited) await reverseDeposit(tx, wallet, transfer, now);
  }
  await tx.chainTransfer.updateMany({ where: { id: { in: orphaned.map((transfer) => transfer.id) } }, data: { status: "orphaned", confirmations: 0, isHeld: false, updatedAt: now } });
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
