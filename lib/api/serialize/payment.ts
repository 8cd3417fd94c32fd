import { paymentPageUrl } from "@/lib/domain/invoice/payment-page-url";
import QRCode from "qrcode";
import type { Invoice } from "@/generated/prisma/client";
import { describeInvoiceAmounts } from "@/lib/services/invoices/invoice-view";

/** spec: Payment (invoice) — the merchant's view. */
export interface PaymentObject {
  uuid: string;
  order_id: string;
  amount: string;
  payment_amount: string | null;
  amount_paid: string;
  amount_remaining: string;
  payer_amount: string;
  payer_currency: string;
  payer_address: string;
  currency: string;
  network: string;
  address: string;
  address_qr_code: string;
  payment_status: string;
  is_multi: boolean;
  url: string;
  expired_at: number;
  is_final: boolean;
  created_at: string;
  updated_at: string;
  additional_data: string;
  payer_email: string;
  url_return: string;
  url_success: string;
  rate_expires_at: number;
  confirmations: number;
  required_confirmations: number;
  txid: string;
  theme: string;
}

/** spec: Payment — the public form omits additional_data, payer_email and payer_address. */
export type PublicPaymentObject = Omit<PaymentObject, "additional_data" | "payer_email" | "payer_address">;

const qrCache = new Map<string, string>();

/** A `data:` URI with a QR code of the address (cached: addresses never change). */
export async function qrCodeOf(address: string | null): Promise<string> {
  if (!address) return "";
  let uri = qrCache.get(address);
  if (!uri) {
    // SVG: no image encoding on the request path, and it stays sharp at any size.
    const svg = await QRCode.toString(address, { type: "svg", errorCorrectionLevel: "M", margin: 1 });
    uri = `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
    if (qrCache.size > 10_000) qrCache.clear();
    qrCache.set(address, uri);
  }
  return uri;
}

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
    payment_status: row.status,
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
    theme: row.theme ?? "",
  };
}

/** The hosted page's projection: the same object without the merchant-private fields. */
export async function toPublicPayment(row: Invoice, publicBaseUrl: string): Promise<PublicPaymentObject> {
  const { additional_data: _private, payer_email: _email, payer_address: _payer, ...publicFields } = await toPayment(row, publicBaseUrl);
  return publicFields;
}
