import { z } from "zod";
import { EVENT_RETENTION_DAYS } from "@/lib/services/events/event-retention";
import { getEvent, EVENT_DELIVERIES_SHOWN } from "@/lib/services/events/get-event";
import { DEFAULT_EVENTS_LIMIT, listEvents, MAX_EVENTS_LIMIT, MAX_TYPE_FILTERS } from "@/lib/services/events/list-events";
import { redeliverEvent } from "@/lib/services/events/redeliver-event";
import { optionalText } from "@/lib/domain/input/optional-fields";
import { PAYMENT_EVENT_BODY, PAYOUT_EVENT_BODY, WALLET_EVENT_BODY } from "@/lib/webhooks/event-schemas";
import { defineOperation, defineWork } from "../../operation";
import { WEBHOOK_DELIVERY_SCHEMA } from "../../serialize/webhook";
import { merchantOf } from "../context";

const timestamp = (what: string) => z.iso.datetime().describe(`${what} (RFC 3339, UTC).`);
const rfc3339 = (what: string) => optionalText.pipe(z.iso.datetime({ offset: true }).optional()).describe(`${what} (RFC 3339 with an offset).`);
const DELIVERY_STATUS = z.enum(["pending", "delivered", "dead"]);

const EVENT_DATA_SCHEMA = z
  .discriminatedUnion("type", [PAYMENT_EVENT_BODY, WALLET_EVENT_BODY, PAYOUT_EVENT_BODY])
  .describe("The body as delivered, parsed: what `X-Webhook-Signature` signs, byte for byte, is the same body as raw JSON.");

const eventFields = {
  id: z.uuid().describe("The event (its `X-Webhook-Event-Id`)."),
  type: z.string().describe("The event type (`X-Webhook-Event`), e.g. `invoice.paid`, `wallet.paid`, `payout.confirmed`."),
  object_id: z.string().describe("The payment, static-wallet deposit or payout the event is about (`data.uuid`)."),
  created_at: timestamp("When it happened"),
  data: EVENT_DATA_SCHEMA,
};

const EVENT_LIST_ITEM_SCHEMA = z
  .object({
    ...eventFields,
    deliveries: z
      .object({
        count: z.number().int().describe("Deliveries made (0 when no endpoint and no `url_callback` was set)."),
        delivered: z.number().int().describe("Of them, answered 2xx."),
        pending: z.number().int().describe("Of them, still due or being retried."),
        dead: z.number().int().describe("Of them, failed for good."),
        last_status: DELIVERY_STATUS.nullable().describe("Status of the newest delivery (a redelivery is newer than the first ones); null when none was made."),
      })
      .describe("Where the event's deliveries stand; `POST /v1/events/info` lists them."),
  })
  .meta({ id: "EventSummary", description: "An event in the list, with a summary of its deliveries." });

const EVENT_SCHEMA = z
  .object({ ...eventFields, deliveries: z.array(WEBHOOK_DELIVERY_SCHEMA).describe(`Its deliveries, newest first (at most the ${EVENT_DELIVERIES_SHOWN} newest).`) })
  .meta({ id: "Event", description: "A webhook event with its deliveries." });

const EXAMPLE_EVENT_ID = "3f6c1d2e-8b4a-4c7e-9f10-2a5b6c7d8e9f";
const EXAMPLE_PAYMENT_DATA = {
  type: "payment",
  uuid: "8f14e45f-ceea-467f-a8f4-2d5b0c9e1a37",
  order_id: "order-1001",
  amount: "25.00",
  currency: "USD",
  payment_amount: "25.000000",
  payer_amount: "25.000000",
  payer_currency: "USDT",
  status: "paid",
  is_final: true,
  txid: "b1e5a4c3d2f1e0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5",
  additional_data: "",
};
const EXAMPLE_DELIVERY = {
  id: "c2d3e4f5-a6b7-4c8d-9e0f-1a2b3c4d5e6f",
  event_id: EXAMPLE_EVENT_ID,
  url: "https://merchant.example/webhooks",
  event_type: "invoice.paid",
  status: "delivered",
  attempts: 1,
  last_error: "",
  created_at: "2026-11-28T10:15:02.118Z",
  updated_at: "2026-11-28T10:15:02.406Z",
};

const listEventsSchema = z.object({
  type: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe(`An event type (\`invoice.paid\`), a prefix (\`invoice.*\`, \`payout.*\`), or an array of up to ${MAX_TYPE_FILTERS} of them: events matching any.`),
  object_id: optionalText.describe("Only the events of this payment, static-wallet deposit or payout (a UUID)."),
  date_from: rfc3339("Events at or after this time"),
  date_to: rfc3339("Events before this time"),
  limit: z.number().int().optional().describe(`Events per page, 1 to ${MAX_EVENTS_LIMIT}; default ${DEFAULT_EVENTS_LIMIT}, and any other value gives ${DEFAULT_EVENTS_LIMIT}.`),
  cursor: optionalText.describe("`paginate.next_cursor` of the previous page; opaque."),
});

