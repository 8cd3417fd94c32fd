import { GatewayClient, isGatewayError } from "@gateway/client";

const gateway = new GatewayClient({
  baseUrl: process.env.GATEWAY_URL ?? "http://localhost:3000",
  publicId: process.env.GATEWAY_PUBLIC_ID!,
  secret: process.env.GATEWAY_SECRET!,
});

// One Idempotency-Key per call, reused by its retries; pass your own to survive restarts too.
const invoice = await gateway.payments.create(
  { amount: "25.00", currency: "USD", to_currency: "USDT", network: "tron", order_id: "order-1001" },
  { idempotencyKey: "order-1001" },
);
console.log(invoice.uuid, invoice.url, invoice.payer_amount, invoice.payer_currency);

try {
  const current = await gateway.payments.info({ uuid: invoice.uuid });
  console.log(current.payment_status, current.is_final);
} catch (error) {
  // `code` is typed as the codes the document lists for /v1/payment/info.
  if (isGatewayError(error, "/v1/payment/info") && error.code === "payment.not_found") console.log("no such invoice");
  else throw error;
}
