import type { Transporter } from "nodemailer";
import type { GatewayConfig } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { log } from "@/lib/log";

const MAX_ATTEMPTS = 5;
/** What a sent message that carried a secret keeps of its body. */
export const ERASED_BODY = "(erased after delivery: it carried a secret link)";
/** What a message that carried a secret and was never delivered (the local mailbox, a failed send) keeps after SECRET_BODY_KEPT_MS. */
export const EXPIRED_BODY = "(erased after a day: it carried a secret link)";
/** How long a secret link waits in the local mailbox (for the operator to hand over) or in a failed send. */
export const SECRET_BODY_KEPT_MS = 24 * 3600_000;
let transport: { url: string; transporter: Transporter } | undefined;

/** nodemailer is loaded with the first message to send: a service without SMTP never holds it. */
async function transporterFor(url: string): Promise<Transporter> {
  if (transport?.url !== url) {
    const { default: nodemailer } = await import("nodemailer");
    transport = { url, transporter: nodemailer.createTransport(url) };
  }
  return transport.transporter;
}

/**
 * The e-mail job: sends pending outbox messages through SMTP. A message is claimed by a
 * conditional update (several workers never send it twice in one pass); a failure counts an
 * attempt, and after MAX_ATTEMPTS the message is marked `failed` with its last error.
 */
export async function sendPendingEmails(deps: { db: Db; config: Pick<GatewayConfig, "email">; now(): Date }, limit = 20): Promise<number> {
  const { smtpUrl, from } = deps.config.email;
  const now = deps.now();
  await eraseUndeliveredSecrets(deps.db, now);
  if (deps.config.email.mode !== "smtp" || !smtpUrl) return 0;
  // A message left `sending` by a sender that died is due again once its lease ends.
  const isDue = { OR: [{ status: "pending" }, { status: "sending", leaseUntil: { lt: now } }] };
  const due = await deps.db.outboundEmail.findMany({ where: isDue, orderBy: { createdAt: "asc" }, take: limit });
  let sent = 0;
  for (const message of due) {
    const { count } = await deps.db.outboundEmail.updateMany({
      where: { id: message.id, ...isDue },
      data: { status: "sending", attempts: { increment: 1 }, leaseUntil: new Date(now.getTime() + 5 * 60_000) },
    });
    if (count === 0) continue;
    try {
      await (await transporterFor(smtpUrl)).sendMail({ from, to: message.recipient, subject: message.subject, text: message.text, html: message.html ?? undefined });
      // A secret (a claim URL) leaves with the message and is not kept at rest.
      const erased = message.eraseAfterSend ? { text: ERASED_BODY, html: null } : {};
      await deps.db.outboundEmail.update({ where: { id: message.id }, data: { status: "sent", sentAt: deps.now(), lastError: "", ...erased } });
      sent++;
    } catch (error) {
      const attempts = message.attempts + 1;
      const reason = error instanceof Error ? error.message.slice(0, 300) : "send failed";
      await deps.db.outboundEmail.update({ where: { id: message.id }, data: { status: attempts >= MAX_ATTEMPTS ? "failed" : "pending", lastError: reason } });
      log.warn("e-mail not sent", { emailId: message.id, attempts, error: reason });
    }
  }
  return sent;
}

/**
 * Secret links (invitations, claim URLs) are not kept at rest for ever where no delivery erased
 * them: a message kept in the local mailbox or whose sending failed loses its body after a day.
 */
export async function eraseUndeliveredSecrets(db: Db, now: Date): Promise<number> {
  const { count } = await db.outboundEmail.updateMany({
    where: { eraseAfterSend: true, status: { in: ["kept", "failed"] }, createdAt: { lt: new Date(now.getTime() - SECRET_BODY_KEPT_MS) }, NOT: { text: EXPIRED_BODY } },
    data: { text: EXPIRED_BODY, html: null },
  });
  return count;
}
