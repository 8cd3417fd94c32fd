import { z } from "zod";
import { getWebhookEndpoint, registerWebhookEndpoint, rotateWebhookSecret, MAX_SECRET_OVERLAP_HOURS } from "@/lib/services/webhooks/manage-endpoint";
import { listRecentDeliveries } from "@/lib/services/webhooks/list-deliveries";
import { sendLegacyTestWebhook, sendTestWebhook, type TestFamily } from "@/lib/services/webhooks/send-test-webhook";
import { defineOperation, type OperationContext } from "../../operation";

function merchantOf(context: OperationContext): string {
  if (!context.merchantId) throw new Error("signed operation without a merchant");
  return context.merchantId;
}

function endpointDeps(context: OperationContext) {
  const { db, secretBox, now, sendOptions } = context.deps;
  return { db, secretBox, now, allowLoopback: sendOptions.allowLoopback };
}

const overlapHoursSchema = z.number().int().min(0).max(MAX_SECRET_OVERLAP_HOURS).optional();

export const registerWebhookOp = defineOperation({
  schema: z.object({ url: z.string().min(1), overlap_hours: overlapHoursSchema }),
  invalidBody: "webhook.bad_request",
  fieldErrors: { url: "webhook.bad_url", overlap_hours: "webhook.bad_overlap" },
  handle: (input, context) => registerWebhookEndpoint(endpointDeps(context), merchantOf(context), { url: input.url, overlapHours: input.overlap_hours }),
});

export const rotateWebhookSecretOp = defineOperation({
  schema: z.object({ overlap_hours: overlapHoursSchema }),
  invalidBody: "webhook.bad_request",
  fieldErrors: { overlap_hours: "webhook.bad_overlap" },
  handle: (input, context) => rotateWebhookSecret(endpointDeps(context), merchantOf(context), { overlapHours: input.overlap_hours }),
});

export const getWebhookOp = defineOperation({
  schema: z.object({}),
  invalidBody: "webhook.bad_request",
  handle: (_input, context) => getWebhookEndpoint(context.deps, merchantOf(context)),
});

export const listWebhookDeliveriesOp = defineOperation({
  schema: z.object({}),
  invalidBody: "webhook.bad_request",
  handle: async (_input, context) => ({ deliveries: await listRecentDeliveries(context.deps.db, merchantOf(context)) }),
});

export const legacyTestingWebhookOp = defineOperation({
  schema: z.object({ url: z.string().optional(), status: z.string().optional() }),
  invalidBody: "webhook.bad_request",
  fieldErrors: { url: "webhook.bad_url", status: "webhook.bad_status" },
  handle: (input, context) => sendLegacyTestWebhook(context.deps, merchantOf(context), input),
});

function testWebhookOp(family: TestFamily) {
  return defineOperation({
    schema: z.object({
      url_callback: z.string().optional(),
      currency: z.string().optional(),
      network: z.string().optional(),
      uuid: z.string().optional(),
      order_id: z.string().optional(),
      status: z.string().optional(),
    }),
    invalidBody: "webhook.bad_request",
    fieldErrors: { url_callback: "webhook.bad_url", status: "webhook.bad_status" },
    handle: (input, context) => sendTestWebhook(context.deps, family, input),
  });
}

export const testPaymentWebhookOp = testWebhookOp("payment");
export const testWalletWebhookOp = testWebhookOp("wallet");
export const testPayoutWebhookOp = testWebhookOp("payout");
