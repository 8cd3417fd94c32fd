import { paymentPageUrl } from "@/lib/domain/invoice/payment-page-url";
import type { Invoice } from "@/generated/prisma/client";
import { describeInvoiceAmounts } from "@/lib/domain/invoice/invoice-amounts";
import { escapeHtml } from "@/lib/html/escape-html";

function layout(title: string, body: string): string {
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;background:#f8fafc;padding:24px;color:#0f172a">
<div style="max-width:480px;margin:auto;background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:24px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>${body}</div></body></html>`;
}

/** The e-mail's one action: a button, and the address spelled out for clients that hide buttons. */
function actionButton(url: string, label: string): string {
  return `<p><a href="${escapeHtml(url)}" style="display:inline-block;background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none">${escapeHtml(label)}</a></p>
<p style="font-size:12px;color:#64748b">Or open ${escapeHtml(url)}</p>`;
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
${actionButton(url, "Pay now")}`,
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
${actionButton(claimUrl, "Get the funds")}`,
  );
  return { subject, text, html };
}

/** The invitation to join a merchant's team: who invited, the role, and a button to accept before it expires. */
/** To a cabinet user whose account wrong passwords or codes from unfamiliar addresses started slowing down. */
export function accountUnderAttackEmail(input: { email: string; at: Date }) {
  const subject = "Failed sign-ins to your Gateway account";
  const lines = [
    `Several wrong passwords or codes were tried for ${input.email} from addresses you have not signed in from lately (the latest at ${input.at.toUTCString()}).`,
    "Sign-ins from those addresses are slowed down now, more with each failure. Addresses you signed in from in the last 30 days are not held back: you can still sign in and approve from them.",
    "If it was not you, someone may know your password: tell your store's owner.",
  ];
  const text = `${lines.join("\n")}\n`;
  const html = layout(subject, lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(""));
  return { subject, text, html };
}

/**
 * To an address invited to a store while it already signs in to another: no link (an address
 * belongs to one store), and the inviter is not told — it learns nothing of other stores.
 */
export function invitationToTakenAddressEmail(invitation: { merchantName: string; inviterEmail: string; role: string }) {
  const subject = `You are invited to ${invitation.merchantName} on Gateway`;
  const lines = [
    `${invitation.inviterEmail} invited you to join the team of ${invitation.merchantName} as ${invitation.role}.`,
    "This address already has an account on this Gateway, and an address belongs to one team: ask them to invite another address of yours.",
    "If you did not expect this invitation, ignore this e-mail.",
  ];
  const text = `${lines.join("\n")}\n`;
  const html = layout(subject, lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(""));
  return { subject, text, html };
}

export function invitationEmail(invitation: { merchantName: string; inviterEmail: string; role: string; expiresAt: Date }, acceptUrl: string) {
  const subject = `You are invited to ${invitation.merchantName} on Gateway`;
  const lines = [
    `${invitation.inviterEmail} invited you to join the team of ${invitation.merchantName} as ${invitation.role}.`,
    `Accept before ${invitation.expiresAt.toUTCString()}: you will choose a password, then set up an authenticator app at your first sign-in.`,
    "If you did not expect this invitation, ignore this e-mail.",
  ];
  const text = `${lines.join("\n")}\n\nAccept the invitation: ${acceptUrl}\n`;
  const html = layout(subject, `${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")}
${actionButton(acceptUrl, "Accept the invitation")}`);
  return { subject, text, html };
}

/** Where a change to a cabinet account came from, in words for its e-mail. */
function describeOrigin(origin: { ipAddress: string; userAgent: string }): string {
  return origin.ipAddress ? `from the address ${origin.ipAddress}` : "from an address the server could not tell";
}

/** To a cabinet user whose password was just changed: when, from where, and what to do if it was not them. */
export function passwordChangedEmail(input: { email: string; at: Date; origin: { ipAddress: string; userAgent: string }; endedSessions: number }) {
  const subject = "Your Gateway password was changed";
  const lines = [
    `The password of ${input.email} was changed at ${input.at.toUTCString()}, ${describeOrigin(input.origin)}.`,
    `Every other browser signed in to the account was signed out (${input.endedSessions}).`,
    "If it was not you, someone has your password and a code from your authenticator: tell your store's owner at once.",
  ];
  const text = `${lines.join("\n")}\n`;
  const html = layout(subject, lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(""));
  return { subject, text, html };
}

/** To a cabinet user whose authenticator app was just replaced (with new recovery codes). */
export function authenticatorReplacedEmail(input: { email: string; at: Date; origin: { ipAddress: string; userAgent: string }; endedSessions: number }) {
  const subject = "Your Gateway authenticator app was replaced";
  const lines = [
    `A new authenticator app was set up for ${input.email} at ${input.at.toUTCString()}, ${describeOrigin(input.origin)}. Codes from the previous one no longer work, and new recovery codes replace the old ones.`,
    `Every other browser signed in to the account was signed out (${input.endedSessions}).`,
    "If it was not you, someone has your password and a code or recovery code of yours: tell your store's owner at once.",
  ];
  const text = `${lines.join("\n")}\n`;
  const html = layout(subject, lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(""));
  return { subject, text, html };
}

/** To a cabinet user whose sign-in the operator reset (`user reset`): signed out, second factor cleared, perhaps a new password. */
export function signInResetEmail(input: { email: string; at: Date; endedSessions: number; isPasswordReset: boolean; enrolBy: Date }) {
  const subject = "Your Gateway sign-in was reset";
  const lines = [
    `The service's operator reset the sign-in of ${input.email} at ${input.at.toUTCString()}. Every browser signed in to the account was signed out (${input.endedSessions}); your authenticator app and recovery codes no longer work.`,
    input.isPasswordReset
      ? "Your password was replaced too: the operator gives you the new one. Change it on the Account page once you are in."
      : "Your password is unchanged.",
    `At your next sign-in, set up an authenticator app again, before ${input.enrolBy.toUTCString()}: an account still without one then is removed from the team.`,
    "If you did not ask for this, tell your store's owner and the operator at once.",
  ];
  const text = `${lines.join("\n")}\n`;
  const html = layout(subject, lines.map((line) => `<p>${escapeHtml(line)}</p>`).join(""));
  return { subject, text, html };
}

/** An alert a cabinet user chose (lib/services/cabinet/alerts.ts): what waits, and a button to it in the cabinet. */
export function cabinetAlertEmail(alert: { title: string; lines: string[]; url: string }) {
  const subject = `Gateway: ${alert.title}`;
  const footer = "You receive this because you turned this alert on in your account's settings; turn it off there.";
  const text = `${alert.lines.join("\n")}\n\nOpen: ${alert.url}\n\n${footer}\n`;
  const html = layout(
    alert.title,
    `${alert.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("")}
${actionButton(alert.url, "Open in the cabinet")}<p style="font-size:12px;color:#64748b">${escapeHtml(footer)}</p>`,
  );
  return { subject, text, html };
}
