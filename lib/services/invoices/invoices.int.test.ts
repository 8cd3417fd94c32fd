import { describe, expect, it } from "vitest";
import { validateAddress } from "@/lib/chains/addresses";
import { callApi, callSigned, getTestDb, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { RateSourceError } from "@/lib/rates";

async function createPayment(merchant: TestMerchant, body: Record<string, unknown>, options: Parameters<typeof callSigned>[3] = {}) {
  return callSigned("/v1/payment", body, merchant, options);
}

describe("POST /v1/payment", () => {
  it("creates an invoice for a coin and network with a fresh address in the network's format", async () => {
    const merchant = await makeMerchant();
    const response = await createPayment(merchant, { amount: "25.00", currency: "USD", to_currency: "USDT", network: "tron", order_id: "o-1", additional_data: "secret" });
    expect(response.status).toBe(200);
    const payment = response.body.result;
    expect(payment).toMatchObject({
      order_id: "o-1",
      amount: "25.00",
      currency: "USD",
      payer_currency: "USDT",
      network: "tron",
      payment_status: "check",
      is_multi: false,
      is_final: false,
      payment_amount: null,
      amount_paid: "0",
      txid: "",
      payer_address: "",
      additional_data: "secret",
      url: `http://gateway.test/pay/${payment.uuid}`,
    });
    expect(validateAddress("tron", payment.address).ok).toBe(true);
    expect(payment.address_qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(payment.address_qr_code.split(",")[1], "base64").toString()).toContain("<svg");
    expect(payment.payer_amount).toMatch(/^\d+(\.\d{1,6})?$/);
    expect(payment.amount_remaining).toBe(payment.payer_amount);
    expect(payment.required_confirmations).toBeGreaterThanOrEqual(1);
    expect(payment.expired_at - Math.floor(Date.now() / 1000)).toBeGreaterThan(3590);
    expect(payment.rate_expires_at).toBeGreaterThan(Math.floor(Date.now() / 1000));
  });

  it("gives every invoice its own address", async () => {
    const merchant = await makeMerchant();
    const addresses = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const response = await createPayment(merchant, { amount: "10", currency: "USD", to_currency: "ETH", network: "base" });
      addresses.add(response.body.result.address);
    }
    expect(addresses.size).toBe(5);
  });

  it("creates a currency-agnostic invoice when neither to_currency nor network is given", async () => {
    const merchant = await makeMerchant();
    const response = await createPayment(merchant, { amount: "15", currency: "EUR" });
    expect(response.body.result).toMatchObject({
      payment_status: "select",
      is_multi: true,
      currency: "EUR",
      amount: "15.00",
      payer_currency: "",
      address: "",
      address_qr_code: "",
      payer_amount: "",
      amount_paid: "",
      amount_remaining: "",
      network: "",
    });
  });

  it("prices in a 0-decimal fiat and in a coin", async () => {
    const merchant = await makeMerchant();
    const jpy = await createPayment(merchant, { amount: "1500", currency: "JPY", to_currency: "BTC" });
    expect(jpy.body.result).toMatchObject({ amount: "1500", network: "bitcoin", payer_currency: "BTC" });
    const coin = await createPayment(merchant, { amount: "0.5", currency: "ETH", network: "arbitrum" });
    expect(coin.body.result).toMatchObject({ payer_currency: "ETH", network: "arbitrum", amount: "0.5" });
    expect(coin.body.result.payer_amount).toBe("0.5");
  });

  it.each([
    [{ amount: "10", currency: "KZT" }, "payment.unknown_currency"],
    [{ amount: "10", currency: "UZS", to_currency: "USDT", network: "tron" }, "payment.unknown_currency"],
    [{ amount: "10", currency: "USD", to_currency: "EUR", network: "tron" }, "payment.unknown_to_currency"],
    [{ amount: "10", currency: "USD", network: "tron" }, "payment.to_currency_required"],
    [{ amount: "10", currency: "USD", to_currency: "USDT" }, "payment.network_required"],
    [{ amount: "10", currency: "USD", to_currency: "BTC", network: "tron" }, "payment.unsupported_network"],
    [{ amount: "10", currency: "USD", to_currency: "USDT", network: "nonet" }, "payment.unsupported_network"],
    [{ amount: "-1", currency: "USD" }, "payment.bad_amount"],
    [{ amount: "0", currency: "USD" }, "payment.bad_amount"],
    [{ amount: "10.001", currency: "USD" }, "payment.bad_amount"],
    [{ amount: "10.5", currency: "JPY" }, "payment.bad_amount"],
    [{ amount: 10, currency: "USD" }, "payment.bad_amount"],
    [{ amount: "1e3", currency: "USD" }, "payment.bad_amount"],
    [{ amount: "10", currency: "USD", subtract: 101 }, "payment.bad_subtract"],
    [{ amount: "10", currency: "USD", subtract: 1.5 }, "payment.bad_subtract"],
    [{ amount: "10", currency: "USD", accuracy_payment_percent: 5.01 }, "payment.bad_accuracy"],
    [{ amount: "10", currency: "USD", accuracy_payment_percent: -1 }, "payment.bad_accuracy"],
    [{ amount: "10", currency: "USD", url_callback: "ftp://shop.example/hook" }, "payment.bad_url_callback"],
    [{ amount: "10", currency: "USD", url_callback: "http://169.254.169.254/latest" }, "payment.bad_url_callback"],
    [{ amount: "10", currency: "USD", url_callback: "http://10.0.0.7/hook" }, "payment.bad_url_callback"],
    [{ amount: "0.50", currency: "USD", to_currency: "BTC" }, "payment.below_minimum"],
    [{ amount: "0.01", currency: "USD" }, "payment.below_minimum"],
    [{ amount: "10", currency: "USD", theme: "blue" }, "payment.bad_request"],
    [{ amount: "10", currency: "USD", url_return: "javascript:alert(1)" }, "payment.bad_request"],
    [{ currency: "USD" }, "payment.bad_amount"],
  ])("refuses %j with %s", async (body, code) => {
    const merchant = await makeMerchant();
    const response = await createPayment(merchant, body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
  });

  it("clamps lifetime to 300–43200 seconds instead of refusing it", async () => {
    const merchant = await makeMerchant();
    const now = Math.floor(Date.now() / 1000);
    const short = await createPayment(merchant, { amount: "10", currency: "USD", lifetime: 5 });
    const long = await createPayment(merchant, { amount: "10", currency: "USD", lifetime: 10_000_000 });
    expect(short.body.result.expired_at - now).toBeGreaterThanOrEqual(299);
    expect(short.body.result.expired_at - now).toBeLessThanOrEqual(302);
    expect(long.body.result.expired_at - now).toBeGreaterThanOrEqual(43_199);
    expect(long.body.result.expired_at - now).toBeLessThanOrEqual(43_202);
  });

  it("answers invoice.fee_quote_failed 503 and creates nothing when no rate can be had", async () => {
    const merchant = await makeMerchant();
    const failing = { name: "down", isOffline: false, fetchUsdPrices: async () => Promise.reject(new RateSourceError("down", { retryable: true, source: "down" })) };
    const response = await createPayment(merchant, { amount: "10", currency: "USD", to_currency: "BTC" }, { deps: makeTestDeps({ rates: failing }) });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe("invoice.fee_quote_failed");
    expect(await getTestDb().invoice.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
  });

  it("returns the live invoice for a repeated order_id, even when many requests race", async () => {
    const merchant = await makeMerchant();
    const body = { amount: "12", currency: "USD", to_currency: "USDT", network: "tron", order_id: "race-1" };
    const responses = await Promise.all(Array.from({ length: 16 }, () => createPayment(merchant, body)));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(new Set(responses.map((response) => response.body.result.uuid)).size).toBe(1);
    expect(await getTestDb().invoice.count({ where: { merchantId: merchant.merchantId, orderId: "race-1" } })).toBe(1);
  });

  it("replays the response for a repeated Idempotency-Key", async () => {
    const merchant = await makeMerchant();
    const body = { amount: "12", currency: "USD", to_currency: "USDT", network: "tron" };
    const first = await createPayment(merchant, body, { headers: { "idempotency-key": "pay-1" } });
    const second = await createPayment(merchant, body, { headers: { "idempotency-key": "pay-1" } });
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await getTestDb().invoice.count({ where: { merchantId: merchant.merchantId } })).toBe(1);
  });

  it("creates a new invoice for an order_id whose invoice expired, or revives it with is_refresh", async () => {
    const merchant = await makeMerchant();
    const body = { amount: "12", currency: "USD", to_currency: "USDT", network: "tron", order_id: "refresh-1" };
    const first = (await createPayment(merchant, body)).body.result;
    const expired = await callSigned("/v1/sandbox/expire", { uuid: first.uuid }, merchant);
    expect(expired.body.result).toMatchObject({ payment_status: "cancel", is_final: true });
    const revived = (await createPayment(merchant, { ...body, is_refresh: true })).body.result;
    expect(revived.uuid).toBe(first.uuid);
    expect(revived).toMatchObject({ payment_status: "check", is_final: false, address: first.address });
    expect(revived.expired_at).toBeGreaterThan(Math.floor(Date.now() / 1000) + 3500);
    await callSigned("/v1/sandbox/expire", { uuid: first.uuid }, merchant);
    const fresh = (await createPayment(merchant, body)).body.result;
    expect(fresh.uuid).not.toBe(first.uuid);
    expect(fresh.address).not.toBe(first.address);
  });

  it("keeps one merchant's invoices away from another (payment.not_found)", async () => {
    const owner = await makeMerchant();
    const stranger = await makeMerchant();
    const created = (await createPayment(owner, { amount: "10", currency: "USD", order_id: "mine" })).body.result;
    for (const lookup of [{ uuid: created.uuid }, { order_id: "mine" }]) {
      const response = await callSigned("/v1/payment/info", lookup, stranger);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe("payment.not_found");
    }
    const info = await callSigned("/v1/payment/info", { uuid: created.uuid }, owner);
    expect(info.body.result).toMatchObject({ uuid: created.uuid, refund_status: "none", refunds: [] });
  });

  it.each([
    [{}, "payment.no_lookup", 400],
    [{ uuid: "not-a-uuid" }, "payment.bad_uuid", 400],
    [{ uuid: "00000000-0000-4000-8000-000000000000" }, "payment.not_found", 404],
  ])("payment/info %j → %s", async (body, code, status) => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/payment/info", body, merchant);
    expect(response.status).toBe(status);
    expect(response.body.error.code).toBe(code);
  });
});

