import type { Invoice } from "@/generated/prisma/client";
import type { Db, Tx } from "@/lib/db/client";
import type { TxDeps, UnitOfWork } from "@/lib/deps/unit-of-work";
import { eventTypeOfStatus, type PaymentStatus } from "@/lib/domain/invoice/status";
import { AppError } from "@/lib/errors";
import { getMerchantInvoiceOrThrow } from "./find-invoice";
import { recordInvoiceEvent } from "./invoice-events";

export interface ResendResult {
  uuid: string;
  event_type: string;
  /** Ids of the new deliveries (visible in the deliveries log). */
  deliveries: string[];
}

interface ResendRequest {
  merchantId: string;
  lookup: { uuid?: string; order_id?: string };
}

/**
 * `POST /v1/payment/resend`: records the invoice's event again — the one of its current final
 * status, with the current body — as new deliveries to the endpoint and url_callback. Receivers
 * deduplicate on uuid + status, so a resend is safe to process twice.
 */
export const resendInvoiceEvent = {
  prepare: async (deps: { db: Db }, { merchantId, lookup }: ResendRequest) => {
    const invoice = await getMerchantInvoiceOrThrow(deps.db, merchantId, lookup);
    const eventType = eventTypeOfStatus(invoice.status as PaymentStatus);
    if (!eventType) throw new AppError("webhook.no_event");
    return { invoice, eventType };
  },
  execute: async (tx: Tx, deps: Pick<TxDeps, "now">, { invoice, eventType }: { invoice: Invoice; eventType: string }): Promise<ResendResult> => {
    const deliveries = await recordInvoiceEvent(tx, invoice, deps.now());
    // Thrown inside the transaction: a resend that reaches nobody leaves no event in the log either.
    if (deliveries.length === 0) throw new AppError("webhook.no_endpoint", "No endpoint is registered and the payment has no url_callback.");
    return { uuid: invoice.id, event_type: eventType, deliveries };
  },
} satisfies UnitOfWork<ResendRequest, { invoice: Invoice; eventType: string }, ResendResult>;
