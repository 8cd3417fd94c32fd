import { z } from "zod";
import { toPayoutObject, type PayoutObject } from "@/lib/api/serialize/payout";
import { AppError, type InputSpec } from "@/lib/errors";
import { setAcceptedMethods } from "@/lib/services/accepted/accepted-methods";
import { addAllowlistEntry, removeAllowlistEntry, setAllowlistEnabled } from "@/lib/services/allowlist/manage-allowlist";
import type { AllowlistView } from "@/lib/api/serialize/allowlist";
import { findMerchantDelivery, isResendableEvent } from "@/lib/services/webhooks/search-deliveries";
import { optionalText } from "@/lib/domain/input/optional-fields";
import { resendInvoiceEvent } from "@/lib/services/invoices/resend-invoice-event";
import { runUnit } from "@/lib/deps/unit-of-work";
import { deleteAutoWithdrawRule, setAutoWithdrawRule } from "@/lib/services/payouts/auto-withdraw";
import { setRefundFeeConfig } from "@/lib/services/refunds/create-refund";
import { setPayoutFeeConfig } from "@/lib/services/payouts/manage-payouts";
import { setMoneyOutThreshold } from "@/lib/services/payouts/money-out-thresholds";
import { registerPersonalWallet, removePersonalWallet, transferToPersonalWallet } from "@/lib/services/payouts/personal-wallet";
import { setAutorefund } from "@/lib/services/refunds/resolve-payment";
import { createSplitRule, deleteSplitRule, setSplitConfig } from "@/lib/services/splits/split-rules";
import { toSplitRuleObject } from "@/lib/api/serialize/split-rule";
import { CREATE_SPLIT_RULE_INPUT } from "@/lib/api/requests/split-rule";
import { registerWebhookEndpoint, rotateWebhookSecret } from "@/lib/services/webhooks/manage-endpoint";
import { MAX_SECRET_OVERLAP_HOURS } from "@/lib/webhooks/signing-secrets";
import { sendLegacyTestWebhook, sendTestWebhook } from "@/lib/services/webhooks/send-test-webhook";
import { defineCabinetAction, defineCabinetUnit, type CabinetActionEntry } from "../action-table";
import { userActor } from "./payout-actions";

// The settings and webhooks pages' actions. Each input below is the API operation's own (same
// fields, same codes: lib/api/ops/**, which keep their schemas private), so the cabinet refuses
// what the API refuses with the same code; each action calls the operation's service.

/** POST /v1/payment/accepted/set (lib/api/ops/payments/accepted-ops.ts). */
const acceptedSchema = z.object({ accepted: z.array(z.object({ currency: z.string().min(1), network: z.string().min(1) })).max(500) });
const ACCEPTED_INPUT: InputSpec<typeof acceptedSchema> = {
  schema: acceptedSchema,
  invalidBody: "accepted.unknown_currency",
  fieldErrors: { "accepted.network": "accepted.no_network", "accepted.currency": "accepted.unknown_currency" },
};

/** POST /v1/payout/fee-config/set (lib/api/ops/payouts/payout-ops.ts). */
const payoutFeeSchema = z.object({ is_subtract: z.boolean() });
/** POST /v1/refund/fee-config/set (lib/api/ops/refunds/refund-ops.ts). */
const refundFeeSchema = z.object({ payer: z.enum(["merchant", "customer"]) });
/** POST /v1/payment/autorefund/set (lib/api/ops/refunds/refund-ops.ts). */
const autorefundSchema = z.object({ underpaid: z.boolean().optional(), overpaid: z.boolean().optional() });