describe("payment list and history", () => {
  it("pages newest first with a cursor, and filters", async () => {
    const merchant = await makeMerchant();
    for (let i = 0; i < 7; i++) await createPayment(merchant, { amount: String(10 + i), currency: "USD", order_id: `h-${i}`, ...(i % 2 ? { to_currency: "BTC" } : {}) });
    const first = await callSigned("/v1/payment/list", { limit: 3 }, merchant);
    expect(first.body.result.items.map((item: { order_id: string }) => item.order_id)).toEqual(["h-6", "h-5", "h-4"]);
    expect(first.body.result.items[0].refunds).toBeUndefined();
    const second = await callSigned("/v1/payment/list", { limit: 3, cursor: first.body.result.paginate.next_cursor }, merchant);
    expect(second.body.result.items.map((item: { order_id: string }) => item.order_id)).toEqual(["h-3", "h-2", "h-1"]);
    const last = await callSigned("/v1/payment/list", { limit: 3, cursor: second.body.result.paginate.next_cursor }, merchant);
    expect(last.body.result.items).toHaveLength(1);
    expect(last.body.result.paginate.next_cursor).toBeNull();
    const btc = await callSigned("/v1/payment/history", { network: "bitcoin" }, merchant);
    expect(btc.body.result.items).toHaveLength(3);
    const selecting = await callSigned("/v1/payment/history", { status: "select" }, merchant);
    expect(selecting.body.result.items).toHaveLength(4);
    const bad = await callSigned("/v1/payment/history", { cursor: "%%%" }, merchant);
    expect(bad.body.error.code).toBe("payment.bad_cursor");
  });
});

