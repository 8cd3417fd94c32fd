import { GatewayClient } from "@gateway/client";

const gateway = new GatewayClient({ baseUrl: "http://localhost:3000", publicId: "pk_…", secret: "sk_…" });

// Follows paginate.next_cursor, fetching each page when the loop reaches it.
for await (const payment of gateway.paginate("/v1/payment/history", { status: "paid", date_from: "2026-01-01T00:00:00Z" })) {
  console.log(payment.uuid, payment.order_id, payment.payment_amount, payment.payer_currency);
}

// Any operation by its path: the body and the result are typed from the API document.
const { balances } = await gateway.request("/v1/balance", { currency: "USDT" });
console.log(balances);
