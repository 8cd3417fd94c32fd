import type { Command } from "commander";
import { defineAction } from "../command-kit";
import { withCliDatabase } from "../open-database";

export function registerMailboxCommand(program: Command): void {
  defineAction(
    program.command("mailbox").description("the e-mails kept locally (no SMTP_URL), newest 50 first"),
    async () =>
      withCliDatabase(async (db) => {
        const messages = await db.outboundEmail.findMany({ orderBy: { createdAt: "desc" }, take: 50 });
        const view = messages.map((message) => ({
          id: message.id,
          to: message.recipient,
          subject: message.subject,
          status: message.status,
          created_at: message.createdAt.toISOString(),
          text: message.text,
        }));
        const text = view.map((message) => `${message.created_at}  ${message.status.padEnd(7)} ${message.to}\n  ${message.subject}\n  ${message.text.replace(/\n/g, "\n  ")}`).join("\n");
        return { json: { messages: view }, text: text || "(no messages)" };
      }),
  );
}
