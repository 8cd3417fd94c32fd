import { z } from "zod";
import { paymentPageUrl } from "@/lib/domain/invoice/payment-page-url";
import type { Invoice } from "@/generated/prisma/client";
import type { PaymentStatus } from "@/lib/domain/invoice/status";
import { PAYMENT_STATUSES } from "@/lib/domain/invoice/status";
import { describeInvoiceAmounts } from "@/lib/domain/invoice/invoice-amounts";
import { REFUND_ELEMENT_SCHEMA } from "./payout";
import { qrCodeOf } from "@/lib/chains/addresses/qr-code";
import type { PaymentEventFields } from "@/lib/webhooks/payloads";

export { qrCodeOf };

const decimal = (what: string) => z.string().describe(`${what}, a decimal string in the currency's units.`);
const timestamp = (what: string) => z.iso.datetime().describe(`${what} (RFC 3339, UTC).`);
const unixSeconds = (what: string) => z.number().int().describe(`${what}, in Unix seconds.`);

/** spec: Payment status — every value `payment_status` takes. */
export const PAYMENT_STATUS_SCHEMA = z
  .enum(PAYMENT_STATUSES)
  .describe(
    "`select` (waiting for the buyer's coin and network), `check` (waiting for payment), `confirm_check` (transaction seen, waiting for confirmations), `wrong_amount_waiting` (underpaid, waiting for the rest); terminal: `paid`, `paid_over` (overpaid beyond tolerance), `wrong_amount` (underpaid, term over), `cancel` (expired or cancelled).",
  );

/** spec: Payment (invoice) — the merchant's view. */
export const PAYMENT_SCHEMA = z
  .object({
    uuid: z.uuid().describe("The invoice's identifier."),
    order_id: z.string().describe("The merchant's reference (the idempotency key of creation); empty when none was given."),
    amount: decimal("The price, in `currency`"),
    payment_amount: z.string().nullable().describe("What has been paid, in `payer_currency`, a decimal string; null until a payment exists."),
    amount_paid: z.string().describe("Received so far, in `payer_currency`, a decimal string; empty until a coin is selected."),
    amount_remaining: z.string().describe("Still to pay, in `payer_currency`, a decimal string; empty until a coin is selected."),
    payer_amount: z
      .string()
      .describe("What the buyer is asked to pay in `payer_currency`: `amount` at the fixed rate (plus the payer-side surcharge of `subtract`), a decimal string; empty until a coin is selected."),
    payer_currency: z.string().describe("The settlement coin, e.g. `USDT`; empty on a currency-agnostic invoice until the buyer selects."),
    payer_address: z.string().describe("The address the money came from, the default refund destination; known on account-based networks (EVM, Tron, Solana, TON), empty on Bitcoin-like networks and before payment."),
    currency: z.string().describe("The price currency (a fiat or a coin), e.g. `USD`."),
    network: z.string().describe("The settlement network id, e.g. `tron`; empty until a coin is selected."),
    address: z.string().describe("The deposit address; empty on a currency-agnostic invoice until the buyer selects."),
    address_qr_code: z.string().describe("A `data:` URI (SVG) with a QR code of `address`; empty while there is no address."),
    payment_status: PAYMENT_STATUS_SCHEMA,
    is_multi: z.boolean().describe("True for a currency-agnostic invoice still waiting for the buyer's coin and network; false once selected."),
    url: z.string().describe("The hosted payment page."),
    expired_at: unixSeconds("When the invoice expires"),
    is_final: z.boolean().describe("Whether the status is terminal (`paid`, `paid_over`, `wrong_amount`, `cancel`)."),
    created_at: timestamp("Creation time"),
    updated_at: timestamp("Last change"),
    additional_data: z.string().describe("Merchant-private data, echoed in webhooks and hidden from the buyer; empty when none."),
    payer_email: z.string().describe("The payer's e-mail address (receipts go there); empty when none."),
    url_return: z.string().describe("The back-to-store link of the payment page; empty when none."),
    url_success: z.string().describe("Where the page sends the buyer after payment; empty when none."),
    rate_expires_at: unixSeconds("Until when the fixed rate holds (the page re-quotes an unpaid invoice after it); 0 while no rate is fixed"),
    confirmations: z.number().int().describe("Network confirmations of the payment so far."),
    required_confirmations: z.number().int().describe("Confirmations needed to credit (by amount and network); 0 until a coin is selected."),
    txid: z.string().describe("Hash of the payment transaction; empty until one exists."),
    theme: z.enum(["", "dark", "light"]).describe("The payment page's theme: `dark`, `light`, or empty for the default."),
  })
  .meta({ id: "Payment", description: "An invoice (payment), as the merchant sees it." });

export type PaymentObject = z.output<typeof PAYMENT_SCHEMA>;

