import { paymentPageUrl } from "@/lib/domain/invoice/payment-page-url";
import type { Invoice } from "@/generated/prisma/client";
import { describeInvoiceAmounts } from "@/lib/services/invoices/invoice-view";
import { escapeHtml } from "@/lib/html/escape-html";

function layout(title: string, body: string): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;background:#f8fafc;padding:24px;color:#0f172a">
<div style="max-width:480px;margin:auto;background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>${body}</div></body></html>`;
}

/** The invoice e-mail of `POST /v1/payment/send-email`: what to pay and a button to the payment page. */
export function invoiceEmail(invoice: Invoice, publicBaseUrl: string) {
  const amounts = describeInvoiceAmounts(invoice);
  const url = paymentPageUrl(publicBaseUrl, invoice.id);
  const reference = invoice.orderId ? ` (order ${invoice.orderId})` : "";
  const subject = `Payment request: ${amounts.amount} ${invoice.priceCurrency}${reference}`;
  const text = `You have a payment request for ${amounts.amount} ${invoice.priceCurrency}${reference}.\n\nPay here: ${url}\n`;
  const html = layout(
    subject,
    `<p>You have a payment request for <strong>${escapeHtml(amounts.amount)} ${escapeHtml(invoice.priceCurrency)}</strong>${escapeHtml(reference)}.</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none">Pay now</a></p>
<p style="font-size:12px;color:#64748b">Or open ${escapeHtml(url)}</p>`,
  );
  return { subject, text, html };
}

/** The automatic receipt after payment, to payer_email. */
export function receiptEmail(invoice: Invoice) {
  const amounts = describeInvoiceAmounts(invoice);
  const reference = invoice.orderId ? ` for order ${invoice.orderId}` : "";
  const subject = `Payment received${reference}`;
  const lines = [
    `We received your payment${reference}.`,
    `Price: ${amounts.amount} ${invoice.priceCurrency}`,
    `Paid: ${amounts.amountPaid} ${invoice.payerCurrency ?? ""} on ${invoice.network ?? ""}`,
    `Transaction: ${invoice.txid}`,
  ];
  return { subject, text: lines.join("\n") + "\n", html: layout(subject, lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")) };
}

/** The best-effort e-mail of a payout link with an e-mail address: what awaits, and a button to claim it. */
export function payoutLinkEmail(link: { amount: string; currency: string; network: string; title: string; note: string; expiresAt: Date }, claimUrl: string) {
  const subject = link.title ? `${link.title}: ${link.amount} ${link.currency} for you` : `${link.amount} ${link.currency} for you`;
  const lines = [`${link.amount} ${link.currency} on ${link.network} are waiting for you.`, ...(link.note ? [link.note] : []), `Claim them before ${link.expiresAt.toUTCString()}.`];
  const text = `${lines.join("\n")}\n\nGet the funds: ${claimUrl}\n`;
  const html = layout(
    subject,
    `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")}
<p><a href="${escapeHtml(claimUrl)}" style="display:inline-block;background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none">Get the funds</a></p>
<p style="font-size:12px;color:#64748b">Or open ${escapeHtml(claimUrl)}</p>`,
  );
  return { subject, text, html };
}
