import { z } from "zod";
import type { ErrorCode } from "@/lib/errors";
import { blockStaticWallet, createStaticWallet, getMerchantWalletOrThrow, listStaticWallets, listWalletDeposits } from "@/lib/services/static-wallets/static-wallets";
import { CREATE_STATIC_WALLET_INPUT, WALLET_LOOKUP_INPUT, walletLookupSchema } from "@/lib/api/requests/static-wallet";
import { refundBlockedWallet } from "@/lib/services/static-wallets/refund-blocked-wallet";
import { optionalText } from "@/lib/domain/input/optional-fields";
import { defineOperation, defineWork } from "../../operation";
import { qrCodeOf } from "../../serialize/payment";
import {
  formatWalletAmount,
  STATIC_WALLET_EXAMPLE,
  STATIC_WALLET_SCHEMA,
  toStaticWallet,
  toWalletDeposit,
  toWalletRefund,
  WALLET_DEPOSIT_SCHEMA,
  WALLET_REFUND_SCHEMA,
} from "../../serialize/static-wallet";
import { actorOf, merchantOf } from "../context";

/** Deposits wallet info shows, newest first. */
const INFO_DEPOSITS = 100;

/** Codes of naming a wallet by `uuid` or `order_id`, beyond the input checks. */
const LOOKUP_ERRORS: readonly ErrorCode[] = ["wallet.no_lookup", "wallet.no_network", "wallet.static_not_found", "wallet.disabled"];
const LOOKUP_DESCRIPTION =
  "Name the wallet by `uuid`, or by the `order_id` it was made for with its `currency` (and `network` where the coin has several). Another merchant's wallet is `wallet.static_not_found`, like a missing one.";
const LOOKUP_EXAMPLE = { uuid: STATIC_WALLET_EXAMPLE.uuid };
const BLOCKED_WALLET_EXAMPLE = { ...STATIC_WALLET_EXAMPLE, status: "blocked" as const, updated_at: "2026-02-10T14:00:00.000Z", blocked_at: "2026-02-10T14:00:00.000Z" };
const PAYER_ADDRESS_EXAMPLE = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";
const WALLET_REFUND_EXAMPLE = {
  uuid: "5e3a9c1b-7d2f-4e8a-b6c0-1f4d8a2e9b73",
  status: "process" as const,
  amount: "40",
  address: PAYER_ADDRESS_EXAMPLE,
  txid: "",
  is_final: false,
  created_at: "2026-02-11T08:15:00.000Z",
  commission: "1",
  receive_amount: "39",
};

const WALLET_INFO_SCHEMA = STATIC_WALLET_SCHEMA.extend({
  held_amount: z.string().describe("Deposits held since blocking that no refund returns yet, a decimal string in the wallet's coin (`0` when none)."),
  deposits: z.array(WALLET_DEPOSIT_SCHEMA).describe(`The ${INFO_DEPOSITS} newest deposits, newest first.`),
}).meta({ id: "StaticWalletInfo", description: "A static wallet with what it holds for the blocked-address refund and its newest deposits." });

const WALLET_REFUNDS_SCHEMA = STATIC_WALLET_SCHEMA.extend({
  refunds: z.array(WALLET_REFUND_SCHEMA).describe("Every refund of the wallet's held deposits, oldest first."),
}).meta({ id: "StaticWalletRefunds", description: "A blocked static wallet with every refund of its held deposits." });

/** Designed: POST /v1/wallet — the wallet of (order_id, currency, network), made on first call. */
export const createStaticWalletOp = defineWork({
  ...CREATE_STATIC_WALLET_INPUT,
  summary: "Create (or get) a customer's static wallet",
  description: [
    "Designed: a permanent deposit address for your customer `order_id` in one coin on one network. The same (`order_id`, `currency`, `network`) answers the same wallet, also under concurrent calls; a repeat changes nothing (its `url_callback` is ignored).",
    "Every deposit that reaches the confirmations of its value is credited once, net of the platform fee (your percentage plus the fixed part, fixed in the coin when the wallet is made), and announced by a `wallet.paid` event to the registered endpoint and to `url_callback`.",
    "`network` may be omitted where the coin is on one network only (`wallet.no_network` otherwise). No exchange rate to fix the fee: `wallet.quote_failed` (503), nothing created, retry with backoff. `wallet.disabled` (503) when static wallets are turned off.",
  ].join("\n\n"),
  response: STATIC_WALLET_SCHEMA,
  errors: ["wallet.no_network", "wallet.quote_failed", "wallet.disabled", "invoice.address_failed"],
  requestExample: { currency: "USDT", network: "tron", order_id: "customer-4412", url_callback: "https://shop.example.com/hooks/wallets" },
  responseExample: STATIC_WALLET_EXAMPLE,
  unit: createStaticWallet,
  args: (input, context) => ({ merchantId: merchantOf(context), input }),
  answer: toStaticWallet,
});

