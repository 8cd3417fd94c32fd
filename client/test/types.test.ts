import { describe, expectTypeOf, it } from "vitest";
import { GatewayClient, isGatewayError, type CursorPath, type ErrorCode, type RequestBody, type Result, type WebhookEvent } from "../src";

// Compile-time checks (tsc runs them; at run time they do nothing): the generated types reach
// every call, and misuse does not compile.

const client = new GatewayClient({ baseUrl: "http://127.0.0.1:1", publicId: "pk", secret: "sk" });

describe("types from the API document", () => {
  it("type bodies and results by path", () => {
    expectTypeOf<RequestBody<"/v1/payment">>().toHaveProperty("amount").toEqualTypeOf<string>();
    expectTypeOf<Result<"/v1/payment">>().toHaveProperty("uuid").toEqualTypeOf<string>();
    expectTypeOf<Result<"/v1/webhooks">>().toHaveProperty("secret").toEqualTypeOf<string>(); // 201 bare body
    expectTypeOf<Result<"/v1/pay/{id}", "get">>().toHaveProperty("uuid");
    expectTypeOf(client.payments.create).returns.resolves.toEqualTypeOf<Result<"/v1/payment">>();
  });

  it("type error codes by operation", () => {
    expectTypeOf<"payment.not_found">().toExtend<ErrorCode<"/v1/payment/info">>();
    expectTypeOf<"payout.not_found">().not.toExtend<ErrorCode<"/v1/payment/info">>();
    const error: unknown = null;
    if (isGatewayError(error, "/v1/payment/info")) {
      // @ts-expect-error -- payment info never answers a payout code
      void (error.code === "payout.not_found");
    }
  });

  it("allow paginate on cursor lists only", () => {
    expectTypeOf<"/v1/payment/history">().toExtend<CursorPath>();
    expectTypeOf<"/v1/payout/link/list">().not.toExtend<CursorPath>();
    expectTypeOf<"/v1/payment">().not.toExtend<CursorPath>();
  });

  it("refuse wrong calls", () => {
    const refused = () => {
      // @ts-expect-error -- amounts are decimal strings
      void client.payments.create({ amount: 10, currency: "USD" });
      // @ts-expect-error -- create needs a body
      void client.request("/v1/payment");
      // @ts-expect-error -- a path segment needs its value
      void client.get("/v1/pay/{id}");
      // @ts-expect-error -- not an operation
      void client.request("/v1/payments", {});
      // @ts-expect-error -- paged by offset, not by cursor
      void client.paginate("/v1/payout/link/list");
      void client.get("/v1/pay/{id}", { params: { id: "3f2b8c1e-6d4a-4f7e-9b21-5c8d0e7a6f13" } });
      void client.payouts.balance();
    };
    // Never called: only the compiler reads these calls.
    expectTypeOf(refused).toBeFunction();
  });

  it("type webhook events by X-Webhook-Event", () => {
    expectTypeOf<Extract<WebhookEvent, { type: "invoice.paid" }>["body"]>().toHaveProperty("payer_amount");
    expectTypeOf<Extract<WebhookEvent, { type: "payout.confirmed" }>["body"]>().toHaveProperty("address");
  });
});
