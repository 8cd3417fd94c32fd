import type { StaticWallet } from "@/generated/prisma/client";
import { findSettlementAsset } from "@/lib/catalogue";
import type { Db } from "@/lib/db/client";
import { formatAmount } from "@/lib/domain/money/amount";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";

/** What a static wallet's deposits came to, in its coin (decimal strings). */
export interface WalletDepositTotals {
  /** Confirmed deposits credited to the merchant (before the platform fee). */
  credited: string;
  /** Confirmed deposits after the block, waiting for the blocked-address refund. */
  held: string;
  /** Held deposits a refund payout returns (or returned). */
  refunded: string;
  /** Deposits seen, waiting for their confirmations. */
  confirming: number;
  /** Deposits recorded (orphaned ones left out). */
  count: number;
}

/** The deposit totals of some of the merchant's static wallets, by wallet id (another merchant's wallets give nothing). */
export async function summarizeWalletDeposits(db: Db, merchantId: string, wallets: Pick<StaticWallet, "id" | "currency" | "network">[]): Promise<Map<string, WalletDepositTotals>> {
  if (wallets.length === 0) return new Map();
  const groups = await db.chainTransfer.groupBy({
    by: ["staticWalletId", "status", "isHeld", "refundPayoutId"],
    where: { staticWalletId: { in: wallets.map((wallet) => wallet.id) }, staticWallet: { merchantId }, status: { not: "orphaned" } },
    _sum: { amountMinor: true },
    _count: { _all: true },
  });
  const totals = new Map<string, WalletDepositTotals>();
  for (const wallet of wallets) {
    const decimals = findSettlementAsset(wallet.currency, wallet.network)?.decimals ?? 0;
    const sums = { credited: 0n, held: 0n, refunded: 0n };
    let confirming = 0;
    let count = 0;
    for (const group of groups.filter((candidate) => candidate.staticWalletId === wallet.id)) {
      const amount = toMinor(group._sum.amountMinor);
      count += group._count._all;
      if (group.status !== "confirmed") confirming += group._count._all;
      else if (!group.isHeld) sums.credited += amount;
      else if (group.refundPayoutId === null) sums.held += amount;
      else sums.refunded += amount;
    }
    totals.set(wallet.id, { credited: formatAmount(sums.credited, decimals), held: formatAmount(sums.held, decimals), refunded: formatAmount(sums.refunded, decimals), confirming, count });
  }
  return totals;
}
