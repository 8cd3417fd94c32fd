import { describe, expect, it } from "vitest";
import { callApi, callSigned, getTestDb, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";

// Payment links: the merchant's management operations, the public card and the public checkout
// that makes a new invoice of the link's merchant on every call.

const publicGet = (linkId: string, options: { deps?: ReturnType<typeof makeTestDeps> } = {}) => callApi(new Request(`http://gateway.test/v1/link/${linkId}`), options);
const checkout = (linkId: string, body: unknown) => callApi(new Request(`http://gateway.test/v1/link/${linkId}/checkout`, { method: "POST", body: JSON.stringify(body) }));

async function createLink(merchant: TestMerchant, body: Record<string, unknown>) {
  const response = await callSigned("/v1/payment/link", { title: "Coffee beans", ...body }, merchant);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.result as { link_id: string; url: string };
}

describe("payment link management", () => {
  it("creates, shows, lists and toggles links; another merchant's link is not found", async () => {
    const merchant = await makeMerchant();
    const fixed = await callSigned(
      "/v1/payment/link",
      { title: "  Coffee beans ", description: "1 kg", amount_mode: "fixed", currency: "eur", amount: "12.5", pinned_currency: "usdt", pinned_network: "TRON", url_callback: "http://127.0.0.1:9/hook" },
      merchant,
    );
    expect(fixed.status).toBe(200);
    expect(fixed.body.result).toMatchObject({
      title: "Coffee beans",
      description: "1 kg",
      amount_mode: "fixed",
      currency: "EUR",
      amount_fixed: "12.5",
      pinned_currency: "USDT",
      pinned_network: "tron",
      is_active: true,
      is_expired: false,
      expires_at: null,
      url: `http://gateway.test/pay/link/${fixed.body.result.link_id}`,
    });
    const open = await createLink(merchant, { amount_mode: "open", currency: "USD" });
    const range = await createLink(merchant, { amount_mode: "range", currency: "USD", amount_min: "5", amount_max: "50", expires_at: new Date(Date.now() + 3_600_000).toISOString() });

    const listed = (await callSigned("/v1/payment/link/list", { limit: 2 }, merchant)).body.result;
    expect(listed.items.map((item: { link_id: string }) => item.link_id)).toEqual([range.link_id, open.link_id]);
    const rest = (await callSigned("/v1/payment/link/list", { cursor: listed.paginate.next_cursor }, merchant)).body.result;
    expect(rest.items.map((item: { link_id: string }) => item.link_id)).toEqual([fixed.body.result.link_id]);
    expect(rest.paginate.next_cursor).toBeNull();

    expect((await callSigned("/v1/payment/link/toggle", { link_id: open.link_id }, merchant)).body.result.is_active).toBe(false);
    expect((await callSigned("/v1/payment/link/toggle", { link_id: open.link_id, is_active: true }, merchant)).body.result.is_active).toBe(true);
    expect((await callSigned("/v1/payment/link/info", { link_id: range.link_id }, merchant)).body.result).toMatchObject({ amount_min: "5", amount_max: "50" });

    const stranger = await makeMerchant();
    for (const [path, body] of [["/v1/payment/link/info", { link_id: open.link_id }], ["/v1/payment/link/toggle", { link_id: open.link_id }]] as const) {
      const response = await callSigned(path, body, stranger);
      expect([response.status, response.body.error.code]).toEqual([404, "paylink.not_found"]);
    }
    expect((await callSigned("/v1/payment/link/list", {}, stranger)).body.result.items).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["an empty title", { title: " ", amount_mode: "open", currency: "USD" }, "paylink.bad_title"],
    ["an unknown mode", { amount_mode: "pay-what-you-want", currency: "USD" }, "paylink.bad_mode"],
    ["an amount on an open link", { amount_mode: "open", currency: "USD", amount: "5" }, "paylink.bad_mode"],
    ["a fixed link without amount", { amount_mode: "fixed", currency: "USD" }, "paylink.amount_required"],
    ["a range without limits", { amount_mode: "range", currency: "USD" }, "paylink.amount_required"],
    ["a range upside down", { amount_mode: "range", currency: "USD", amount_min: "50", amount_max: "5" }, "paylink.bad_range"],
    ["a zero amount", { amount_mode: "fixed", currency: "USD", amount: "0" }, "paylink.not_positive"],
    ["too many decimals", { amount_mode: "fixed", currency: "USD", amount: "1.005" }, "paylink.not_positive"],
    ["an unknown price currency", { amount_mode: "open", currency: "XYZ" }, "paylink.unknown_currency"],
    ["a fiat pinned coin", { amount_mode: "open", currency: "USD", pinned_currency: "EUR" }, "paylink.unknown_currency"],
    ["a coin the pinned network does not carry", { amount_mode: "open", currency: "USD", pinned_currency: "BTC", pinned_network: "tron" }, "payment.unsupported_network"],
    ["an expiry in the past", { amount_mode: "open", currency: "USD", expires_at: "2020-01-01T00:00:00Z" }, "paylink.bad_expiry"],
    ["an expiry beyond year 9999", { amount_mode: "open", currency: "USD", expires_at: "+010000-01-01T00:00:00Z" }, "paylink.bad_expiry"],
    ["an expiry that is not RFC 3339", { amount_mode: "open", currency: "USD", expires_at: "Jan 1 2099" }, "paylink.bad_expiry"],
    ["an amount of 16 digits", { amount_mode: "fixed", currency: "USD", amount: "1".repeat(16) }, "paylink.amount_too_large"],
    ["a private callback", { amount_mode: "open", currency: "USD", url_callback: "http://10.0.0.1/hook" }, "paylink.bad_url"],
  ])("refuses %s", async (_name, body, code) => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/payment/link", { title: "Beans", ...body }, merchant);
    expect([response.status, response.body.error.code]).toEqual([400, code]);
    expect(await getTestDb().paymentLink.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
  });

  it("answers paylink.bad_id for a malformed id and paylink.disabled when the operator turned links off", async () => {
    const merchant = await makeMerchant();
    const bad = await callSigned("/v1/payment/link/info", { link_id: "nope" }, merchant);
    expect([bad.status, bad.body.error.code]).toEqual([400, "paylink.bad_id"]);
    const badPublic = await publicGet("nope");
    expect([badPublic.status, badPublic.body.error.code]).toEqual([400, "paylink.bad_id"]);
    const off = makeTestDeps({}, { GATEWAY_PAYMENT_LINKS: "0" });
    const created = await createLink(merchant, { amount_mode: "open", currency: "USD" });
    const disabled = await publicGet(created.link_id, { deps: off });
    expect([disabled.status, disabled.body.error.code]).toEqual([503, "paylink.disabled"]);
  });
});

describe("the public card and checkout", () => {
  it("shows the card without the merchant, and makes a new invoice of the fixed amount on every checkout, pinned coin winning", async () => {
    const merchant = await makeMerchant();
    const link = await createLink(merchant, { amount_mode: "fixed", currency: "USD", amount: "25", pinned_currency: "USDT", pinned_network: "tron", url_callback: "http://127.0.0.1:9/hook" });
    const card = await publicGet(link.link_id);
    expect(card.status).toBe(200);
    expect(card.body.result).toEqual({ link_id: link.link_id, title: "Coffee beans", description: "", amount_mode: "fixed", currency: "USD", amount_fixed: "25", pinned_currency: "USDT", pinned_network: "tron" });
    expect(JSON.stringify(card.body)).not.toContain(merchant.merchantId);

    const first = await checkout(link.link_id, { amount: "999", currency: "BTC", network: "bitcoin", payer_email: "buyer@example.com" });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.result).toMatchObject({ amount: "25.00", currency: "USD", payer_currency: "USDT", network: "tron", payment_status: "check" });
    expect(first.body.result.url).toBe(`http://gateway.test/pay/${first.body.result.uuid}`);
    // The fixed amount and the pinned coin ignore whatever the buyer sends for them.
    const second = await checkout(link.link_id, { amount: 5, currency: 7, network: false });
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.result.uuid).not.toBe(first.body.result.uuid);
    const invoices = await getTestDb().invoice.findMany({ where: { paymentLinkId: link.link_id }, orderBy: { createdAt: "asc" } });
    expect(invoices.map((invoice) => [invoice.merchantId, invoice.urlCallback, invoice.payerEmail])).toEqual([
      [merchant.merchantId, "http://127.0.0.1:9/hook", "buyer@example.com"],
      [merchant.merchantId, "http://127.0.0.1:9/hook", null],
    ]);
  });

  it("takes the buyer's amount within a range's limits and the buyer's coin, or makes a currency-agnostic invoice", async () => {
    const merchant = await makeMerchant();
    const link = await createLink(merchant, { amount_mode: "range", currency: "USD", amount_min: "5", amount_max: "50" });
    for (const [body, code] of [
      [{}, "paylink.amount_required"],
      [{ amount: "-1" }, "paylink.not_positive"],
      [{ amount: "4.99" }, "paylink.below_min"],
      [{ amount: "50.01" }, "paylink.above_max"],
      [{ amount: "9".repeat(70) }, "paylink.above_max"],
      [{ amount: "10", currency: "EUR" }, "paylink.unknown_currency"],
      [{ amount: "10", payer_email: "not an address" }, "email.bad_address"],
      [{ amount: 10 }, "paylink.not_positive"],
      [{ amount: "10", currency: 5 }, "paylink.unknown_currency"],
    ] as const) {
      const response = await checkout(link.link_id, body);
      expect([response.status, response.body.error.code], JSON.stringify(body)).toEqual([400, code]);
    }
    const chosen = await checkout(link.link_id, { amount: "20", currency: "USDT", network: "tron" });
    expect(chosen.body.result).toMatchObject({ amount: "20.00", payer_currency: "USDT", network: "tron", payment_status: "check" });
    const agnostic = await checkout(link.link_id, { amount: "5" });
    expect(agnostic.body.result).toMatchObject({ amount: "5.00", payment_status: "select" });
    expect(await getTestDb().invoice.count({ where: { paymentLinkId: link.link_id } })).toBe(2);
  });

  it("is not found once disabled or expired, while the invoices it made stay payable", async () => {
    const merchant = await makeMerchant();
    const link = await createLink(merchant, { amount_mode: "open", currency: "USD" });
    const made = (await checkout(link.link_id, { amount: "15", currency: "USDT", network: "tron" })).body.result;
    await callSigned("/v1/payment/link/toggle", { link_id: link.link_id, is_active: false }, merchant);
    for (const response of [await publicGet(link.link_id), await checkout(link.link_id, { amount: "15" })]) {
      expect([response.status, response.body.error.code]).toEqual([404, "paylink.not_found"]);
    }
    expect((await callApi(new Request(`http://gateway.test/v1/pay/${made.uuid}`))).body.result).toMatchObject({ payment_status: "check" });

    const expiring = await createLink(merchant, { amount_mode: "open", currency: "USD", expires_at: new Date(Date.now() + 60_000).toISOString() });
    const later = makeTestDeps({ now: () => new Date(Date.now() + 120_000) });
    const expired = await publicGet(expiring.link_id, { deps: later });
    expect([expired.status, expired.body.error.code]).toEqual([404, "paylink.not_found"]);
    expect((await callSigned("/v1/payment/link/info", { link_id: expiring.link_id }, merchant, { deps: later })).body.result).toMatchObject({ is_active: true, is_expired: true });
  });
});