/** POST /v1/auto-withdraw/set and /delete (lib/api/ops/payouts/payout-ops.ts). */
const autoWithdrawSchema = z.object({ currency: optionalText, network: optionalText, address: optionalText, min: optionalText });
const SET_AUTO_WITHDRAW_INPUT: InputSpec<typeof autoWithdrawSchema> = {
  schema: autoWithdrawSchema,
  invalidBody: "autowithdraw.bad_request",
  fieldErrors: { currency: "autowithdraw.unknown_currency", network: "autowithdraw.unknown_currency", address: "payout.bad_address", min: "autowithdraw.bad_min" },
};
const deleteAutoWithdrawSchema = autoWithdrawSchema.pick({ currency: true, network: true });
const DELETE_AUTO_WITHDRAW_INPUT: InputSpec<typeof deleteAutoWithdrawSchema> = {
  schema: deleteAutoWithdrawSchema,
  invalidBody: "autowithdraw.bad_request",
  fieldErrors: { currency: "autowithdraw.unknown_currency" },
};

/** POST /v1/split/rule/delete and /v1/split/config/set (lib/api/ops/splits/split-ops.ts). */
const deleteSplitRuleSchema = z.object({ rule_id: z.string() });
const splitConfigSchema = z.object({ refund_hold_hours: z.number() });

/** The owner's money-out thresholds: no API operation (a stolen key must not loosen them). */
const thresholdSchema = z.object({ currency: z.string().min(1), network: z.string().min(1), per_payout: z.string().max(80).nullable().optional(), per_day: z.string().max(80).nullable().optional() });
const THRESHOLD_INPUT: InputSpec<typeof thresholdSchema> = {
  schema: thresholdSchema,
  invalidBody: "threshold.bad_request",
  fieldErrors: { currency: "threshold.unknown_currency", network: "threshold.unknown_currency", per_payout: "threshold.bad_amount", per_day: "threshold.bad_amount" },
};

/** POST /v1/api-allowlist/add, /remove and /enable (lib/api/ops/allowlist/allowlist-ops.ts). */
const cidrSchema = z.object({ cidr: z.string() });
const CIDR_INPUT: InputSpec<typeof cidrSchema> = { schema: cidrSchema, invalidBody: "apiallow.bad_cidr" };

/** POST /v1/webhooks and /v1/webhooks/rotate-secret (lib/api/ops/webhooks/webhook-ops.ts). */
const overlapHoursSchema = z.number().int().min(0).max(MAX_SECRET_OVERLAP_HOURS).optional();
const webhookEndpointSchema = z.object({ url: z.string().min(1), overlap_hours: overlapHoursSchema });
const rotateSecretSchema = z.object({ overlap_hours: overlapHoursSchema });

/**
 * A test event: to the registered endpoint signed with its real secret (payment events, as
 * POST /v1/payment/testing-webhook), or to a URL given here, unsigned (every family, as
 * POST /v1/test-webhook/payment|wallet|payout).
 */
const testWebhookSchema = z.object({ family: z.enum(["payment", "wallet", "payout"]), status: z.string().optional(), url: z.string().optional() });

/** A transfer to the merchant's own wallet: no API operation (spec: only in the cabinet); the payout body's codes. */
const personalWalletSchema = z.object({ currency: z.string(), network: z.string(), address: z.string().max(256), label: z.string().max(100).optional() });
const transferSchema = z.object({
  currency: z.string(),
  network: z.string(),
  amount: z.string(),
  // The page makes one per form: a repeated submission is the same transfer (order_id `transfer:<reference>`).
  reference: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
});

/** A URL's host for the audit log: a webhook URL's path or query may carry the receiver's own token. */
function hostOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}

/** An allow-list answer for the audit log: what changed, and the list's state after it. */
const allowlistDetail = (change: string, result: unknown, cidr?: string) => {
  const view = result as AllowlistView;
  return { change, ...(cidr ? { cidr } : {}), enabled: view.enabled, entries: view.entries.length };
};

