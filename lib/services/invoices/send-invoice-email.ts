import type { GatewayConfig } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { queueEmail } from "@/lib/email/outbox";
import { invoiceEmail } from "@/lib/email/templates";
import { AppError } from "@/lib/errors";
import { getMerchantInvoiceOrThrow } from "./find-invoice";

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * spec: POST /v1/payment/send-email — queues the invoice e-mail (pay button); repeatable, works
 * on expired invoices too. `sent` means queued, not delivered.
 */
export async function sendInvoiceEmail(
  deps: { db: Db; config: Pick<GatewayConfig, "email" | "publicBaseUrl">; now(): Date },
  merchantId: string,
  input: { uuid?: string; order_id?: string; email?: string },
): Promise<{ sent: boolean; email: string; uuid: string }> {
  const invoice = await getMerchantInvoiceOrThrow(deps.db, merchantId, input);
  const recipient = input.email || invoice.payerEmail;
  if (!recipient) throw new AppError("email.no_recipient");
  if (!EMAIL_PATTERN.test(recipient) || recipient.length > 254) throw new AppError("email.bad_address");
  if (deps.config.email.mode === "off") throw new AppError("email.disabled");
  await queueEmail(deps.db, deps.config, { merchantId, recipient, ...invoiceEmail(invoice, deps.config.publicBaseUrl) }, deps.now());
  return { sent: true, email: recipient, uuid: invoice.id };
}
