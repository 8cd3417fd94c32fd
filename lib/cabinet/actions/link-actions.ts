import { z } from "zod";
import { toStaticWallet, toWalletRefund } from "@/lib/api/serialize/static-wallet";
import { renderQrCode } from "@/lib/chains/addresses/qr-code";
import { createPaymentLink, togglePaymentLink } from "@/lib/services/payment-links/payment-links";
import { CREATE_PAYMENT_LINK_INPUT } from "@/lib/api/requests/payment-link";
import { toPaymentLinkObject } from "@/lib/api/serialize/payment-link";
import { cancelPayoutLink } from "@/lib/services/payout-links/cancel-payout-link";
import { createPayoutLink } from "@/lib/services/payout-links/create-payout-link";
import { CREATE_PAYOUT_LINK_INPUT } from "@/lib/api/requests/payout-link";
import { toPayoutLinkObject } from "@/lib/api/serialize/payout-link";
import { refundBlockedWallet } from "@/lib/services/static-wallets/refund-blocked-wallet";
import { blockStaticWallet, createStaticWallet } from "@/lib/services/static-wallets/static-wallets";
import { CREATE_STATIC_WALLET_INPUT, WALLET_LOOKUP_INPUT } from "@/lib/api/requests/static-wallet";
import { optionalText } from "@/lib/domain/input/optional-fields";
import { defineCabinetAction, defineCabinetUnit, type CabinetActionEntry } from "../action-table";
import { userActor } from "./payout-actions";

const walletById = { ...WALLET_LOOKUP_INPUT, schema: z.object({ uuid: z.string() }) };

/**
 * Payment links, payout links and static wallets: the same services, inputs and codes as their
 * /v1 operations (POST /v1/payment/link and /toggle, /v1/payout/link and /cancel, /v1/wallet,
 * /block and /blocked-address-refund), answered as the same objects.
 */
export const LINK_ACTIONS = {
  "payment_link.create": defineCabinetAction({
    permission: "links",
    audit: "payment_link.changed",
    input: CREATE_PAYMENT_LINK_INPUT,
    run: async ({ deps, actor }, input) => toPaymentLinkObject(await createPaymentLink(deps, actor.merchantId, input), deps.config.publicBaseUrl, deps.now()),
    describe: (_input, result) => ({ link: (result as { link_id: string }).link_id, change: "created" }),
  }),
  "payment_link.toggle": defineCabinetAction({
    permission: "links",
    audit: "payment_link.changed",
    input: { schema: z.object({ link_id: z.string(), is_active: z.boolean().optional() }), invalidBody: "paylink.bad_request", fieldErrors: { link_id: "paylink.bad_id" } },
    run: async ({ deps, actor }, input) => toPaymentLinkObject(await togglePaymentLink(deps, actor.merchantId, input), deps.config.publicBaseUrl, deps.now()),
    describe: (_input, result) => ({ link: (result as { link_id: string }).link_id, change: (result as { is_active: boolean }).is_active ? "enabled" : "disabled" }),
  }),
  "payout_link.create": defineCabinetUnit({
    // A payout link reserves money from the balance for whoever holds its URL: money, and a fresh code.
    permission: "money",
    audit: "payout_link.changed",
    input: CREATE_PAYOUT_LINK_INPUT,
    unit: createPayoutLink,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, input, actor: userActor(actor.userId) }),
    answer: async ({ link, claimToken }, { deps }) => {
      const object = toPayoutLinkObject(link, { claimToken, publicBaseUrl: deps.config.publicBaseUrl });
      // The claim URL is answered here only (its token is stored hashed): with its QR code for the page to show once.
      // Rendered uncached, not through qrCodeOf: the claim URL carries the token, shown once, that must not stay in memory.
      return { ...object, claim_qr_code: object.claim_url ? await renderQrCode(object.claim_url) : "" };
    },
    // Never the token: the link's id only.
    describe: (_input, result) => ({ link: (result as { link_id: string }).link_id, change: "created" }),
  }),
  "payout_link.cancel": defineCabinetUnit({
    permission: "money",
    audit: "payout_link.changed",
    input: { schema: z.object({ link_id: z.string() }), invalidBody: "payoutlink.bad_request", fieldErrors: { link_id: "payoutlink.bad_id" } },
    unit: cancelPayoutLink,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, linkId: input.link_id }),
    answer: (link, { deps }) => toPayoutLinkObject(link, { publicBaseUrl: deps.config.publicBaseUrl, now: deps.now() }),
    describe: (_input, result) => ({ link: (result as { link_id: string }).link_id, change: (result as { status: string }).status === "cancelled" ? "cancelled" : "cancel_answered_claimed" }),
  }),
  "static_wallet.create": defineCabinetUnit({
    permission: "links",
    audit: "static_wallet.changed",
    input: CREATE_STATIC_WALLET_INPUT,
    unit: createStaticWallet,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, input }),
    answer: toStaticWallet,
    describe: (_input, result) => ({ wallet: (result as { uuid: string }).uuid, change: "created" }),
  }),
  "static_wallet.block": defineCabinetUnit({
    permission: "links",
    audit: "static_wallet.changed",
    input: walletById,
    unit: blockStaticWallet,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, lookup: { uuid: input.uuid } }),
    answer: toStaticWallet,
    describe: (input) => ({ wallet: input.uuid, change: "blocked" }),
  }),
  "static_wallet.refund_blocked": defineCabinetUnit({
    // It sends the held deposits out to the address given, through the payout machinery: money, and a fresh code.
    permission: "money",
    audit: "static_wallet.changed",
    input: { ...WALLET_LOOKUP_INPUT, schema: z.object({ uuid: z.string(), address: optionalText }), fieldErrors: { uuid: "wallet.bad_uuid", address: "wallet.no_address" } },
    unit: refundBlockedWallet,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, input: { uuid: input.uuid, address: input.address }, actor: userActor(actor.userId) }),
    answer: async ({ wallet, refunds }) => ({ ...(await toStaticWallet(wallet)), refunds: refunds.map(toWalletRefund) }),
    describe: (input, result) => ({ wallet: input.uuid, change: "refund_blocked", refunds: (result as { refunds: unknown[] }).refunds.length }),
  }),
} satisfies Record<string, CabinetActionEntry>;
