import type { Invoice } from "@/generated/prisma/client";
import { toPaymentEventFields } from "@/lib/api/serialize/payment";
import type { Tx } from "@/lib/db/client";
import { eventTypeOfStatus, type PaymentStatus } from "@/lib/domain/invoice/status";
import { buildPaymentEventBody } from "@/lib/webhooks/payloads";
import { recordWebhookEvent } from "@/lib/webhooks/record-event";

/**
 * spec: Events — records the event of the invoice's current status (`invoice.paid`, …) with its
 * current body, to the registered endpoint and the invoice's url_callback, inside the caller's
 * transaction. Returns the delivery ids; none when the status has no event.
 */
export async function recordInvoiceEvent(tx: Tx, invoice: Invoice, now: Date): Promise<string[]> {
  const status = invoice.status as PaymentStatus;
  const eventType = eventTypeOfStatus(status);
  if (!eventType) return [];
  const body = buildPaymentEventBody(toPaymentEventFields(invoice));
  return recordWebhookEvent(tx, { merchantId: invoice.merchantId, eventType, objectId: invoice.id, body, callbackUrl: invoice.urlCallback, now });
}
