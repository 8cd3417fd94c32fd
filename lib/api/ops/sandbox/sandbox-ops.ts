import { z } from "zod";
import { runUnit } from "@/lib/deps/unit-of-work";
import { AppError, isAppError, type ErrorCode } from "@/lib/errors";
import { expirePayoutLinkNow } from "@/lib/jobs/handlers/expire-payout-links";
import { PAYOUT_LINK_SCHEMA, toPayoutLinkObject } from "@/lib/api/serialize/payout-link";
import { assertSandboxEnabled, sandboxExpireInvoice } from "@/lib/services/sandbox/sandbox-operations";
import { depositOnSandbox, mineOnSandbox } from "@/lib/jobs/handlers/sandbox-chain";
import { defineOperation } from "../../operation";
import { PAYMENT_EXAMPLE, PAYMENT_SCHEMA, toPayment } from "../../serialize/payment";
import { merchantOf } from "../context";

/** Every sandbox operation: 404 with sandbox mode off; a network served by a real node is not driven from here. */
const SANDBOX_ERRORS: readonly ErrorCode[] = ["request.not_found", "sandbox.unknown_network", "sandbox.not_sandbox"];
const SANDBOX_ONLY = "Sandbox mode only (`GATEWAY_SANDBOX=1`); otherwise 404 `request.not_found`. A network served by a real node answers `sandbox.not_sandbox`.";

export const sandboxDepositOp = defineOperation({
  schema: z.object({
    network: z.string().describe("A network id of the catalogue, e.g. `tron`."),
    currency: z.string().describe("A coin the network carries, e.g. `USDT`."),
    address: z.string().describe("The receiving address (an invoice's or static wallet's deposit address), valid on the network."),
    amount: z.string().describe("A positive decimal string in the coin's units, within its decimals."),
    from_address: z.string().optional().describe("The sender, valid on the network; default a random sandbox address."),
  }),
  invalidBody: "sandbox.bad_request",
  fieldErrors: { address: "sandbox.bad_address", amount: "sandbox.bad_amount" },
  summary: "Send a sandbox transaction",
  description: `Puts a transaction with 0 confirmations on the network's sandbox chain and lets the watcher see it at once, as a payer's transfer would be seen. Mine blocks to confirm it. ${SANDBOX_ONLY}`,
  response: z.object({ txid: z.string().describe("The transaction's hash, in the network's format.") }),
  errors: SANDBOX_ERRORS,
  requestExample: { network: "tron", currency: "USDT", address: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf", amount: "25.4019" },
  responseExample: { txid: "5d41402abc4b2a76b9719d911017c5925d41402abc4b2a76b9719d911017c592" },
  handle: (input, context) => depositOnSandbox(context.deps, input),
});

export const sandboxMineOp = defineOperation({
  schema: z.object({
    network: z.string().describe("A network id of the catalogue, e.g. `tron`."),
    blocks: z.number().int().optional().describe("Blocks to mine, 1 to 1000; default 1."),
  }),
  invalidBody: "sandbox.bad_request",
  summary: "Mine sandbox blocks",
  description: `Mines \`blocks\` blocks on the network's sandbox chain, confirming what is in its mempool (deposits and payouts), and lets the watcher see them at once. ${SANDBOX_ONLY}`,
  response: z.object({ height: z.number().int().describe("The chain's height after mining.") }),
  errors: SANDBOX_ERRORS,
  requestExample: { network: "tron", blocks: 20 },
  responseExample: { height: 1284 },
  handle: (input, context) => mineOnSandbox(context.deps, input),
});

export const sandboxExpireOp = defineOperation({
  schema: z.object({
    uuid: z.string().optional().describe("An invoice of the merchant to expire."),
    link_id: z.string().optional().describe("A payout link of the merchant to expire, when `uuid` is not given."),
  }),
  invalidBody: "sandbox.bad_request",
  summary: "Expire an invoice or a payout link now",
  description:
    "Treats the term of the invoice (`uuid`) or payout link (`link_id`) as reached and runs the expiry work at once: an invoice that received nothing becomes `cancel` and an underpaid one `wrong_amount`, with their webhooks (a transfer still confirming is waited for); a funded payout link becomes `expired` and its reserve returns to the balance. Something already final stays as it is. Answers the payment object or the payout link object. Sandbox mode only (`GATEWAY_SANDBOX=1`); otherwise 404 `request.not_found`.",
  response: z.union([PAYMENT_SCHEMA, PAYOUT_LINK_SCHEMA]).describe("With `uuid`: the payment object; with `link_id`: the payout link object."),
  errors: ["request.not_found", "sandbox.not_found", "payoutlink.disabled"],
  requestExample: { uuid: PAYMENT_EXAMPLE.uuid },
  responseExample: { ...PAYMENT_EXAMPLE, payment_status: "cancel", is_final: true, expired_at: 1767225900, updated_at: "2026-01-01T00:05:00.000Z" },
  handle: async (input, context) => {
    assertSandboxEnabled(context.deps.config);
    if (input.uuid !== undefined) {
      return toPayment(await runUnit(context.deps, sandboxExpireInvoice, { merchantId: merchantOf(context), uuid: input.uuid }), context.deps.config.publicBaseUrl);
    }
    if (input.link_id !== undefined) {
      try {
        return toPayoutLinkObject(await expirePayoutLinkNow(context.deps, merchantOf(context), input.link_id), { publicBaseUrl: context.deps.config.publicBaseUrl });
      } catch (error) {
        if (isAppError(error) && (error.code === "payoutlink.not_found" || error.code === "payoutlink.bad_id")) throw new AppError("sandbox.not_found");
        throw error;
      }
    }
    throw new AppError("sandbox.bad_request", "Give uuid or link_id.");
  },
});
