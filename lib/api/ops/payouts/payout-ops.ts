import { z } from "zod";
import type { Payout } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import { coarsePayoutStatus, PAYOUT_STATUSES, type CoarsePayoutStatus } from "@/lib/domain/payout/transition";
import { listBalances } from "@/lib/services/balances/list-balances";
import { deleteAutoWithdrawRule, listAutoWithdrawRules, setAutoWithdrawRule } from "@/lib/services/payouts/auto-withdraw";
import { createPayout } from "@/lib/services/payouts/create-payout";
import { createPayoutsInOrder } from "@/lib/services/payouts/create-payouts-in-order";
import { CREATE_PAYOUT_INPUT, createPayoutBodySchema } from "@/lib/services/payouts/create-payout-input";
import {
  calculatePayout,
  cancelPayout,
  decidePendingPayout,
  getMerchantPayoutOrThrow,
  getPayoutFeeConfig,
  listPayouts,
  setPayoutFeeConfig,
} from "@/lib/services/payouts/manage-payouts";
import { optionalText } from "@/lib/services/invoices/create-invoice-input";
import { formatAmount } from "@/lib/domain/money/amount";
import { AppError, isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { defineOperation } from "../../operation";
import { toPayoutObject } from "../../serialize/payout";
import { actorOf, merchantOf } from "../context";

export const createPayoutOp = defineOperation({
  ...CREATE_PAYOUT_INPUT,
  handle: async (input, context) => {
    const { completeWithin } = context;
    const onWritten = completeWithin && ((tx: Tx, payout: Payout) => completeWithin(tx, toPayoutObject(payout)));
    return toPayoutObject(await createPayout(context.deps, merchantOf(context), input, { actor: actorOf(context), onWritten }));
  },
});

const lookupSchema = z.object({ uuid: z.string().optional(), order_id: z.string().optional() });

export const payoutInfoOp = defineOperation({
  schema: lookupSchema,
  invalidBody: "payout.bad_request",
  fieldErrors: { uuid: "payout.bad_uuid" },
  handle: async (input, context) => toPayoutObject(await getMerchantPayoutOrThrow(context.deps.db, merchantOf(context), input)),
});

export const approvePayoutOp = defineOperation({
  schema: lookupSchema.extend({ approve: z.boolean().optional() }),
  invalidBody: "payout.bad_request",
  fieldErrors: { uuid: "payout.bad_uuid" },
  handle: async (input, context) => toPayoutObject(await decidePendingPayout(context.deps, merchantOf(context), input, actorOf(context))),
});

export const cancelPayoutOp = defineOperation({
  schema: lookupSchema,
  invalidBody: "payout.bad_request",
  fieldErrors: { uuid: "payout.bad_uuid" },
  handle: async (input, context) => toPayoutObject(await cancelPayout(context.deps, merchantOf(context), input)),
});

const COARSE_STATUSES = ["check", "process", "paid", "fail", "cancel"] as const;

export const listPayoutsOp = defineOperation({
  schema: z.object({
    limit: z.number().int().optional(),
    cursor: optionalText,
    status: z.union([z.enum(COARSE_STATUSES), z.array(z.enum(COARSE_STATUSES))]).optional(),
    currency: optionalText,
    network: optionalText,
  }),
  invalidBody: "payout.bad_request",
  handle: async (input, context) => {
    // limit outside 1–100 becomes 20, as in the payment list.
    const limit = input.limit !== undefined && input.limit >= 1 && input.limit <= 100 ? input.limit : 20;
    const coarse: CoarsePayoutStatus[] | undefined = input.status === undefined ? undefined : Array.isArray(input.status) ? input.status : [input.status];
    const page = await listPayouts(
      context.deps.db,
      merchantOf(context),
      {
        status: coarse && PAYOUT_STATUSES.filter((status) => coarse.includes(coarsePayoutStatus(status))),
        currency: input.currency ? normalizeSymbol(input.currency) : undefined,
        network: input.network ? normalizeNetworkId(input.network) : undefined,
      },
      { limit, cursor: input.cursor },
    );
    const items = page.items.map(toPayoutObject);
    return { items, paginate: { count: items.length, next_cursor: page.nextCursor } };
  },
});

export const calculatePayoutOp = defineOperation({
  schema: createPayoutBodySchema.pick({ amount: true, currency: true, network: true, address: true, is_subtract: true, from_currency: true }),
  invalidBody: "payout.bad_request",
  fieldErrors: CREATE_PAYOUT_INPUT.fieldErrors,
  handle: (input, context) => calculatePayout(context.deps, merchantOf(context), input),
});

export const getPayoutFeeConfigOp = defineOperation({
  schema: z.object({}),
  invalidBody: "payout.bad_request",
  handle: (_input, context) => getPayoutFeeConfig(context.deps.db, merchantOf(context)),
});

export const setPayoutFeeConfigOp = defineOperation({
  schema: z.object({ is_subtract: z.boolean() }),
  invalidBody: "payout.bad_request",
  handle: (input, context) => setPayoutFeeConfig(context.deps.db, merchantOf(context), input.is_subtract),
});

/** Designed: /v1/balance — the merchant's buckets per asset, as decimal strings in each asset's units. */
export const balanceOp = defineOperation({
  schema: z.object({ currency: optionalText, network: optionalText }),
  invalidBody: "balance.bad_request",
  handle: async (input, context) => {
    const balances = await listBalances(context.deps.db, merchantOf(context), input);
    return {
      balances: balances.map((balance) => {
        const format = (minor: bigint) => formatAmount(minor, balance.decimals);
        return {
          currency: balance.currency,
          network: balance.network,
          incoming: format(balance.incoming),
          maturing: format(balance.maturing),
          available: format(balance.available),
          payout_held: format(balance.payoutHeld),
          split_held: format(balance.splitHeld),
          debt: format(balance.debt),
        };
      }),
    };
  },
});

/** spec: Limits — the legacy mass call takes at most 100 payouts. */
const MAX_MASS_PAYOUTS = 100;

/**
 * spec: POST /v1/payout/mass (legacy) — synchronous, in order; each element idempotent by its
 * order_id; a failed element answers a human message, not a code.
 */
export const massPayoutOp = defineOperation({
  schema: z.object({ payouts: z.array(z.unknown()), source: z.enum(["api", "manual"]).optional() }),
  invalidBody: "payout.bad_request",
  fieldErrors: { payouts: "payout.empty_batch" },
  handle: async (input, context) => {
    if (input.payouts.length === 0) throw new AppError("payout.empty_batch");
    if (input.payouts.length > MAX_MASS_PAYOUTS) throw new AppError("payout.batch_too_large");
    // Each element as the single call would make it, in order against the balance; the top-level
    // source applies to the elements without their own.
    const requests = input.payouts.map((element) => (typeof element === "object" && element !== null && input.source !== undefined ? { source: input.source, ...element } : element));
    const outcomes = await createPayoutsInOrder(context.deps, merchantOf(context), requests, actorOf(context));
    const items = outcomes.map((outcome, index) => {
      if ("payout" in outcome) {
        const payout = toPayoutObject(outcome.payout);
        return { uuid: payout.uuid, order_id: payout.order_id, status: payout.status, is_final: payout.is_final, approval_required: payout.approval_required, success: true };
      }
      const element = input.payouts[index];
      const orderId = typeof element === "object" && element !== null && typeof (element as { order_id?: unknown }).order_id === "string" ? (element as { order_id: string }).order_id : "";
      if (!isAppError(outcome.error)) log.warn("mass payout element failed", { orderId, error: outcome.error });
      return { order_id: orderId, success: false, message: isAppError(outcome.error) ? outcome.error.message : "internal error; the payout was not created" };
    });
    return { items };
  },
});

const autoWithdrawSchema = z.object({ currency: optionalText, network: optionalText, address: optionalText, min: optionalText });

export const listAutoWithdrawOp = defineOperation({
  schema: z.object({}),
  invalidBody: "autowithdraw.bad_request",
  handle: (_input, context) => listAutoWithdrawRules(context.deps.db, merchantOf(context)),
});

export const setAutoWithdrawOp = defineOperation({
  schema: autoWithdrawSchema,
  invalidBody: "autowithdraw.bad_request",
  fieldErrors: { currency: "autowithdraw.unknown_currency", network: "autowithdraw.unknown_currency", address: "payout.bad_address", min: "autowithdraw.bad_min" },
  handle: (input, context) => setAutoWithdrawRule(context.deps, merchantOf(context), input),
});

export const deleteAutoWithdrawOp = defineOperation({
  schema: autoWithdrawSchema.pick({ currency: true, network: true }),
  invalidBody: "autowithdraw.bad_request",
  fieldErrors: { currency: "autowithdraw.unknown_currency" },
  handle: (input, context) => deleteAutoWithdrawRule(context.deps.db, merchantOf(context), input),
});