/** Designed: POST /v1/wallet/info — the wallet, what it holds for the blocked-address refund, and its newest deposits. */
export const staticWalletInfoOp = defineOperation({
  ...WALLET_LOOKUP_INPUT,
  summary: "Get a static wallet with its deposits",
  description: `Designed: the wallet object, plus \`held_amount\` (deposits held since blocking that no refund returns yet) and \`deposits\`, the ${INFO_DEPOSITS} newest, newest first. ${LOOKUP_DESCRIPTION}`,
  response: WALLET_INFO_SCHEMA,
  errors: LOOKUP_ERRORS,
  requestExample: LOOKUP_EXAMPLE,
  responseExample: {
    ...STATIC_WALLET_EXAMPLE,
    held_amount: "0",
    deposits: [
      {
        uuid: "0b6f2d9e-3c4a-4d1b-8e7f-6a5c9d2b1e40",
        txid: "7c1e4b2a9d8f6e5c3b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c",
        amount: "150",
        payer_address: PAYER_ADDRESS_EXAMPLE,
        status: "paid",
        confirmations: 20,
        refund_uuid: "",
        created_at: "2026-01-06T11:02:41.000Z",
      },
    ],
  },
  handle: async (input, context) => {
    const wallet = await getMerchantWalletOrThrow(context.deps, merchantOf(context), input);
    const { deposits, heldMinor } = await listWalletDeposits(context.deps.db, wallet.id, INFO_DEPOSITS);
    return { ...(await toStaticWallet(wallet)), held_amount: formatWalletAmount(heldMinor, wallet), deposits: deposits.map((deposit) => toWalletDeposit(deposit, wallet)) };
  },
});

/** Designed: POST /v1/wallet/list — `limit` 1–100 (else 20), newest first, `{items, paginate: {count, next_cursor}}`. */
export const listStaticWalletsOp = defineOperation({
  schema: z.object({
    // Any value is accepted (an unusable one gives 20); the document still says what to send.
    limit: z
      .unknown()
      .optional()
      .meta({ override: { type: "integer", description: "Wallets per page, from 1 to 100; anything else (absent, out of range, not an integer) gives 20." } }),
    cursor: optionalText.describe("The `next_cursor` of the previous page; absent for the first page."),
  }),
  invalidBody: "wallet.bad_request",
  fieldErrors: { cursor: "wallet.bad_cursor" },
  summary: "List static wallets",
  description:
    "Designed: the merchant's static wallets, newest first, keyset-paginated: pass `paginate.next_cursor` back as `cursor` until it is `null`. `limit` is 1–100; any other value gives 20 (not an error).",
  response: z.object({
    items: z.array(STATIC_WALLET_SCHEMA).describe("This page's wallets, newest first."),
    paginate: z.object({
      count: z.number().int().describe("Wallets on this page."),
      next_cursor: z.string().nullable().describe("The `cursor` of the next page; null on the last page."),
    }),
  }),
  errors: ["wallet.disabled"],
  requestExample: { limit: 20 },
  responseExample: { items: [STATIC_WALLET_EXAMPLE], paginate: { count: 1, next_cursor: null } },
  handle: async (input, context) => {
    const limit = typeof input.limit === "number" && Number.isInteger(input.limit) && input.limit >= 1 && input.limit <= 100 ? input.limit : 20;
    const page = await listStaticWallets(context.deps, merchantOf(context), { limit, cursor: input.cursor });
    return { items: await Promise.all(page.items.map(toStaticWallet)), paginate: { count: page.items.length, next_cursor: page.nextCursor } };
  },
});