export const SETTINGS_ACTIONS = {
  // Accepted currencies, fees, autorefund: one setting each, as their /v1 operations set them.
  "settings.set_accepted": defineCabinetUnit({
    permission: "settings",
    audit: "settings.changed",
    input: ACCEPTED_INPUT,
    unit: setAcceptedMethods,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, entries: input.accepted }),
    answer: (accepted) => ({ accepted }),
    describe: (_input, result) => ({ setting: "accepted", entries: (result as { accepted: unknown[] }).accepted.length }),
  }),
  "settings.set_payout_fee": defineCabinetAction({
    permission: "settings",
    audit: "settings.changed",
    input: { schema: payoutFeeSchema, invalidBody: "payout.bad_request" },
    run: ({ deps, actor }, input) => setPayoutFeeConfig(deps.db, actor.merchantId, input.is_subtract),
    describe: (input) => ({ setting: "payout_fee", is_subtract: input.is_subtract }),
  }),
  "settings.set_refund_fee": defineCabinetAction({
    permission: "settings",
    audit: "settings.changed",
    input: { schema: refundFeeSchema, invalidBody: "refund.bad_request" },
    run: ({ deps, actor }, input) => setRefundFeeConfig(deps.db, actor.merchantId, input.payer),
    describe: (input) => ({ setting: "refund_fee", payer: input.payer }),
  }),
  "settings.set_autorefund": defineCabinetAction({
    permission: "settings",
    audit: "settings.changed",
    input: { schema: autorefundSchema, invalidBody: "refund.bad_request" },
    run: ({ deps, actor }, input) => setAutorefund(deps, actor.merchantId, input),
    describe: (_input, result) => {
      const state = result as { underpaid: boolean; overpaid: boolean };
      return { setting: "autorefund", underpaid: state.underpaid, overpaid: state.overpaid };
    },
  }),

  // Auto-withdraw: one rule per asset (set replaces it).
  "settings.set_auto_withdraw": defineCabinetUnit({
    permission: "settings",
    audit: "settings.changed",
    input: SET_AUTO_WITHDRAW_INPUT,
    unit: setAutoWithdrawRule,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, input, actor: userActor(actor.userId) }),
    describe: (_input, result) => {
      const rule = result as { currency: string; network: string; address: string; min_minor: string };
      return { setting: "auto_withdraw", change: "set", currency: rule.currency, network: rule.network, address: rule.address, min_minor: rule.min_minor };
    },
  }),
  "settings.delete_auto_withdraw": defineCabinetUnit({
    permission: "settings",
    audit: "settings.changed",
    input: DELETE_AUTO_WITHDRAW_INPUT,
    unit: deleteAutoWithdrawRule,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, input }),
    answer: (result) => {
      // The API answers `deleted: false`; a page asked to delete a rule it showed, so one that is not the store's is not found.
      if (!result.deleted) throw new AppError("cabinet.not_found", "Your store has no auto-withdraw rule for this coin and network.");
      return result;
    },
    describe: (input) => ({ setting: "auto_withdraw", change: "deleted", currency: input.currency ?? null, network: input.network ?? null }),
  }),

  // Split rules and the split config (the services refuse with split.disabled when splits are off).
  "settings.create_split_rule": defineCabinetUnit({
    permission: "settings",
    audit: "settings.changed",
    input: CREATE_SPLIT_RULE_INPUT,
    unit: createSplitRule,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, input, actor: userActor(actor.userId) }),
    answer: toSplitRuleObject,
    describe: (_input, result) => {
      const rule = result as ReturnType<typeof toSplitRuleObject>;
      return { setting: "split_rule", change: "created", rule: rule.rule_id, percent: rule.percent };
    },
  }),
  "settings.delete_split_rule": defineCabinetUnit({
    permission: "settings",
    audit: "settings.changed",
    input: { schema: deleteSplitRuleSchema, invalidBody: "split.bad_request", fieldErrors: { rule_id: "split.bad_id" } },
    unit: deleteSplitRule,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, ruleId: input.rule_id }),
    describe: (input) => ({ setting: "split_rule", change: "deleted", rule: input.rule_id }),
  }),
  "settings.set_split_config": defineCabinetUnit({
    permission: "settings",
    audit: "settings.changed",
    input: { schema: splitConfigSchema, invalidBody: "split.bad_request", fieldErrors: { refund_hold_hours: "split.bad_hold_hours" } },
    unit: setSplitConfig,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, hours: input.refund_hold_hours }),
    describe: (input) => ({ setting: "split_config", refund_hold_hours: input.refund_hold_hours }),
  }),

  // Money-out thresholds: the owner's, behind a fresh code; loosening one freezes money out.
  "settings.set_threshold": defineCabinetUnit({
    permission: "team",
    audit: "settings.changed",
    input: THRESHOLD_INPUT,
    unit: setMoneyOutThreshold,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, actor: userActor(actor.userId), input }),
    describe: (input, result) => {
      const { threshold, isLoosened } = result as Awaited<ReturnType<typeof setMoneyOutThreshold.execute>>;
      return { setting: "threshold", currency: input.currency, network: input.network, per_payout: threshold?.per_payout ?? null, per_day: threshold?.per_day ?? null, loosened: isLoosened };
    },
  }),

  // IP allow-list of the API keys (sensitive: it decides who may call the API).
  "allowlist.add": defineCabinetUnit({
    permission: "settings",
    audit: "allowlist.changed",
    input: CIDR_INPUT,
    unit: addAllowlistEntry,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, cidr: input.cidr }),
    describe: (input, result) => allowlistDetail("added", result, input.cidr),
  }),
  "allowlist.remove": defineCabinetUnit({
    permission: "settings",
    audit: "allowlist.changed",
    input: CIDR_INPUT,
    unit: removeAllowlistEntry,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, cidr: input.cidr }),
    describe: (input, result) => allowlistDetail("removed", result, input.cidr),
  }),
  // Turning it off is as sensitive as turning it on: both go through this one action.
  "allowlist.enable": defineCabinetUnit({
    permission: "settings",
    audit: "allowlist.changed",
    input: { schema: z.object({ enabled: z.boolean() }), invalidBody: "apiallow.bad_enabled" },
    unit: setAllowlistEnabled,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, enabled: input.enabled }),
    describe: (input, result) => allowlistDetail(input.enabled ? "enabled" : "disabled", result),
  }),

  // Personal wallets: where the store's own money may go (registering or removing one is sensitive
  // and a settings matter; a transfer is money and waits for a second user's approval like any manual payout).
  "personal_wallet.save": defineCabinetAction({
    permission: "settings",
    audit: "personal_wallet.saved",
    input: {
      schema: personalWalletSchema,
      invalidBody: "payout.bad_request",
      fieldErrors: { currency: "payout.unknown_currency", network: "payout.asset_mismatch", address: "payout.bad_address", label: "cabinet.bad_request" },
    },
    run: ({ deps, actor }, input) => registerPersonalWallet(deps, actor.merchantId, input),
    describe: (_input, result) => {
      const wallet = result as { currency: string; network: string; address: string };
      return { change: "saved", currency: wallet.currency, network: wallet.network, address: wallet.address };
    },
  }),
  "personal_wallet.remove": defineCabinetAction({
    permission: "settings",
    audit: "personal_wallet.removed",
    input: { schema: z.object({ currency: z.string(), network: z.string() }), invalidBody: "payout.bad_request" },
    run: async ({ deps, actor }, input) => {
      if (!(await removePersonalWallet(deps, actor.merchantId, input))) throw new AppError("cabinet.not_found", "Your store has no personal wallet for this coin and network.");
      return { removed: true };
    },
    describe: (input) => ({ change: "removed", currency: input.currency, network: input.network }),
  }),
  "personal_wallet.transfer": defineCabinetUnit({
    permission: "money",
    audit: "personal_wallet.transfer",
    input: {
      schema: transferSchema,
      invalidBody: "payout.bad_request",
      fieldErrors: { amount: "payout.bad_amount", currency: "payout.unknown_currency", network: "payout.asset_mismatch" },
    },
    unit: transferToPersonalWallet,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, input, actor: userActor(actor.userId) }),
    answer: toPayoutObject,
    describe: (_input, result) => {
      const payout = result as PayoutObject;
      return { payout: payout.uuid, amount: payout.amount, currency: payout.currency, network: payout.network };
    },
  }),

  // The webhook endpoint and its signing secret (sensitive: they decide where events go and who can forge them).
  "webhook.set": defineCabinetUnit({
    permission: "settings",
    audit: "webhook.changed",
    input: { schema: webhookEndpointSchema, invalidBody: "webhook.bad_request", fieldErrors: { url: "webhook.bad_url", overlap_hours: "webhook.bad_overlap" } },
    // The unit vets the URL with the SSRF rule, as for POST /v1/webhooks.
    unit: registerWebhookEndpoint,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, url: input.url, overlapHours: input.overlap_hours }),
    // Never the secret; the URL's host only.
    describe: (_input, result) => ({ host: hostOf((result as { url: string | null }).url), previous_secret_expires_at: (result as { previous_secret_expires_at: string | null }).previous_secret_expires_at }),
  }),
  "webhook.rotate_secret": defineCabinetUnit({
    permission: "settings",
    audit: "webhook.secret_rotated",
    input: { schema: rotateSecretSchema, invalidBody: "webhook.bad_request", fieldErrors: { overlap_hours: "webhook.bad_overlap" } },
    unit: rotateWebhookSecret,
    args: ({ actor }, input) => ({ merchantId: actor.merchantId, overlapHours: input.overlap_hours }),
    describe: (_input, result) => ({ previous_secret_expires_at: (result as { previous_secret_expires_at: string | null }).previous_secret_expires_at }),
  }),
  "webhook.test": defineCabinetAction({
    permission: "settings",
    input: { schema: testWebhookSchema, invalidBody: "webhook.bad_request", fieldErrors: { url: "webhook.bad_url", status: "webhook.bad_status" } },
    run: async ({ deps, actor }, input) => {
      const url = input.url?.trim() ?? "";
      if (input.family === "payment" && url === "") {
        const sent = await sendLegacyTestWebhook(deps, actor.merchantId, { status: input.status });
        return {
          delivered: sent.result,
          url: sent.url,
          signed: sent.signed,
          status_code: "status_code" in sent ? sent.status_code : null,
          error: "error" in sent ? sent.error : null,
          duration_ms: sent.duration_ms,
        };
      }
      // Without a URL this is webhook.no_url, as POST /v1/test-webhook/wallet|payout answers.
      const sent = await sendTestWebhook(deps, input.family, { url_callback: url === "" ? undefined : url, status: input.status });
      return { delivered: sent.result, url, signed: false, status_code: sent.status_code, error: null, duration_ms: null };
    },
  }),
  /**
   * Records a delivery's event again, through the resend of POST /v1/payment/resend: the payment's
   * event of its current final status, to the endpoint and its url_callback. Payment events only;
   * there is no resend service for wallet or payout events. Permission "money", as the invoice
   * page's resend (invoice.resend_webhook): a resent invoice.paid is what ships an order.
   */
  "webhook.resend": defineCabinetAction({
    permission: "money",
    audit: "webhook.resent",
    input: { schema: z.object({ delivery_id: z.string() }), invalidBody: "cabinet.bad_request" },
    run: async ({ deps, actor }, input) => {
      const delivery = await findMerchantDelivery(deps.db, actor.merchantId, input.delivery_id);
      if (!delivery) throw new AppError("cabinet.not_found", "Your store has no webhook delivery with this id.");
      if (!isResendableEvent(delivery.eventType)) {
        throw new AppError("cabinet.bad_request", `Only payment events can be sent again; ${delivery.eventType} cannot (poll the object's info operation instead).`);
      }
      return { ...(await runUnit(deps, resendInvoiceEvent, { merchantId: actor.merchantId, lookup: { uuid: delivery.objectId } })), resent_from: delivery.id };
    },
    describe: (_input, result) => {
      const resent = result as { uuid: string; event_type: string; deliveries: string[]; resent_from: string };
      return { delivery: resent.resent_from, payment: resent.uuid, event_type: resent.event_type, deliveries: resent.deliveries.length };
    },
  }),
} satisfies Record<string, CabinetActionEntry>;
