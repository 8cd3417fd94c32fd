import { randomUUID } from "node:crypto";
import type { Payout, StaticWallet } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { findSettlementAsset, type NetworkId } from "@/lib/catalogue";
import type { SettlementAsset } from "@/lib/catalogue/types";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { addressChainOf } from "@/lib/chains/registry";
import { computePayoutAmounts } from "@/lib/domain/payout/amounts";
import { AppError } from "@/lib/errors";
import { postJournal } from "@/lib/ledger/post";
import { assetKey, payoutReleasedJournal, payoutReservedJournal } from "@/lib/ledger/postings";
import { screenDestination } from "@/lib/services/compliance/screening";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { newPayoutRow, quoteFee, type PayoutDeps, type PayoutTerms } from "@/lib/services/money-out/payout-terms";
import { assertNotGatewayAddress } from "@/lib/services/money-out/gateway-addresses";
import { checkAddressOn } from "@/lib/services/money-out/payout-destination";
import { writePayout, type PayoutWriterDeps } from "@/lib/services/money-out/write-payout";
import { getMerchantWalletOrThrow, lockStaticWallet, type StaticWalletDeps } from "./static-wallets";
import type { WalletLookup } from "@/lib/api/requests/static-wallet";

/** The order_id prefix of the payouts that return a blocked wallet's held deposits. */
export const WALLET_REFUND_ORDER_PREFIX = "walletrefund:";

/** A blocked-address refund call: the merchant's wallet, where its held deposits go, and who asks. */
export interface WalletRefundRequest {
  merchantId: string;
  input: WalletLookup & { address?: string };
  actor: string;
}

/** The refund checked before the database: the wallet, the screened destination and the fee. */
export interface WalletRefundPlan {
  merchantId: string;
  actor: string;
  walletId: string;
  asset: SettlementAsset;
  network: NetworkId;
  address: string;
  fee: bigint;
  now: Date;
}

/**
 * Designed: POST /v1/wallet/blocked-address-refund. Every deposit the blocked wallet holds (and
 * no refund returns yet) goes back to `address` as one payout of kind `wallet_refund`, through
 * the payout machinery: auto-approved, the network fee taken from the amount, sent from the hot
 * wallet. In one transaction under the wallet's row lock: the payout, its reserve `blocked_held →
 * payout_held`, and the deposits bound to it — so however many calls race, each held deposit is
 * refunded once. A call that finds nothing held answers the refunds made so far
 * (`wallet.nothing_to_refund` when there are none). The destination is screened and the fee
 * quoted before the transaction.
 */
export const refundBlockedWallet = {
  prepare: planWalletRefund,
  execute: writeWalletRefund,
} satisfies UnitOfWork<WalletRefundRequest, WalletRefundPlan, BlockedWalletRefunds>;

async function planWalletRefund(deps: StaticWalletDeps & PayoutDeps, { merchantId, input, actor }: WalletRefundRequest): Promise<WalletRefundPlan> {
  const found = await getMerchantWalletOrThrow(deps, merchantId, input);
  if (found.status !== "blocked") throw new AppError("wallet.not_blocked");
  const given = input.address?.trim() ?? "";
  if (given === "") throw new AppError("wallet.no_address");
  const network = found.network as NetworkId;
  const address = checkAddressOn(network, given, addressChainOf(deps.config, network));
  await assertNotGatewayAddress(deps, { network, address }, "refund.destination_internal");
  await screenDestination(deps, { network, address });
  const asset = findSettlementAsset(found.currency, network)!;
  const fee = await quoteFee(deps, { asset });
  return { merchantId, actor, walletId: found.id, asset, network, address, fee, now: deps.now() };
}

async function writeWalletRefund(tx: Tx, deps: PayoutWriterDeps, plan: WalletRefundPlan): Promise<BlockedWalletRefunds> {
  const { merchantId, asset, network, address, fee, now } = plan;
  const wallet = await lockStaticWallet(tx, plan.walletId);
  const held = await tx.chainTransfer.findMany({ where: { staticWalletId: wallet.id, status: "confirmed", isHeld: true, refundPayoutId: null }, select: { id: true, amountMinor: true, fromAddress: true } });
  const total = held.reduce((sum, deposit) => sum + toMinor(deposit.amountMinor), 0n);
  if (total > 0n) {
    // The payer bears the network fee of sending it back.
    const amounts = computePayoutAmounts({ requested: total, fee, isSubtract: false });
    if (amounts === "below_fee") throw new AppError("refund.dust", "The held deposits do not exceed the network fee of sending them back.");
    const payoutId = randomUUID();
    const refund = wallet.refunds + 1;
    const terms: PayoutTerms = {
      orderId: `${WALLET_REFUND_ORDER_PREFIX}${wallet.id}:${refund}`,
      source: "api",
      destination: { asset, network, address, memo: undefined },
      requestedMinor: total,
      isSubtract: false,
      isSubtractGiven: true,
      amounts,
      urlCallback: wallet.urlCallback ?? undefined,
      conversion: undefined,
    };
    // Back to the one address that paid them all is never a drain; anywhere else passes the money-out policy.
    const written = await writePayout(tx, deps, {
      row: { ...newPayoutRow(payoutId, merchantId, terms, now), kind: "wallet_refund", staticWalletId: wallet.id },
      kind: "wallet_refund",
      actor: plan.actor,
      isToPayer: held.every((deposit) => deposit.fromAddress === address),
      reserve: { journals: [payoutReservedJournal({ payoutId, merchantId, asset: assetKey(wallet.currency, network), debit: amounts.debit, from: "blocked_held" })] },
    });
    // The order id counts the wallet's refunds under its lock: taken only by a bug.
    if (!written) throw new Error(`wallet refund ${terms.orderId} exists already`);
    await tx.chainTransfer.updateMany({ where: { id: { in: held.map((deposit) => deposit.id) } }, data: { refundPayoutId: payoutId, updatedAt: now } });
    await tx.staticWallet.update({ where: { id: wallet.id }, data: { refunds: refund, updatedAt: now } });
  }
  const refunds = await tx.payout.findMany({ where: { staticWalletId: wallet.id, kind: "wallet_refund" }, orderBy: { createdAt: "asc" } });
  if (refunds.length === 0) throw new AppError("wallet.nothing_to_refund");
  return { wallet: await tx.staticWallet.findUniqueOrThrow({ where: { id: wallet.id } }), refunds };
}

/** What the blocked-address refund answers: the wallet and every refund of its held deposits, oldest first. */
export interface BlockedWalletRefunds {
  wallet: StaticWallet;
  refunds: Payout[];
}

/**
 * Inside the transaction that moved a `wallet_refund` payout to failed or cancelled: its reserve
 * returns to blocked_held and its deposits are held again, free for the next refund call. Under
 * the wallet's row lock, as every writer of its deposits.
 */
export async function returnWalletRefund(tx: Tx, payout: Payout, now: Date): Promise<void> {
  if (!payout.staticWalletId) throw new Error(`payout ${payout.id} is not a wallet refund`);
  await lockStaticWallet(tx, payout.staticWalletId);
  await postJournal(tx, payoutReleasedJournal({ payoutId: payout.id, merchantId: payout.merchantId, asset: assetKey(payout.currency, payout.network), debit: toMinor(payout.debitMinor), to: "blocked_held" }), now);
  await tx.chainTransfer.updateMany({ where: { refundPayoutId: payout.id }, data: { refundPayoutId: null, updatedAt: now } });
}
