import http from "node:http";
import { constructEvent, WebhookVerificationError } from "@gateway/client";

// During a rotation (`/v1/webhooks/rotate-secret`) keep both secrets until the overlap ends.
const secrets = [process.env.GATEWAY_WEBHOOK_SECRET, process.env.GATEWAY_WEBHOOK_SECRET_PREVIOUS];

http
  .createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      try {
        // Verify the raw bytes before parsing them.
        const event = constructEvent({ rawBody: Buffer.concat(chunks), headers: request.headers, secrets });
        if (event.type === "invoice.paid") console.log("paid", event.body.uuid, event.body.payment_amount);
        else if (event.type === "payout.confirmed") console.log("payout done", event.body.uuid, event.body.txid);
        response.writeHead(200).end(); // 2xx only once processed: anything else is retried
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        response.writeHead(error.reason === "unknown_event" ? 200 : 400).end();
      }
    });
  })
  .listen(8080);
