import { z } from "zod";
import type { ChainTransfer, Payout, StaticWallet } from "@/generated/prisma/client";
import { findSettlementAsset } from "@/lib/catalogue";
import { formatAmount } from "@/lib/domain/money/amount";
import { walletDepositStatus } from "@/lib/domain/static-wallet/deposit";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { describePayout, toRefundElement } from "@/lib/api/serialize/payout";
import { qrCodeOf } from "./payment";
import { REFUND_ELEMENT_SCHEMA } from "./payout";
import type { WalletEventFields } from "@/lib/webhooks/payloads";

const decimal = (what: string) => z.string().describe(`${what}, a decimal string in the wallet's coin.`);
const timestamp = (what: string) => z.iso.datetime().describe(`${what} (RFC 3339, UTC).`);

/** Designed: the static wallet object (create, info, list, block). */
export const STATIC_WALLET_SCHEMA = z
  .object({
    uuid: z.uuid().describe("The wallet's identifier."),
    order_id: z.string().describe("The merchant's reference of the customer the wallet was made for (1–128 characters)."),
    currency: z.string().describe("The coin the wallet receives, e.g. `USDT`."),
    network: z.string().describe("The network id, e.g. `tron`."),
    address: z.string().describe("The permanent deposit address."),
    address_qr_code: z.string().describe("A `data:` URI (SVG) with a QR code of `address`."),
    status: z.enum(["active", "blocked"]).describe("`active` (deposits are credited), or `blocked`: deposits first seen from `blocked_at` on are held for the blocked-address refund."),
    url_callback: z.string().describe("Where this wallet's `wallet.paid` events also go; empty when none."),
    created_at: timestamp("Creation time"),
    updated_at: timestamp("Last change"),
    blocked_at: z.iso.datetime().nullable().describe("When the wallet was blocked (RFC 3339, UTC); null while active."),
  })
  .meta({ id: "StaticWallet", description: "A permanent deposit address for one of the merchant's customers (`order_id`) in one coin on one network." });

export type StaticWalletObject = z.output<typeof STATIC_WALLET_SCHEMA>;

/** Designed: one deposit of a static wallet, as wallet info lists it. */
export const WALLET_DEPOSIT_SCHEMA = z
  .object({
    uuid: z.uuid().describe("The deposit's identifier: the `uuid` of its `wallet.paid` event."),
    txid: z.string().describe("Hash of the deposit transaction."),
    amount: decimal("The amount received"),
    payer_address: z.string().describe("The address the deposit came from; empty on Bitcoin-like networks."),
    status: z
      .enum(["confirm_check", "paid", "held", "refunded"])
      .describe("`confirm_check` (waiting for confirmations), `paid` (credited, net of the platform fee), `held` (arrived after blocking, waiting for the blocked-address refund), `refunded` (held and bound to the refund that returns it)."),
    confirmations: z.number().int().describe("Network confirmations so far."),
    refund_uuid: z.string().describe("The refund (a payout) that returns a held deposit; empty until there is one."),
    created_at: timestamp("When the deposit was first seen"),
  })
  .meta({ id: "WalletDeposit", description: "A deposit to a static wallet's address." });

/** Designed: a refund of a blocked wallet's held deposits: the refund element, with its fee and what the payer receives. */
export const WALLET_REFUND_SCHEMA = REFUND_ELEMENT_SCHEMA.extend({
  uuid: z.uuid().describe("The refund's identifier (a payout of kind `wallet_refund`; its progress arrives as `payout.*` events)."),
  amount: decimal("The held deposits it returns, before the network fee"),
  commission: decimal("The network fee, taken from `amount`"),
  receive_amount: decimal("What the payer receives: `amount` less `commission`"),
}).meta({ id: "WalletRefund", description: "A refund of a blocked static wallet's held deposits." });

export const STATIC_WALLET_EXAMPLE: StaticWalletObject = {
  uuid: "8c1d4e2a-5b7f-4a39-9e0c-2f6b1a8d7c54",
  order_id: "customer-4412",
  currency: "USDT",
  network: "tron",
  address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
  address_qr_code: "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=",
  status: "active",
  url_callback: "https://shop.example.com/hooks/wallets",
  created_at: "2026-01-05T09:30:00.000Z",
  updated_at: "2026-01-05T09:30:00.000Z",
  blocked_at: null,
};

export async function toStaticWallet(wallet: StaticWallet): Promise<StaticWalletObject> {
  return {
    uuid: wallet.id,
    order_id: wallet.orderId,
    currency: wallet.currency,
    network: wallet.network,
    address: wallet.address,
    address_qr_code: await qrCodeOf(wallet.address),
    status: wallet.status as StaticWalletObject["status"],
    url_callback: wallet.urlCallback ?? "",
    created_at: wallet.createdAt.toISOString(),
    updated_at: wallet.updatedAt.toISOString(),
    blocked_at: wallet.blockedAt?.toISOString() ?? null,
  };
}

/** Designed: one deposit of a static wallet (its uuid is the `uuid` of its `wallet.paid` event). */
export function toWalletDeposit(deposit: ChainTransfer, wallet: Pick<StaticWallet, "currency" | "network">): z.output<typeof WALLET_DEPOSIT_SCHEMA> {
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
export function toWalletRefund(refund: Payout): z.output<typeof WALLET_REFUND_SCHEMA> {
  const view = describePayout(refund);
  return { ...toRefundElement(refund), commission: view.fee, receive_amount: view.receiveAmount };
}

function decimalsOf(wallet: Pick<StaticWallet, "currency" | "network">): number {
  return findSettlementAsset(wallet.currency, wallet.network)?.decimals ?? 0;
}

/** spec: Webhooks — the fields of a credited deposit's `wallet.paid` event body. */
export function toWalletPaidEventFields(wallet: StaticWallet, deposit: ChainTransfer): WalletEventFields {
  const decimals = findSettlementAsset(wallet.currency, wallet.network)!.decimals;
  return {
    uuid: deposit.id,
    wallet_uuid: wallet.id,
    order_id: wallet.orderId,
    address: wallet.address,
    network: wallet.network,
    currency: wallet.currency,
    payment_amount: formatAmount(toMinor(deposit.amountMinor), decimals),
    payer_currency: wallet.currency,
    txid: deposit.txid,
    status: "paid",
    is_final: true,
  };
}
