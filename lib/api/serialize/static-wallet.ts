import type { ChainTransfer, Payout, StaticWallet } from "@/generated/prisma/client";
import { findSettlementAsset } from "@/lib/catalogue";
import { formatAmount } from "@/lib/domain/money/amount";
import { walletDepositStatus } from "@/lib/domain/static-wallet/deposit";
import { toMinor } from "@/lib/services/invoices/invoice-view";
import { describePayout, toRefundElement } from "@/lib/services/payouts/payout-view";
import { qrCodeOf } from "./payment";

/** Designed: the static wallet object (create, info, list, block). */
export interface StaticWalletObject {
  uuid: string;
  order_id: string;
  currency: string;
  network: string;
  address: string;
  address_qr_code: string;
  /** `active`, or `blocked`: later deposits are held for the blocked-address refund. */
  status: string;
  url_callback: string;
  created_at: string;
  updated_at: string;
  /** When it was blocked (RFC 3339); null while active. */
  blocked_at: string | null;
}

export async function toStaticWallet(wallet: StaticWallet): Promise<StaticWalletObject> {
  return {
    uuid: wallet.id,
    order_id: wallet.orderId,
    currency: wallet.currency,
    network: wallet.network,
    address: wallet.address,
    address_qr_code: await qrCodeOf(wallet.address),
    status: wallet.status,
    url_callback: wallet.urlCallback ?? "",
    created_at: wallet.createdAt.toISOString(),
    updated_at: wallet.updatedAt.toISOString(),
    blocked_at: wallet.blockedAt?.toISOString() ?? null,
  };
}

/** Designed: one deposit of a static wallet (its uuid is the `uuid` of its `wallet.paid` event). */
export function toWalletDeposit(deposit: ChainTransfer, wallet: Pick<StaticWallet, "currency" | "network">) {
  return {
    uuid: deposit.id,
    txid: deposit.txid,
    amount: formatWalletAmount(toMinor(deposit.amountMinor), wallet),
    payer_address: deposit.fromAddress,
    status: walletDepositStatus(deposit),
    confirmations: deposit.confirmations,
    refund_uuid: deposit.refundPayoutId ?? "",
    created_at: deposit.createdAt.toISOString(),
  };
}

/** An amount of the wallet's coin (minor units) as a decimal string. */
export function formatWalletAmount(minor: bigint, wallet: Pick<StaticWallet, "currency" | "network">): string {
  return formatAmount(minor, decimalsOf(wallet));
}

/** A refund of a blocked wallet's held deposits: the spec's refund element, with what the payer receives. */
export function toWalletRefund(refund: Payout) {
  const view = describePayout(refund);
  return { ...toRefundElement(refund), commission: view.fee, receive_amount: view.receiveAmount };
}

function decimalsOf(wallet: Pick<StaticWallet, "currency" | "network">): number {
  return findSettlementAsset(wallet.currency, wallet.network)?.decimals ?? 0;
}
