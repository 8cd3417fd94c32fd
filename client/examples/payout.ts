import { GatewayClient, isGatewayError } from "@gateway/client";

const gateway = new GatewayClient({ baseUrl: "http://localhost:3000", publicId: "pk_…", secret: "sk_…", maxRetries: 5 });

try {
  // Retried after a 429, a 503 or a lost connection with the same Idempotency-Key: one payout at most.
  const payout = await gateway.payouts.create({ amount: "25", currency: "USDT", network: "tron", address: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC", order_id: "po-77" });
  console.log(payout.uuid, payout.status, payout.approval_required);
} catch (error) {
  if (!isGatewayError(error, "/v1/payout")) throw error;
  if (error.code === "payout.insufficient_funds") console.log("top up first");
  else console.log(error.kind, error.status, error.code, error.message, error.requestId);
}
