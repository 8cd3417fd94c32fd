import type { Invoice } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { eventTypeOfStatus, type PaymentStatus } from "@/lib/domain/invoice/status";
import { buildPaymentEventBody } from "@/lib/webhooks/payloads";
import { recordWebhookEvent } from "@/lib/webhooks/record-event";
import { describeInvoiceAmounts } from "@/lib/domain/invoice/invoice-amounts";

/**
 * spec: Events — records the event of the invoice's current status (`invoice.paid`, …) with its
 * current body, to the registered endpoint and the invoice's url_callback, inside the caller's
 * transaction. Returns the delivery ids; none when the status has no event.
 */
export async function recordInvoiceEvent(tx: Tx, invoice: Invoice, now: Date): Promise<string[]> {
  const status = invoice.status as PaymentStatus;
  const eventType = eventTypeOfStatus(status);
  if (!eventType) return [];
  const amounts = describeInvoiceAmounts(invoice);
  const body = buildPaymentEventBody({
    uuid: invoice.id,
    order_id: invoice.orderId ?? "",
    amount: amounts.amount,
    currency: invoice.priceCurrency,
    payment_amount: amounts.paymentAmount,
    payer_amount: amounts.payerAmount,
    payer_currency: invoice.payerCurrency ?? "",
    status,
    is_final: invoice.isFinal,
    txid: invoice.txid,
    additional_data: invoice.additionalData ?? "",
  });
  return recordWebhookEvent(tx, { merchantId: invoice.merchantId, eventType, objectId: invoice.id, body, callbackUrl: invoice.urlCallback, now });
}