/** Designed: POST /v1/events/list — the merchant's events, newest first, filtered, with keyset pagination. */
export const listEventsOp = defineOperation({
  schema: listEventsSchema,
  invalidBody: "event.bad_request",
  fieldErrors: { type: "event.bad_type", object_id: "event.bad_object_id", date_from: "event.bad_date", date_to: "event.bad_date", cursor: "event.bad_cursor" },
  summary: "List webhook events",
  description: `Every webhook event of the last ${EVENT_RETENTION_DAYS} days, newest first, whether or not anything was delivered (an event is recorded even without an endpoint or \`url_callback\`). Filters combine; \`date_from\` is inclusive and \`date_to\` exclusive. Pages are keyset-paginated: pass \`paginate.next_cursor\` as \`cursor\` until it is null; the pages stay stable while new events arrive.`,
  response: z
    .object({
      items: z.array(EVENT_LIST_ITEM_SCHEMA).describe("The page's events, newest first."),
      paginate: z
        .object({
          count: z.number().int().describe("Events on this page."),
          next_cursor: z.string().nullable().describe("The `cursor` of the next page; null on the last page."),
        })
        .describe("Where the page stands."),
    })
    .describe("A page of events."),
  errors: ["event.bad_type", "event.bad_object_id", "event.bad_cursor"],
  requestExample: { type: ["invoice.*", "payout.confirmed"], date_from: "2026-11-01T00:00:00Z", limit: 20 },
  responseExample: {
    items: [
      {
        id: EXAMPLE_EVENT_ID,
        type: "invoice.paid",
        object_id: EXAMPLE_PAYMENT_DATA.uuid,
        created_at: "2026-11-28T10:15:02.118Z",
        data: EXAMPLE_PAYMENT_DATA,
        deliveries: { count: 1, delivered: 1, pending: 0, dead: 0, last_status: "delivered" },
      },
    ],
    paginate: { count: 1, next_cursor: null },
  },
  handle: (input, context) =>
    listEvents(context.deps.db, merchantOf(context), {
      type: input.type,
      objectId: input.object_id,
      dateFrom: input.date_from ? new Date(input.date_from) : undefined,
      dateTo: input.date_to ? new Date(input.date_to) : undefined,
      limit: input.limit,
      cursor: input.cursor,
    }, context.deps.now()),
});

const eventIdSchema = z.string().describe("The event's `id` (its `X-Webhook-Event-Id`).");

/** Designed: POST /v1/events/info — one event with its deliveries. */
export const eventInfoOp = defineOperation({
  schema: z.object({ id: eventIdSchema }),
  invalidBody: "event.bad_request",
  fieldErrors: { id: "event.bad_id" },
  summary: "Get a webhook event with its deliveries",
  description: `The event, its body as delivered, and each delivery made of it (to the endpoint, the \`url_callback\`, and every redelivery) with its status. Events are kept ${EVENT_RETENTION_DAYS} days; an older one, or another merchant's, is \`event.not_found\`.`,
  response: EVENT_SCHEMA,
  errors: ["event.bad_id", "event.not_found"],
  requestExample: { id: EXAMPLE_EVENT_ID },
  responseExample: {
    id: EXAMPLE_EVENT_ID,
    type: "invoice.paid",
    object_id: EXAMPLE_PAYMENT_DATA.uuid,
    created_at: "2026-11-28T10:15:02.118Z",
    data: EXAMPLE_PAYMENT_DATA,
    deliveries: [EXAMPLE_DELIVERY],
  },
  handle: (input, context) => getEvent(context.deps.db, merchantOf(context), input.id, context.deps.now()),
});

/** Designed: POST /v1/events/redeliver — a new delivery of an event's very bytes, now. */
export const redeliverEventOp = defineWork({
  schema: z.object({
    id: eventIdSchema,
    url: z
      .string()
      .optional()
      .describe("Deliver here instead of the registered endpoint: an http(s) URL that does not point at a private or metadata address (checked as at registration)."),
  }),
  invalidBody: "event.bad_request",
  fieldErrors: { id: "event.bad_id", url: "webhook.bad_url" },
  summary: "Redeliver a webhook event",
  description:
    "Records a new delivery of the event, due at once: the same body bytes and the same `X-Webhook-Event-Id`, with a new `X-Webhook-Id`, signed with the current secret, and retried on the usual schedule if it fails. It goes to the registered endpoint (`webhook.no_endpoint` when none is registered) or to `url`. Works for every event type. Answers the delivery; follow it in `POST /v1/events/info` or the deliveries log. Receivers that deduplicate on `X-Webhook-Event-Id` (or on `uuid` plus `status`) treat it as a repeat.",
  response: WEBHOOK_DELIVERY_SCHEMA,
  errors: ["event.bad_id", "event.not_found", "webhook.no_endpoint", "webhook.bad_url"],
  requestExample: { id: EXAMPLE_EVENT_ID },
  responseExample: { ...EXAMPLE_DELIVERY, id: "e7f8a9b0-c1d2-4e3f-8a4b-5c6d7e8f9a0b", status: "pending", attempts: 0, created_at: "2026-11-29T08:00:00.000Z", updated_at: "2026-11-29T08:00:00.000Z" },
  unit: redeliverEvent,
  args: (input, context) => ({ merchantId: merchantOf(context), id: input.id, url: input.url }),
  answer: (delivery) => delivery,
});