describe("hosted page operations", () => {
  it("serve the public form and let the buyer select a coin and network", async () => {
    const merchant = await makeMerchant();
    const created = (await createPayment(merchant, { amount: "20", currency: "USD", additional_data: "private", payer_email: "buyer@example.com" })).body.result;
    const page = await callApi(new Request(`http://gateway.test/v1/pay/${created.uuid}`));
    expect(page.status).toBe(200);
    expect(page.body.result).not.toHaveProperty("additional_data");
    expect(page.body.result).not.toHaveProperty("payer_email");
    expect(page.body.result).not.toHaveProperty("payer_address");
    const selected = await callApi(new Request(`http://gateway.test/v1/pay/${created.uuid}/select`, { method: "POST", body: JSON.stringify({ currency: "usdc", network: "Polygon" }) }));
    expect(selected.status).toBe(200);
    expect(selected.body.result).toMatchObject({ payment_status: "check", is_multi: false, payer_currency: "USDC", network: "polygon" });
    expect(validateAddress("polygon", selected.body.result.address).ok).toBe(true);
    const again = await callApi(new Request(`http://gateway.test/v1/pay/${created.uuid}/select`, { method: "POST", body: JSON.stringify({ currency: "BTC", network: "bitcoin" }) }));
    expect(again.body.error.code).toBe("pay.not_selectable");
  });

  it("respects the merchant's accepted set", async () => {
    const merchant = await makeMerchant();
    const set = await callSigned("/v1/payment/accepted/set", { accepted: [{ currency: "USDT", network: "tron" }] }, merchant);
    expect(set.body.result).toEqual({ ok: true });
    expect((await callSigned("/v1/payment/accepted/list", {}, merchant)).body.result).toEqual({ accepted: [{ currency: "USDT", network: "tron" }] });
    const created = (await createPayment(merchant, { amount: "20", currency: "USD" })).body.result;
    const refused = await callApi(new Request(`http://gateway.test/v1/pay/${created.uuid}/select`, { method: "POST", body: JSON.stringify({ currency: "BTC", network: "bitcoin" }) }));
    expect(refused.body.error.code).toBe("pay.method_not_accepted");
    const accepted = await callApi(new Request(`http://gateway.test/v1/pay/${created.uuid}/select`, { method: "POST", body: JSON.stringify({ currency: "USDT", network: "tron" }) }));
    expect(accepted.status).toBe(200);
    expect((await callSigned("/v1/payment/accepted/set", { accepted: [{ currency: "XYZ", network: "tron" }] }, merchant)).body.error.code).toBe("accepted.unknown_currency");
    expect((await callSigned("/v1/payment/accepted/set", { accepted: [{ currency: "BTC", network: "tron" }] }, merchant)).body.error.code).toBe("accepted.no_network");
    await callSigned("/v1/payment/accepted/set", { accepted: [] }, merchant);
    expect((await callSigned("/v1/payment/accepted/list", {}, merchant)).body.result.accepted).toEqual([]);
  });

  it.each([
    ["not-a-uuid", 400, "pay.bad_uuid"],
    ["00000000-0000-4000-8000-000000000000", 404, "pay.not_found"],
    ["%E0%A4%A", 404, "request.not_found"],
  ])("GET /v1/pay/%s → %s", async (id, status, code) => {
    const response = await callApi(new Request(`http://gateway.test/v1/pay/${id}`));
    expect(response.status).toBe(status);
    expect(response.body.error.code).toBe(code);
  });

  it.each([
    [{ currency: "DOGE", network: "tron" }, "payment.unsupported_network"],
    [{ currency: "XYZ", network: "tron" }, "pay.unknown_currency"],
    [{ currency: "BTC" }, "payment.unsupported_network"],
  ])("select %j → %s", async (body, code) => {
    const merchant = await makeMerchant();
    const created = (await createPayment(merchant, { amount: "20", currency: "USD" })).body.result;
    const response = await callApi(new Request(`http://gateway.test/v1/pay/${created.uuid}/select`, { method: "POST", body: JSON.stringify(body) }));
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe(code);
  });

  it("refuses a selection below the network's minimum with pay.below_minimum", async () => {
    const merchant = await makeMerchant();
    const created = (await createPayment(merchant, { amount: "2", currency: "USD" })).body.result;
    const response = await callApi(new Request(`http://gateway.test/v1/pay/${created.uuid}/select`, { method: "POST", body: JSON.stringify({ currency: "BTC", network: "bitcoin" }) }));
    expect(response.body.error.code).toBe("pay.below_minimum");
  });
});
