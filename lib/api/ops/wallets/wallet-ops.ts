import { z } from "zod";
import type { StaticWallet } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import {
  blockStaticWallet,
  CREATE_STATIC_WALLET_INPUT,
  createStaticWallet,
  getMerchantWalletOrThrow,
  listStaticWallets,
  listWalletDeposits,
  WALLET_LOOKUP_INPUT,
  walletLookupSchema,
} from "@/lib/services/static-wallets/static-wallets";
import { refundBlockedWallet, type BlockedWalletRefunds } from "@/lib/services/static-wallets/refund-blocked-wallet";
import { optionalText } from "@/lib/services/invoices/create-invoice-input";
import { defineOperation } from "../../operation";
import { qrCodeOf } from "../../serialize/payment";
import { formatWalletAmount, toStaticWallet, toWalletDeposit, toWalletRefund } from "../../serialize/static-wallet";
import { actorOf, merchantOf } from "../context";

/** Deposits wallet info shows, newest first. */
const INFO_DEPOSITS = 100;

/** Designed: POST /v1/wallet — the wallet of (order_id, currency, network), made on first call. */
export const createStaticWalletOp = defineOperation({
  ...CREATE_STATIC_WALLET_INPUT,
  handle: async (input, context) => {
    const { completeWithin } = context;
    const onWritten = completeWithin && (async (tx: Tx, wallet: StaticWallet) => completeWithin(tx, await toStaticWallet(wallet)));
    return toStaticWallet(await createStaticWallet(context.deps, merchantOf(context), input, { onWritten }));
  },
});

/** Designed: POST /v1/wallet/info — the wallet, what it holds for the blocked-address refund, and its newest deposits. */
export const staticWalletInfoOp = defineOperation({
  ...WALLET_LOOKUP_INPUT,
  handle: async (input, context) => {
    const wallet = await getMerchantWalletOrThrow(context.deps, merchantOf(context), input);
    const { deposits, heldMinor } = await listWalletDeposits(context.deps.db, wallet.id, INFO_DEPOSITS);
    return { ...(await toStaticWallet(wallet)), held_amount: formatWalletAmount(heldMinor, wallet), deposits: deposits.map((deposit) => toWalletDeposit(deposit, wallet)) };
  },
});

/** Designed: POST /v1/wallet/list — `limit` 1–100 (else 20), newest first, `{items, paginate: {count, next_cursor}}`. */
export const listStaticWalletsOp = defineOperation({
  schema: z.object({ limit: z.unknown().optional(), cursor: optionalText }),
  invalidBody: "wallet.bad_request",
  fieldErrors: { cursor: "wallet.bad_cursor" },
  handle: async (input, context) => {
    const limit = typeof input.limit === "number" && Number.isInteger(input.limit) && input.limit >= 1 && input.limit <= 100 ? input.limit : 20;
    const page = await listStaticWallets(context.deps, merchantOf(context), { limit, cursor: input.cursor });
    return { items: await Promise.all(page.items.map(toStaticWallet)), paginate: { count: page.items.length, next_cursor: page.nextCursor } };
  },
});

/** Designed: POST /v1/wallet/qr — `{image}`: a `data:` URI with a QR code of the wallet's address. */
export const staticWalletQrOp = defineOperation({
  ...WALLET_LOOKUP_INPUT,
  handle: async (input, context) => ({ image: await qrCodeOf((await getMerchantWalletOrThrow(context.deps, merchantOf(context), input)).address) }),
});

/** Designed: POST /v1/wallet/block — the wallet, blocked. */
export const blockStaticWalletOp = defineOperation({
  ...WALLET_LOOKUP_INPUT,
  handle: async (input, context) => toStaticWallet(await blockStaticWallet(context.deps, merchantOf(context), input)),
});

/** Designed: POST /v1/wallet/blocked-address-refund — the held deposits back to `address`; answers every refund of the wallet. */
export const refundBlockedWalletOp = defineOperation({
  schema: walletLookupSchema.extend({ address: optionalText }),
  invalidBody: "wallet.bad_request",
  fieldErrors: { ...WALLET_LOOKUP_INPUT.fieldErrors, address: "wallet.no_address" },
  handle: async (input, context) => {
    const serialize = async ({ wallet, refunds }: BlockedWalletRefunds) => ({ ...(await toStaticWallet(wallet)), refunds: refunds.map(toWalletRefund) });
    const { completeWithin } = context;
    const onWritten = completeWithin && (async (tx: Tx, answer: BlockedWalletRefunds) => completeWithin(tx, await serialize(answer)));
    return serialize(await refundBlockedWallet(context.deps, merchantOf(context), input, { actor: actorOf(context), onWritten }));
  },
});
