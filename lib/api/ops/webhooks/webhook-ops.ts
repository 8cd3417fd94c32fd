import { z } from "zod";
import { getWebhookEndpoint, registerWebhookEndpoint, rotateWebhookSecret } from "@/lib/services/webhooks/manage-endpoint";
import { MAX_SECRET_OVERLAP_HOURS } from "@/lib/webhooks/signing-secrets";
import { DELIVERIES_LOG_SIZE, listRecentDeliveries } from "@/lib/services/webhooks/list-deliveries";
import { MAX_WEBHOOK_ATTEMPTS } from "@/lib/domain/webhook-delivery/backoff";
import { sendLegacyTestWebhook, sendTestWebhook, type TestFamily } from "@/lib/services/webhooks/send-test-webhook";
import { defineOperation, defineWork, type OperationContext } from "../../operation";
import {
  OVERLAP_HOURS_DESCRIPTION,
  WEBHOOK_DELIVERY_EXAMPLE,
  WEBHOOK_DELIVERY_SCHEMA,
  WEBHOOK_ENDPOINT_EXAMPLE,
  WEBHOOK_ENDPOINT_SCHEMA,
  WEBHOOK_ENDPOINT_WITH_SECRET_SCHEMA,
  WEBHOOK_SECRET_EXAMPLE,
} from "../../serialize/webhook";

function merchantOf(context: OperationContext): string {
  if (!context.merchantId) throw new Error("signed operation without a merchant");
  return context.merchantId;
}

const overlapHoursSchema = z.number().int().min(0).max(MAX_SECRET_OVERLAP_HOURS).optional().describe(OVERLAP_HOURS_DESCRIPTION);

const ROTATION_DESCRIPTION =
  "The secret it replaces keeps signing for `overlap_hours`: meanwhile every delivery carries `X-Webhook-Signature` (new secret) and `X-Webhook-Signature-Previous` (old secret), so the receiver can switch at any moment without losing a delivery.";
const TEST_STATUSES_DESCRIPTION: Record<TestFamily, string> = {
  payment: "`status`: `paid` (default), `paid_over`, `wrong_amount` or `cancel` (event `invoice.expired`); anything else is `webhook.bad_status`.",
  wallet: "`status`: `paid` (the default and only one); anything else is `webhook.bad_status`.",
  payout:
    "`status`: an internal status, `pending`, `approved`, `awaiting_cosign`, `broadcasting`, `sent`, `confirmed` (default), `failed` or `cancelled`; the header carries `payout.<status>`, the body the coarse `status`. Anything else is `webhook.bad_status`.",
};

export const registerWebhookOp = defineWork({
  schema: z.object({
    url: z.string().min(1).describe("The endpoint: an http(s) URL that does not point at a private or metadata address."),
    overlap_hours: overlapHoursSchema,
  }),
  invalidBody: "webhook.bad_request",
  fieldErrors: { url: "webhook.bad_url", overlap_hours: "webhook.bad_overlap" },
  summary: "Register the webhook endpoint",
  description: `Registers (or moves) the merchant's webhook endpoint and issues a new signing secret, which only this answer shows. Answers 201 with a bare object (no envelope). Registering again, to move the URL, issues a new secret too. ${ROTATION_DESCRIPTION}`,
  response: WEBHOOK_ENDPOINT_WITH_SECRET_SCHEMA,
  errors: [],
  requestExample: { url: WEBHOOK_ENDPOINT_EXAMPLE.url, overlap_hours: 24 },
  responseExample: { ...WEBHOOK_ENDPOINT_EXAMPLE, secret: WEBHOOK_SECRET_EXAMPLE },
  unit: registerWebhookEndpoint,
  args: (input, context) => ({ merchantId: merchantOf(context), url: input.url, overlapHours: input.overlap_hours }),
  answer: (endpoint) => endpoint,
});

export const rotateWebhookSecretOp = defineWork({
  schema: z.object({ overlap_hours: overlapHoursSchema }),
  invalidBody: "webhook.bad_request",
  fieldErrors: { overlap_hours: "webhook.bad_overlap" },
  summary: "Rotate the webhook signing secret",
  description: `Issues a new signing secret for the registered endpoint, shown only in this answer. ${ROTATION_DESCRIPTION} \`webhook.no_endpoint\` when no endpoint is registered.`,
  response: WEBHOOK_ENDPOINT_WITH_SECRET_SCHEMA,
  errors: ["webhook.no_endpoint"],
  requestExample: { overlap_hours: 24 },
  responseExample: { ...WEBHOOK_ENDPOINT_EXAMPLE, secret: WEBHOOK_SECRET_EXAMPLE },
  unit: rotateWebhookSecret,
  args: (input, context) => ({ merchantId: merchantOf(context), overlapHours: input.overlap_hours }),
  answer: (endpoint) => endpoint,
});

export const getWebhookOp = defineOperation({
  schema: z.object({}),
  invalidBody: "webhook.bad_request",
  summary: "Get the webhook endpoint",
  description: "The registered endpoint: its URL, times and the end of a running rotation overlap — never the secret. `webhook.no_endpoint` when none is registered.",
  response: WEBHOOK_ENDPOINT_SCHEMA,
  errors: ["webhook.no_endpoint"],
  requestExample: {},
  responseExample: WEBHOOK_ENDPOINT_EXAMPLE,
  handle: (_input, context) => getWebhookEndpoint(context.deps, merchantOf(context)),
});

