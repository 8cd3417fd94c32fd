import type { Db } from "@/lib/db/client";
import { eventTypeOfStatus, type PaymentStatus } from "@/lib/domain/invoice/status";
import { AppError } from "@/lib/errors";
import { getMerchantInvoiceOrThrow } from "./find-invoice";
import { recordInvoiceEvent } from "./invoice-events";
import { withTransaction } from "@/lib/db/transaction";

export interface ResendResult {
  uuid: string;
  event_type: string;
  /** Ids of the new deliveries (visible in the deliveries log). */
  deliveries: string[];
}

/**
 * `POST /v1/payment/resend`: records the invoice's event again — the one of its current final
 * status, with the current body — as new deliveries to the endpoint and url_callback. Receivers
 * deduplicate on uuid + status, so a resend is safe to process twice.
 */
export async function resendInvoiceEvent(deps: { db: Db; now(): Date }, merchantId: string, lookup: { uuid?: string; order_id?: string }): Promise<ResendResult> {
  const invoice = await getMerchantInvoiceOrThrow(deps.db, merchantId, lookup);
  const status = invoice.status as PaymentStatus;
  const eventType = eventTypeOfStatus(status);
  if (!eventType) throw new AppError("webhook.no_event");
  const deliveries = await withTransaction(deps.db, async (tx) => {
    const recorded = await recordInvoiceEvent(tx, invoice, deps.now());
    // Thrown inside the transaction: a resend that reaches nobody leaves no event in the log either.
    if (recorded.length === 0) throw new AppError("webhook.no_endpoint", "No endpoint is registered and the payment has no url_callback.");
    return recorded;
  });
  return { uuid: invoice.id, event_type: eventType, deliveries };
}
