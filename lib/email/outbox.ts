import { randomUUID } from "node:crypto";
import type { Db, Tx } from "@/lib/db/client";
import type { GatewayConfig } from "@/lib/config/env";

export interface EmailMessage {
  merchantId: string | null;
  recipient: string;
  subject: string;
  text: string;
  html?: string;
  /** The body holds a secret (a claim URL): kept only until the message is sent. */
  eraseAfterSend?: boolean;
}

/**
 * Records an e-mail in the outbox, in the caller's transaction: `pending` for the SMTP sender,
 * or `kept` in the local mailbox when no SMTP server is configured. Returns its id.
 */
export async function queueEmail(db: Db | Tx, config: Pick<GatewayConfig, "email">, message: EmailMessage, now: Date): Promise<string> {
  const id = randomUUID();
  await db.outboundEmail.create({
    data: {
      id,
      merchantId: message.merchantId,
      recipient: message.recipient,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      eraseAfterSend: message.eraseAfterSend ?? false,
      status: config.email.mode === "smtp" ? "pending" : "kept",
      createdAt: now,
    },
  });
  return id;
}
