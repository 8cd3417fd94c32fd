import { z } from "zod";
import { PAYMENT_EVENT_BY_STATUS, PAYOUT_INTERNAL_STATUSES } from "./payloads";

/** The bodies of webhook deliveries (spec: Events — Body shapes), for the API document and receivers. */
const isTest = z.literal(true).optional().describe("Present and true on test deliveries only.");
const decimal = (what: string) => z.string().describe(`${what}, a decimal string.`);

export const PAYMENT_EVENT_BODY = z
  .object({
    type: z.literal("payment"),
    uuid: z.string().describe("The invoice."),
    order_id: z.string(),
    amount: decimal("The price, in `currency`"),
    currency: z.string(),
    payment_amount: decimal("What the buyer paid, in `payer_currency`").nullable(),
    payer_amount: decimal("What the buyer was asked to pay"),
    payer_currency: z.string(),
    status: z.string(),
    is_final: z.boolean(),
    txid: z.string(),
    additional_data: z.string(),
    is_test: isTest,
  })
  .meta({ id: "PaymentEvent", description: "Body of `invoice.*` deliveries." });

export const WALLET_EVENT_BODY = z
  .object({
    type: z.literal("wallet"),
    uuid: z.string().describe("The credited deposit; each deposit is its own event."),
    wallet_uuid: z.string().describe("The static wallet the deposit paid."),
    order_id: z.string(),
    address: z.string(),
    network: z.string(),
    currency: z.string(),
    payment_amount: decimal("The amount credited"),
    payer_currency: z.string(),
    txid: z.string(),
    status: z.string(),
    is_final: z.boolean(),
    is_test: isTest,
  })
  .meta({ id: "WalletEvent", description: "Body of `wallet.paid` deliveries." });

export const PAYOUT_EVENT_BODY = z
  .object({
    type: z.literal("payout"),
    uuid: z.string().describe("The payout (refunds and auto-withdrawals are payouts)."),
    order_id: z.string(),
    amount: decimal("The amount sent"),
    currency: z.string(),
    network: z.string(),
    address: z.string(),
    txid: z.string(),
    status: z.string().describe("The coarse status; the event type carries the internal one."),
    is_final: z.boolean(),
    is_test: isTest,
  })
  .meta({ id: "PayoutEvent", description: "Body of `payout.*` deliveries." });

/** Every event type and the body it carries. */
export const WEBHOOK_EVENT_TYPES: readonly { type: string; body: z.ZodType; when: string }[] = [
  { type: PAYMENT_EVENT_BY_STATUS.paid, body: PAYMENT_EVENT_BODY, when: "Paid within tolerance." },
  { type: PAYMENT_EVENT_BY_STATUS.paid_over, body: PAYMENT_EVENT_BODY, when: "Overpaid beyond tolerance." },
  { type: PAYMENT_EVENT_BY_STATUS.wrong_amount, body: PAYMENT_EVENT_BODY, when: "Underpaid, term over." },
  { type: PAYMENT_EVENT_BY_STATUS.cancel, body: PAYMENT_EVENT_BODY, when: "Invoice expired." },
  { type: "wallet.paid", body: WALLET_EVENT_BODY, when: "Static wallet credited." },
  ...PAYOUT_INTERNAL_STATUSES.map((status) => ({ type: `payout.${status}`, body: PAYOUT_EVENT_BODY, when: `Payout reached \`${status}\`.` })),
];
