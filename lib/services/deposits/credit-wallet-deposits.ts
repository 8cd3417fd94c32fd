import { toWalletPaidEventFields } from "@/lib/api/serialize/static-wallet";
import type { ChainTransfer, StaticWallet } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { findSettlementAsset, minimumConfirmations, requiredConfirmations } from "@/lib/catalogue";
import { decideWalletDeposit } from "@/lib/domain/static-wallet/deposit";
import { lockAccounts, postJournal } from "@/lib/ledger/post";
import { assetKey, depositConfirmedJournal, PLATFORM, walletDepositSettledJournal, type Bucket } from "@/lib/ledger/postings";
import { createMaturityLot, type EvaluationDeps } from "@/lib/services/deposits/evaluate-invoice";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { buildWalletEventBody } from "@/lib/webhooks/payloads";
import { recordWebhookEvent } from "@/lib/webhooks/record-event";
import { lockStaticWallet } from "@/lib/services/static-wallets/static-wallets";

/**
 * Brings one static wallet up to date with its deposits, inside the caller's transaction and
 * under the wallet's row lock: each deposit that reached its confirmations is credited exactly
 * once (the journal references carry the transfer id and its credit number) — to the merchant,
 * net of the platform fee, maturing like an invoice's credit and announced by `wallet.paid` in
 * the same transaction; or, when it arrived after the wallet was blocked, held in blocked_held
 * for the blocked-address refund. Returns how many deposits it settled.
 */
export async function creditWalletDeposits(tx: Tx, deps: EvaluationDeps, walletId: string, now: Date): Promise<number> {
  const wallet = await lockStaticWallet(tx, walletId);
  const asset = findSettlementAsset(wallet.currency, wallet.network);
  if (!asset) return 0;
  // Only the wallet's own coin pays it (the watcher links nothing else; this guards it).
  const waiting = await tx.chainTransfer.findMany({ where: { staticWalletId: walletId, status: "seen", currency: wallet.currency }, orderBy: { createdAt: "asc" } });
  const key = assetKey(wallet.currency, wallet.network);
  let isLocked = false;
  let settled = 0;
  for (const transfer of waiting) {
    const amount = toMinor(transfer.amountMinor);
    const decision = decideWalletDeposit({
      amountMinor: amount,
      confirmations: transfer.confirmations,
      minimumConfirmations: minimumConfirmations(asset),
      usdUnitMinor: toMinor(wallet.usdUnitMinor),
      tierFor: (valueUsdMinor) => requiredConfirmations(asset, valueUsdMinor),
      seenAt: transfer.createdAt,
      blockedAt: wallet.blockedAt,
      fee: { percentBps: wallet.feePercentBps, fixedMinor: toMinor(wallet.feeFixedAssetMinor) },
    });
    if (decision.kind === "wait") continue;
    if (!isLocked) {
      // Every account a credit, its lot and a debt repayment touch, in the ledger's order, before the first journal.
      const merchant = (bucket: Bucket) => ({ owner: wallet.merchantId, asset: key, bucket });
      await lockAccounts(tx, [merchant("available"), merchant("debt"), merchant("incoming"), merchant("maturing"), merchant("blocked_held"), { owner: PLATFORM, asset: key, bucket: "chain" }, { owner: PLATFORM, asset: key, bucket: "fees" }], now);
      isLocked = true;
    }
    // Each inclusion is its own numbered credit, as for invoices.
    const credit = transfer.credits + 1;
    const journal = { transferId: transfer.id, credit, merchantId: wallet.merchantId, asset: key };
    if (decision.kind === "hold") {
      await postJournal(tx, depositConfirmedJournal({ ...journal, amount, into: "blocked_held" }), now);
    } else {
      await postJournal(tx, depositConfirmedJournal({ ...journal, amount }), now);
      await postJournal(tx, walletDepositSettledJournal({ ...journal, received: amount, fee: decision.feeMinor }), now);
      await createMaturityLot(tx, { merchantId: wallet.merchantId, asset: key, amount: decision.netMinor, reference: `transfer:${transfer.id}:settle:${credit}` }, deps, now);
    }
    const updated = await tx.chainTransfer.update({ where: { id: transfer.id }, data: { status: "confirmed", credits: credit, isHeld: decision.kind === "hold", updatedAt: now } });
    if (decision.kind === "credit") await recordWalletPaidEvent(tx, wallet, updated, now);
    settled++;
  }
  return settled;
}

/** spec: Events — `wallet.paid`, one per credited deposit, to the registered endpoint and the wallet's url_callback. */
async function recordWalletPaidEvent(tx: Tx, wallet: StaticWallet, deposit: ChainTransfer, now: Date): Promise<void> {
  const body = buildWalletEventBody(toWalletPaidEventFields(wallet, deposit));
  await recordWebhookEvent(tx, { merchantId: wallet.merchantId, eventType: "wallet.paid", objectId: deposit.id, body, callbackUrl: wallet.urlCallback, now });
}