/** Designed: POST /v1/wallet/qr — `{image}`: a `data:` URI with a QR code of the wallet's address. */
export const staticWalletQrOp = defineOperation({
  ...WALLET_LOOKUP_INPUT,
  summary: "Get a QR code of a static wallet's address",
  description: `Designed: \`image\`, a \`data:\` URI (SVG) with a QR code of the wallet's address (the same as its \`address_qr_code\`). ${LOOKUP_DESCRIPTION}`,
  response: z.object({ image: z.string().describe("A `data:image/svg+xml;base64,…` URI.") }),
  errors: LOOKUP_ERRORS,
  requestExample: LOOKUP_EXAMPLE,
  responseExample: { image: STATIC_WALLET_EXAMPLE.address_qr_code },
  handle: async (input, context) => ({ image: await qrCodeOf((await getMerchantWalletOrThrow(context.deps, merchantOf(context), input)).address) }),
});

/** Designed: POST /v1/wallet/block — the wallet, blocked. */
export const blockStaticWalletOp = defineWork({
  ...WALLET_LOOKUP_INPUT,
  summary: "Block a static wallet",
  description: `Designed: from now on the address credits nothing. Deposits first seen after blocking are held (never credited, no event) for the blocked-address refund. A deposit being credited at that moment finishes first; blocking a blocked wallet answers it as it is. ${LOOKUP_DESCRIPTION}`,
  response: STATIC_WALLET_SCHEMA,
  errors: LOOKUP_ERRORS,
  requestExample: LOOKUP_EXAMPLE,
  responseExample: BLOCKED_WALLET_EXAMPLE,
  unit: blockStaticWallet,
  args: (lookup, context) => ({ merchantId: merchantOf(context), lookup }),
  answer: toStaticWallet,
});

/** Designed: POST /v1/wallet/blocked-address-refund — the held deposits back to `address`; answers every refund of the wallet. */
export const refundBlockedWalletOp = defineWork({
  schema: walletLookupSchema.extend({ address: optionalText.describe("Where the held deposits go back to, on the wallet's network (required).") }),
  invalidBody: "wallet.bad_request",
  fieldErrors: { ...WALLET_LOOKUP_INPUT.fieldErrors, address: "wallet.no_address" },
  summary: "Refund a blocked static wallet's held deposits",
  description: [
    "Designed: every deposit the blocked wallet holds, and no refund returns yet, goes back to `address` as one payout of kind `wallet_refund` (`order_id` `walletrefund:<wallet uuid>:<n>`): auto-approved, the network fee taken from the amount. However many calls race, each held deposit is refunded once. The refund's progress arrives as `payout.*` events.",
    "Answers the wallet with `refunds`, every refund of its held deposits, oldest first; a call that finds nothing held answers the refunds made so far.",
    "`address` is checked like a payout destination (`payout.bad_address`, `payout.address_network_mismatch`, `refund.destination_internal`, `compliance.blocked`). `wallet.not_blocked` (409) for an active wallet; `wallet.nothing_to_refund` when it never held anything; `refund.dust` when the held amount does not exceed the network fee; `payout.frozen` (409) within the freeze after a new key that can move money, unless `address` is the one that paid every held deposit. " +
      LOOKUP_DESCRIPTION,
  ].join("\n\n"),
  response: WALLET_REFUNDS_SCHEMA,
  errors: [
    ...LOOKUP_ERRORS,
    "wallet.not_blocked",
    "wallet.nothing_to_refund",
    "payout.bad_address",
    "payout.address_network_mismatch",
    "refund.destination_internal",
    "refund.dust",
    "compliance.blocked",
    "compliance.unavailable",
    "payout.convert_no_rate",
    "payout.frozen",
  ],
  requestExample: { uuid: STATIC_WALLET_EXAMPLE.uuid, address: PAYER_ADDRESS_EXAMPLE },
  responseExample: { ...BLOCKED_WALLET_EXAMPLE, updated_at: WALLET_REFUND_EXAMPLE.created_at, refunds: [WALLET_REFUND_EXAMPLE] },
  unit: refundBlockedWallet,
  args: (input, context) => ({ merchantId: merchantOf(context), input, actor: actorOf(context) }),
  answer: async ({ wallet, refunds }) => ({ ...(await toStaticWallet(wallet)), refunds: refunds.map(toWalletRefund) }),
});