export const listWebhookDeliveriesOp = defineOperation({
  schema: z.object({}),
  invalidBody: "webhook.bad_request",
  summary: "List recent webhook deliveries",
  description: `The merchant's ${DELIVERIES_LOG_SIZE} most recent deliveries, newest first, to the registered endpoint and to objects' \`url_callback\`. A delivery is retried with exponential backoff (10 s, doubling, capped at 1 hour) up to ${MAX_WEBHOOK_ATTEMPTS} attempts, then \`dead\`.`,
  response: z.object({ deliveries: z.array(WEBHOOK_DELIVERY_SCHEMA).describe(`At most ${DELIVERIES_LOG_SIZE}, newest first.`) }),
  errors: [],
  requestExample: {},
  responseExample: { deliveries: [WEBHOOK_DELIVERY_EXAMPLE] },
  handle: async (_input, context) => ({ deliveries: await listRecentDeliveries(context.deps.db, merchantOf(context)) }),
});

export const legacyTestingWebhookOp = defineOperation({
  schema: z.object({
    url: z
      .string()
      .optional()
      .describe("Where to send the test, unsigned (http(s), not a private or metadata address). Omitted: to the registered endpoint, signed with its real secret."),
    status: z.string().optional().describe("The payment status to simulate: `paid` (default), `paid_over`, `wrong_amount` or `cancel`."),
  }),
  invalidBody: "webhook.bad_request",
  fieldErrors: { url: "webhook.bad_url", status: "webhook.bad_status" },
  summary: "Send a test payment webhook (legacy)",
  description:
    "Legacy form of `POST /v1/test-webhook/payment`. Sends a test payment event (body `is_test: true`) synchronously: without `url` to the registered endpoint, signed with its real secret and the standard `X-Webhook-*` headers (`webhook.no_endpoint` if none is registered); with `url`, unsigned to that URL. Whether the endpoint answered is part of the result, not an error: `status_code` when it answered, `error` when it did not.",
  response: z.object({
    result: z.boolean().describe("Whether the endpoint answered 2xx."),
    url: z.string().describe("Where the test went."),
    signed: z.boolean().describe("True when sent to the registered endpoint with its secret; false for an explicit `url`."),
    duration_ms: z.number().int().describe("How long the attempt took, in milliseconds."),
    status_code: z.number().int().optional().describe("The endpoint's HTTP status; present when it answered."),
    error: z.string().optional().describe("Why no answer came (timeout, network error, refused URL); present instead of `status_code`."),
  }),
  errors: ["webhook.no_endpoint", "webhook.no_url"],
  requestExample: { status: "paid" },
  responseExample: { result: true, url: WEBHOOK_ENDPOINT_EXAMPLE.url, signed: true, duration_ms: 84, status_code: 200 },
  handle: (input, context) => sendLegacyTestWebhook(context.deps, merchantOf(context), input),
});

const TEST_EVENT_TYPE: Record<TestFamily, string> = { payment: "invoice.*", wallet: "wallet.paid", payout: "payout.*" };
const TEST_REQUEST_EXAMPLE: Record<TestFamily, object> = {
  payment: { currency: "USDT", network: "tron", order_id: "order-1001", status: "paid" },
  wallet: { currency: "USDT", network: "tron", order_id: "customer-4412", status: "paid" },
  payout: { currency: "USDT", network: "tron", order_id: "payout-2001", status: "confirmed" },
};

function testWebhookOp(family: TestFamily) {
  return defineOperation({
    schema: z.object({
      url_callback: z.string().optional().describe("Where to send the test (required): an http(s) URL, not a private or metadata address."),
      currency: z.string().optional().describe("The body's `currency` (default `USDT`)."),
      network: z.string().optional().describe("The body's `network` (default `tron`)."),
      uuid: z.string().optional().describe("The body's `uuid` (default a random one)."),
      order_id: z.string().optional().describe("The body's `order_id` (default `test-` and the start of `uuid`)."),
      status: z.string().optional().describe(`The status to simulate. ${TEST_STATUSES_DESCRIPTION[family]}`),
    }),
    invalidBody: "webhook.bad_request",
    fieldErrors: { url_callback: "webhook.bad_url", status: "webhook.bad_status" },
    summary: `Send a test ${family} webhook`,
    description: `Sends a test \`${TEST_EVENT_TYPE[family]}\` event (body \`is_test: true\`, the same keys as a real one) to \`url_callback\`, unsigned, and waits for the answer. Any HTTP answer is a result (\`result\` says whether it was 2xx); no answer at all is \`webhook.test_failed\` (503). ${TEST_STATUSES_DESCRIPTION[family]}`,
    response: z.object({
      result: z.boolean().describe("Whether the endpoint answered 2xx."),
      status_code: z.number().int().describe("The endpoint's HTTP status."),
    }),
    errors: ["webhook.no_url", "webhook.test_failed"],
    requestExample: { url_callback: WEBHOOK_ENDPOINT_EXAMPLE.url, ...TEST_REQUEST_EXAMPLE[family] },
    responseExample: { result: true, status_code: 200 },
    handle: (input, context) => sendTestWebhook(context.deps, family, input),
  });
}

export const testPaymentWebhookOp = testWebhookOp("payment");
export const testWalletWebhookOp = testWebhookOp("wallet");
export const testPayoutWebhookOp = testWebhookOp("payout");