/** spec: Payment — the public form omits additional_data, payer_email and payer_address. */
export const PUBLIC_PAYMENT_SCHEMA = PAYMENT_SCHEMA.omit({ additional_data: true, payer_email: true, payer_address: true }).meta({
  id: "PublicPayment",
  description: "An invoice as the buyer's hosted page sees it: the payment object without `additional_data`, `payer_email` and `payer_address`.",
});

export type PublicPaymentObject = z.output<typeof PUBLIC_PAYMENT_SCHEMA>;

/** Designed: POST /v1/payment/info — the payment object with its refunds. */
export const PAYMENT_INFO_SCHEMA = PAYMENT_SCHEMA.extend({
  refund_status: z.enum(["none", "partial", "full"]).describe("How much of what was paid is refunded: `none`, `partial` or `full` (refunds in `fail` or `cancel` do not count)."),
  refunds: z.array(REFUND_ELEMENT_SCHEMA).describe("The payment's refunds, oldest first."),
}).meta({ id: "PaymentInfo", description: "An invoice with its refund summary and refunds (payment info only; lists omit them)." });

/** A payment object as the API answers it, for the document's examples. */
export const PAYMENT_EXAMPLE: PaymentObject = {
  uuid: "3f2b8c1e-6d4a-4f7e-9b21-5c8d0e7a6f13",
  order_id: "order-1001",
  amount: "25.00",
  payment_amount: null,
  amount_paid: "0",
  amount_remaining: "25.4019",
  payer_amount: "25.4019",
  payer_currency: "USDT",
  payer_address: "",
  currency: "USD",
  network: "tron",
  address: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
  address_qr_code: "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=",
  payment_status: "check",
  is_multi: false,
  url: "https://pay.example.com/pay/3f2b8c1e-6d4a-4f7e-9b21-5c8d0e7a6f13",
  expired_at: 1767229200,
  is_final: false,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
  additional_data: "customer=4412",
  payer_email: "buyer@example.com",
  url_return: "https://shop.example.com/cart",
  url_success: "https://shop.example.com/thanks",
  rate_expires_at: 1767226500,
  confirmations: 0,
  required_confirmations: 19,
  txid: "",
  theme: "",
};

/** The public form of PAYMENT_EXAMPLE. */
export const PUBLIC_PAYMENT_EXAMPLE: PublicPaymentObject = (({ additional_data: _private, payer_email: _email, payer_address: _payer, ...publicFields }) => publicFields)(PAYMENT_EXAMPLE);

export async function toPayment(row: Invoice, publicBaseUrl: string): Promise<PaymentObject> {
  const amounts = describeInvoiceAmounts(row);
  return {
    uuid: row.id,
    order_id: row.orderId ?? "",
    amount: amounts.amount,
    payment_amount: amounts.paymentAmount,
    amount_paid: amounts.amountPaid,
    amount_remaining: amounts.amountRemaining,
    payer_amount: amounts.payerAmount,
    payer_currency: row.payerCurrency ?? "",
    payer_address: row.payerAddress,
    currency: row.priceCurrency,
    network: row.network ?? "",
    address: row.address ?? "",
    address_qr_code: await qrCodeOf(row.address),
    payment_status: row.status as PaymentStatus,
    is_multi: row.payerCurrency === null,
    url: paymentPageUrl(publicBaseUrl, row.id),
    expired_at: Math.floor(row.expiresAt.getTime() / 1000),
    is_final: row.isFinal,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    additional_data: row.additionalData ?? "",
    payer_email: row.payerEmail ?? "",
    url_return: row.urlReturn ?? "",
    url_success: row.urlSuccess ?? "",
    rate_expires_at: row.rateExpiresAt ? Math.floor(row.rateExpiresAt.getTime() / 1000) : 0,
    confirmations: row.confirmations,
    required_confirmations: row.requiredConfirmations,
    txid: row.txid,
    theme: (row.theme ?? "") as PaymentObject["theme"],
  };
}

/** The hosted page's projection: the same object without the merchant-private fields. */
export async function toPublicPayment(row: Invoice, publicBaseUrl: string): Promise<PublicPaymentObject> {
  const { additional_data: _private, payer_email: _email, payer_address: _payer, ...publicFields } = await toPayment(row, publicBaseUrl);
  return publicFields;
}

/** spec: Webhooks — the fields of an invoice's `invoice.*` event body, as of its current status. */
export function toPaymentEventFields(invoice: Invoice): PaymentEventFields {
  const amounts = describeInvoiceAmounts(invoice);
  return {
    uuid: invoice.id,
    order_id: invoice.orderId ?? "",
    amount: amounts.amount,
    currency: invoice.priceCurrency,
    payment_amount: amounts.paymentAmount,
    payer_amount: amounts.payerAmount,
    payer_currency: invoice.payerCurrency ?? "",
    status: invoice.status as PaymentStatus,
    is_final: invoice.isFinal,
    txid: invoice.txid,
    additional_data: invoice.additionalData ?? "",
  };
}
