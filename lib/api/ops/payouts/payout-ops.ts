import { z } from "zod";
import type { Payout } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import type { InputSpec } from "@/lib/errors";
import { coarsePayoutStatus, PAYOUT_STATUSES, type CoarsePayoutStatus } from "@/lib/domain/payout/transition";
import { listBalances } from "@/lib/services/balances/list-balances";
import { createPayout } from "@/lib/services/payouts/create-payout";
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
import { defineOperation } from "../../operation";
import { toPayoutObject } from "../../serialize/payout";
import { actorOf, merchantOf } from "../context";

/** spec: POST /v1/payout — the body, whether alone or as an element of a mass or batch call. */
export const createPayoutBodySchema = z.object({
  amount: z.string(),
  currency: z.string(),
  order_id: z.string().max(128).optional(),
  address: z.string().max(256).optional(),
  network: optionalText,
  is_subtract: z.boolean().optional(),
  memo: z.string().max(120).optional(),
  url_callback: optionalText,
  from_currency: optionalText,
  source: z.enum(["api", "manual"]).optional(),
});

export const CREATE_PAYOUT_INPUT: InputSpec<typeof createPayoutBodySchema> = {
  schema: createPayoutBodySchema,
  invalidBody: "payout.bad_request",
  fieldErrors: {
    amount: "payout.bad_amount",
    currency: "payout.unknown_currency",
    order_id: "payout.order_id_required",
    address: "payout.bad_address",
    network: "payout.asset_mismatch",
    memo: "payout.memo_too_long",
    url_callback: "payout.bad_url_callback",
    from_currency: "payout.from_currency_unsupported",
  },
};

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
  schema: createPayoutBodySchema.pick({ amount: true, currency: true, network: true, address: true, is_subtract: true }),
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
          debt: format(balance.debt),
        };
      }),
    };
  },
});
