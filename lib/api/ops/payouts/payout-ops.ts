import { z } from "zod";
import { normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import { coarsePayoutStatus, PAYOUT_STATUSES, type CoarsePayoutStatus } from "@/lib/domain/payout/transition";
import { listBalances } from "@/lib/services/balances/list-balances";
import { deleteAutoWithdrawRule, listAutoWithdrawRules, setAutoWithdrawRule } from "@/lib/services/payouts/auto-withdraw";
import { createPayout } from "@/lib/services/payouts/create-payout";
import { createPayoutsInOrder } from "@/lib/jobs/handlers/create-payouts-in-order";
import { CREATE_PAYOUT_INPUT, createPayoutBodySchema } from "@/lib/api/requests/payout";
import {
  calculatePayout,
  cancelPayout,
  decidePendingPayout,
  getMerchantPayoutOrThrow,
  getPayoutFeeConfig,
  listPayouts,
  setPayoutFeeConfig,
} from "@/lib/services/payouts/manage-payouts";
import { optionalText } from "@/lib/domain/input/optional-fields";
import { formatAmount } from "@/lib/domain/money/amount";
import { AppError, isAppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { defineOperation, defineWork } from "../../operation";
import { PAYOUT_CONVERSION_SCHEMA, PAYOUT_SCHEMA, toPayoutObject } from "../../serialize/payout";
import { actorOf, merchantOf } from "../context";

const decimal = (what: string) => z.string().describe(`${what}, a decimal string in the asset's units.`);

const PAYOUT_EXAMPLE = {
  uuid: "5b0a3f4e-8c1d-4e2a-9f6b-2d7c8e9a1b3c",
  order_id: "withdrawal-20250611-0042",
  amount: "125.5",
  currency: "USDT",
  network: "tron",
  address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
  txid: "",
  status: "process",
  is_final: false,
  approval_required: false,
  source: "api",
  created_at: "2025-06-11T09:14:02.317Z",
  updated_at: "2025-06-11T09:14:02.317Z",
  internal_status: "approved",
  memo: "",
  is_subtract: false,
  commission: "1.2",
  receive_amount: "124.3",
  debit_amount: "125.5",
  wait_reason: "",
  kind: "payout",
  payment_uuid: "",
};

/** A payout funded from another currency's balance (`from_currency`) may be refused for these. */
const CONVERSION_ERRORS = [
  "payout.from_currency_unsupported",
  "payout.convert_same_asset",
  "payout.convert_frozen",
  "payout.convert_no_rate",
  "payout.convert_unsupported",
  "payout.convert_insufficient",
  "payout.convert_bad_amount",
] as const;

const PAYOUT_ERRORS = [
  "payout.order_id_required",
  "payout.frozen",
  "payout.unknown_currency",
  "payout.no_destination",
  "payout.bad_address",
  "payout.address_network_mismatch",
  "payout.memo_unsupported",
  "payout.network_unavailable",
  ...CONVERSION_ERRORS,
  "payout.bad_amount",
  "payout.destination_internal",
  "compliance.blocked",
  "compliance.unavailable",
  "payout.amount_below_fee",
  "payout.duplicate_reference",
  "payout.insufficient_funds",
  "payout.funds_maturing",
] as const;

export const createPayoutOp = defineWork({
  ...CREATE_PAYOUT_INPUT,
  summary: "Create a payout",
  description: [
    "Pays `amount` of `currency` to an external address. A payout made with an API key is approved at once and sent (`approval_required: false`); with `source: \"manual\"` it waits for /v1/payout/approve by another key or user. Its debit is reserved on the balance (`available` → `payout_held`) in the creating transaction; only the mature part of the balance counts.",
    "`order_id` is required and makes the call idempotent: a repeat with the same terms answers the payout made first (even after a freeze, a rate change or a screening outage), other terms are `payout.duplicate_reference` (409).",
    "The fee is the network fee of /v1/payout/services, fixed at creation. `is_subtract: true` puts it on top (the balance gives `amount` + fee), false takes it from `amount`; omitted, the payout fee-config decides (default: the recipient bears it). Without `network`, a coin on one network goes there and a coin on several goes to the one network whose address format fits. Paying to an address of this service is refused.",
    "`from_currency: \"USDT\"` funds the payout by converting the merchant's USDT at the live rate just before the reservation (`result.convert`).",
    "Retry later with the same `order_id`: `payout.frozen` (after the freeze lifts), `payout.insufficient_funds` (after a top-up), `payout.funds_maturing`, `payout.network_unavailable`, `payout.convert_*` 409/503 codes and `compliance.unavailable`.",
  ].join("\n\n"),
  response: PAYOUT_SCHEMA,
  errors: PAYOUT_ERRORS,
  requestExample: { amount: "125.50", currency: "USDT", network: "tron", address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", order_id: "withdrawal-20250611-0042", is_subtract: false },
  responseExample: PAYOUT_EXAMPLE,
  unit: createPayout,
  args: (input, context) => ({ merchantId: merchantOf(context), input, actor: actorOf(context) }),
  answer: toPayoutObject,
});

const lookupSchema = z.object({
  uuid: z.string().optional().describe("The payout's `uuid`; give `uuid` or `order_id`."),
  order_id: z.string().optional().describe("The payout's `order_id`, when `uuid` is not given."),
});
const LOOKUP_ERRORS = ["payout.no_lookup", "payout.not_found"] as const;

export const payoutInfoOp = defineOperation({
  schema: lookupSchema,
  invalidBody: "payout.bad_request",
  fieldErrors: { uuid: "payout.bad_uuid" },
  summary: "Get a payout",
  description: "The full payout object, by `uuid` or `order_id`. Refunds, split shares and auto-withdrawals are payouts too (`kind`). Another merchant's payout is `payout.not_found`.",
  response: PAYOUT_SCHEMA,
  errors: LOOKUP_ERRORS,
  requestExample: { uuid: "5b0a3f4e-8c1d-4e2a-9f6b-2d7c8e9a1b3c" },
  responseExample: { ...PAYOUT_EXAMPLE, status: "paid", is_final: true, internal_status: "confirmed", txid: "9f2c4e7a1b3d5f6e8a0c2b4d6f8e0a1c3b5d7f9e1a2c4b6d8f0e2a4c6b8d0f1e", updated_at: "2025-06-11T09:16:40.052Z" },
  handle: async (input, context) => toPayoutObject(await getMerchantPayoutOrThrow(context.deps.db, merchantOf(context), input)),
});

export const approvePayoutOp = defineWork({
  schema: lookupSchema.extend({ approve: z.boolean().optional().describe("true (default) approves the payout; false rejects it (status `fail`) and returns its reserve to the balance.") }),
  invalidBody: "payout.bad_request",
  fieldErrors: { uuid: "payout.bad_uuid" },
  summary: "Approve or reject a manual payout",
  description:
    "A `manual` payout waits in `check` (internal `pending`) for someone other than its creator: another API key or a cabinet user. Approved, it goes out at once; rejected, it ends in `fail` and its reserve returns to `available`. Only a pending payout can be decided (`payout.not_pending`); its creator cannot decide it (`payout.approver_is_creator`: a key answers to the person who made it), nor can a key whose maker may no longer move money (`payout.approver_not_allowed`: removed from the team, or now a viewer). Approval is refused while money out is frozen (`payout.frozen`).",
  response: PAYOUT_SCHEMA,
  errors: [...LOOKUP_ERRORS, "payout.not_pending", "payout.approver_is_creator", "payout.approver_not_allowed", "payout.frozen"],
  requestExample: { uuid: "5b0a3f4e-8c1d-4e2a-9f6b-2d7c8e9a1b3c", approve: true },
  responseExample: { ...PAYOUT_EXAMPLE, source: "manual", approval_required: true },
  unit: decidePendingPayout,
  args: (input, context) => ({ merchantId: merchantOf(context), input, actor: actorOf(context) }),
  answer: toPayoutObject,
});

export const cancelPayoutOp = defineWork({
  schema: lookupSchema,
  invalidBody: "payout.bad_request",
  fieldErrors: { uuid: "payout.bad_uuid" },
  summary: "Cancel a pending payout",
  description: "Only a payout still waiting for approval (internal `pending`) can be cancelled: it ends in `cancel` and its reserve returns to `available`. An approved payout is on its way and cannot be stopped (`payout.not_pending`).",
  response: PAYOUT_SCHEMA,
  errors: [...LOOKUP_ERRORS, "payout.not_pending"],
  requestExample: { order_id: "withdrawal-20250611-0042" },
  responseExample: { ...PAYOUT_EXAMPLE, source: "manual", approval_required: true, status: "cancel", is_final: true, internal_status: "cancelled" },
  unit: cancelPayout,
  args: (input, context) => ({ merchantId: merchantOf(context), lookup: input }),
  answer: toPayoutObject,
});

const COARSE_STATUSES = ["check", "process", "paid", "fail", "cancel"] as const;

export const listPayoutsOp = defineOperation({
  schema: z.object({
    limit: z.number().int().optional().describe("Page size, 1–100; any other whole number gives 20."),
    cursor: optionalText.describe("`paginate.next_cursor` of the previous page."),
    status: z
      .union([z.enum(COARSE_STATUSES), z.array(z.enum(COARSE_STATUSES))])
      .optional()
      .describe("Only payouts in this coarse status, or in any of these."),
    currency: optionalText.describe("Only payouts of this currency."),
    network: optionalText.describe("Only payouts on this network."),
  }),
  invalidBody: "payout.bad_request",
  summary: "List payouts",
  description: "The merchant's payouts (refunds, split shares and auto-withdrawals included), newest first, a page at a time: pass `paginate.next_cursor` back as `cursor` until it is null. `limit` outside 1–100 gives 20.",
  response: z.object({
    items: z.array(PAYOUT_SCHEMA).describe("One page, newest first."),
    paginate: z.object({
      count: z.int().describe("Payouts on this page."),
      next_cursor: z.string().nullable().describe("The cursor of the next page; null on the last one."),
    }),
  }),
  errors: ["payout.bad_cursor"],
  requestExample: { limit: 20, status: ["process", "paid"], currency: "USDT" },
  responseExample: { items: [PAYOUT_EXAMPLE], paginate: { count: 1, next_cursor: null } },
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
  // The create call's codes for the fields it takes.
  fieldErrors: { amount: "payout.bad_amount", currency: "payout.unknown_currency", network: "payout.asset_mismatch", address: "payout.bad_address", from_currency: "payout.from_currency_unsupported" },
  summary: "Quote a payout",
  description:
    "What a payout of `amount` would cost and deliver now, by the rules of POST /v1/payout: the network fee of /v1/payout/services and `is_subtract` (or the fee-config default). An `address`, when given, fixes the network as the payout would; without one, `network` is needed for a coin on several networks. With `from_currency: \"USDT\"`, `convert` says which USDT balance would be converted, how much and at what rate. Nothing is reserved.",
  response: z.object({
    currency: z.string(),
    network: z.string(),
    amount: decimal("The amount as asked"),
    is_subtract: z.boolean().describe("Whether the fee would go on top of `amount`: as given, or the fee-config default."),
    commission: decimal("The payout (network) fee now"),
    receive_amount: decimal("What the recipient would receive"),
    debit_amount: decimal("What the balance would give"),
    convert: PAYOUT_CONVERSION_SCHEMA.optional().describe("With `from_currency`: the conversion that would fund the payout."),
  }),
  errors: [
    "payout.unknown_currency",
    "payout.no_destination",
    "payout.asset_mismatch",
    "payout.bad_address",
    "payout.address_network_mismatch",
    "payout.bad_amount",
    "payout.amount_below_fee",
    ...CONVERSION_ERRORS,
  ],
  requestExample: { amount: "125.50", currency: "USDT", network: "tron", is_subtract: true },
  responseExample: { currency: "USDT", network: "tron", amount: "125.5", is_subtract: true, commission: "1.2", receive_amount: "125.5", debit_amount: "126.7" },
  handle: (input, context) => calculatePayout(context.deps, merchantOf(context), input),
});

const PAYOUT_FEE_CONFIG_SCHEMA = z
  .object({ is_subtract: z.boolean().describe("The default of `is_subtract` for payouts that omit it: true puts the fee on top of the amount, false (the default) takes it from the amount.") })
  .meta({ id: "PayoutFeeConfig", description: "Who bears the payout fee when a payout does not say." });

export const getPayoutFeeConfigOp = defineOperation({
  schema: z.object({}),
  invalidBody: "payout.bad_request",
  summary: "Get the payout fee-config",
  description: "Whether payouts that omit `is_subtract` put the fee on top of the amount (the balance bears it) or take it from the amount (the recipient bears it, the default).",
  response: PAYOUT_FEE_CONFIG_SCHEMA,
  errors: [],
  requestExample: {},
  responseExample: { is_subtract: false },
  handle: (_input, context) => getPayoutFeeConfig(context.deps.db, merchantOf(context)),
});

export const setPayoutFeeConfigOp = defineOperation({
  schema: z.object({ is_subtract: z.boolean().describe("true: the fee goes on top of the amount by default; false: the recipient bears it.") }),
  invalidBody: "payout.bad_request",
  summary: "Set the payout fee-config",
  description: "Sets the default of `is_subtract` for payouts created from now on; a payout that gives `is_subtract` is not affected.",
  response: PAYOUT_FEE_CONFIG_SCHEMA,
  errors: [],
  requestExample: { is_subtract: true },
  responseExample: { is_subtract: true },
  handle: (input, context) => setPayoutFeeConfig(context.deps.db, merchantOf(context), input.is_subtract),
});

/** Designed: /v1/balance — the merchant's buckets per asset, as decimal strings in each asset's units. */
export const balanceOp = defineOperation({
  schema: z.object({
    currency: optionalText.describe("Only this currency."),
    network: optionalText.describe("Only this network (with `currency`)."),
  }),
  invalidBody: "balance.bad_request",
  summary: "Get the balances",
  description:
    "The merchant's balance per asset (every asset it ever held, zeros included), each bucket a decimal string in the asset's units. Payouts and payout links spend `available`, the mature part; credited funds wait in `maturing` for the maturity hold first. `network` needs `currency`.",
  response: z.object({
    balances: z.array(
      z
        .object({
          currency: z.string(),
          network: z.string(),
          incoming: decimal("Confirmed for invoices that are not final yet"),
          maturing: decimal("Credited, waiting for the maturity hold"),
          available: decimal("Mature: what payouts and payout links may use"),
          payout_held: decimal("Reserved for pending payouts and funded payout links"),
          split_held: decimal("Partners' split shares of the merchant's payments, held until their refund window ends"),
          debt: decimal("What reversals took back that the balance no longer had (zero or more); payouts wait until it is repaid"),
        })
        .meta({ id: "Balance", description: "The merchant's buckets in one asset." }),
    ),
  }),
  errors: ["balance.unknown_currency", "balance.unknown_network"],
  requestExample: { currency: "USDT" },
  responseExample: {
    balances: [
      { currency: "USDT", network: "tron", incoming: "0", maturing: "250", available: "1874.35", payout_held: "125.5", split_held: "0", debt: "0" },
      { currency: "USDT", network: "ethereum", incoming: "40", maturing: "0", available: "310.2", payout_held: "0", split_held: "12.5", debt: "0" },
    ],
  },
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
  summary: "Create up to 100 payouts at once (legacy)",
  description:
    "Synchronous: the payouts are made in order against the balance, each as POST /v1/payout would make it and idempotent by its own `order_id`; partial success is normal. A failed element answers a human-readable `message`, not a code. `source` applies to the elements without their own. Prefer /v1/payout/batch (asynchronous, up to 5000).",
  documentedRequest: z.object({
    payouts: z.array(createPayoutBodySchema).describe("1 to 100 payouts, each as the body of POST /v1/payout."),
    source: z.enum(["api", "manual"]).optional().describe("The `source` of elements that do not give their own."),
  }),
  response: z.object({
    items: z
      .array(
        z.union([
          z
            .object({
              uuid: z.guid(),
              order_id: z.string(),
              status: PAYOUT_SCHEMA.shape.status,
              is_final: z.boolean(),
              approval_required: z.boolean(),
              success: z.literal(true),
            })
            .meta({ id: "MassPayoutCreated", description: "An element that made (or found) its payout." }),
          z
            .object({
              order_id: z.string().describe("The element's `order_id`; empty when it had none."),
              success: z.literal(false),
              message: z.string().describe("Why the payout was not made, for people: not a code."),
            })
            .meta({ id: "MassPayoutFailed", description: "An element that made no payout." }),
        ]),
      )
      .describe("One element per payout, in request order."),
  }),
  errors: ["payout.batch_too_large"],
  requestExample: {
    payouts: [
      { amount: "50", currency: "USDT", network: "tron", address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", order_id: "salary-2025-06-001" },
      { amount: "0.015", currency: "BTC", address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", order_id: "salary-2025-06-002" },
    ],
  },
  responseExample: {
    items: [
      { uuid: "5b0a3f4e-8c1d-4e2a-9f6b-2d7c8e9a1b3c", order_id: "salary-2025-06-001", status: "process", is_final: false, approval_required: false, success: true },
      { order_id: "salary-2025-06-002", success: false, message: "The available balance does not cover the payout." },
    ],
  },
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

const autoWithdrawSchema = z.object({
  currency: optionalText.describe("Required: the currency of the rule, e.g. `USDT`."),
  network: optionalText.describe("Required on set: the network of the rule. On delete: only the rule of this network (default: every network of `currency`)."),
  address: optionalText.describe("Required: where the deposits go, an address on `network`."),
  min: optionalText.describe("Threshold in the asset's units (not minor units), a decimal string; default `0` (no threshold). A credit below it stays on the balance."),
});

const AUTO_WITHDRAW_RULE_SCHEMA = z
  .object({
    currency: z.string(),
    network: z.string(),
    address: z.string().describe("Where the deposits go, in the network's canonical form."),
    min_minor: z.string().describe("The threshold in the asset's minor units, a decimal integer string; `0` means none."),
  })
  .meta({ id: "AutoWithdrawRule", description: "One rule per asset: net deposits credited in it are paid out to the address." });

const AUTO_WITHDRAW_RULE_EXAMPLE = { currency: "USDT", network: "tron", address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", min_minor: "100000000" };

export const listAutoWithdrawOp = defineOperation({
  schema: z.object({}),
  invalidBody: "autowithdraw.bad_request",
  summary: "List auto-withdraw rules",
  description: "The merchant's auto-withdraw rules, one per asset, by currency and network.",
  response: z.object({ rules: z.array(AUTO_WITHDRAW_RULE_SCHEMA) }),
  errors: [],
  requestExample: {},
  responseExample: { rules: [AUTO_WITHDRAW_RULE_EXAMPLE] },
  handle: (_input, context) => listAutoWithdrawRules(context.deps.db, merchantOf(context)),
});

export const setAutoWithdrawOp = defineWork({
  schema: autoWithdrawSchema,
  invalidBody: "autowithdraw.bad_request",
  fieldErrors: { currency: "autowithdraw.unknown_currency", network: "autowithdraw.unknown_currency", address: "payout.bad_address", min: "autowithdraw.bad_min" },
  summary: "Set an auto-withdraw rule",
  description:
    "Creates or replaces the merchant's rule for an asset (one per currency and network). When a deposit is credited in that asset, its net amount (gross less the platform fee) is paid out to the address: auto-approved, best effort, once per credit, the payout fee taken from the amount, the address screened like any payout's. Credits below `min` stay on the balance.",
  response: AUTO_WITHDRAW_RULE_SCHEMA,
  errors: ["autowithdraw.missing", "payout.no_destination", "payout.address_network_mismatch"],
  requestExample: { currency: "USDT", network: "tron", address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", min: "100" },
  responseExample: AUTO_WITHDRAW_RULE_EXAMPLE,
  unit: setAutoWithdrawRule,
  args: (input, context) => ({ merchantId: merchantOf(context), input, actor: actorOf(context) }),
  answer: (rule) => rule,
});

export const deleteAutoWithdrawOp = defineWork({
  schema: autoWithdrawSchema.pick({ currency: true, network: true }),
  invalidBody: "autowithdraw.bad_request",
  fieldErrors: { currency: "autowithdraw.unknown_currency" },
  summary: "Delete auto-withdraw rules",
  description: "Disables the rules of `currency` (only the one on `network` when given). Withdrawals already recorded still go out.",
  response: z.object({ deleted: z.boolean().describe("Whether a rule was there to delete.") }),
  errors: ["autowithdraw.missing"],
  requestExample: { currency: "USDT", network: "tron" },
  responseExample: { deleted: true },
  unit: deleteAutoWithdrawRule,
  args: (input, context) => ({ merchantId: merchantOf(context), input }),
  answer: (result) => result,
});
