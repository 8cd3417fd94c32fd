import { describe, expect, it } from "vitest";
import { callApi, callSigned, getTestDb, makeMerchant } from "@/lib/testing/harness";

// Races the database settles: revivals with is_refresh against each other and against a payment,
// and the buyer's pick on the hosted page against itself and against the term's end.

describe("invoice races", () => {
  it("gives each of many concurrent creates its own invoice and its own address, as the rows hold them", async () => {
    const merchant = await makeMerchant();
    const body = { amount: "10.00", currency: "USD", to_currency: "USDT", network: "tron" };
    const responses = await Promise.all(Array.from({ length: 60 }, () => callSigned("/v1/payment", body, merchant)));
    expect(responses.map((response) => response.status)).toEqual(Array(60).fill(200));
    const answered = responses.map((response) => response.body.result);
    const rows = await getTestDb().invoice.findMany({ where: { merchantId: merchant.merchantId } });
    expect(rows).toHaveLength(60);
    expect(new Set(rows.map((row) => row.address)).size).toBe(60);
    expect(new Set(rows.map((row) => row.addressIndex)).size).toBe(60);
    const rowById = new Map(rows.map((row) => [row.id, row]));
    for (const result of answered) {
      expect(rowById.get(result.uuid)?.address).toBe(result.address);
      expect(result.address_qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    }
  });

  it("revives an expired order once, however many is_refresh requests race", async () => {
    const merchant = await makeMerchant();
    const first = (await callSigned("/v1/payment", { amount: "10.00", currency: "USD", to_currency: "USDT", network: "tron", order_id: "race-revive" }, merchant)).body.result;
    await callSigned("/v1/sandbox/expire", { uuid: first.uuid }, merchant);
    const body = { amount: "10.00", currency: "USD", to_currency: "USDT", network: "tron", order_id: "race-revive", is_refresh: true };
    const responses = await Promise.all(Array.from({ length: 12 }, () => callSigned("/v1/payment", body, merchant)));
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(200));
    expect(new Set(responses.map((response) => response.body.result.uuid))).toEqual(new Set([first.uuid]));
    expect(await getTestDb().invoice.count({ where: { merchantId: merchant.merchantId, orderId: "race-revive" } })).toBe(1);
    expect((await callSigned("/v1/payment/info", { uuid: first.uuid }, merchant)).body.result.payment_status).toBe("check");
  });

  it("keeps an expired invoice that a late payment reached from being revived", async () => {
    const merchant = await makeMerchant();
    const first = (await callSigned("/v1/payment", { amount: "10.00", currency: "USD", to_currency: "USDT", network: "tron", order_id: "race-late" }, merchant)).body.result;
    await callSigned("/v1/sandbox/expire", { uuid: first.uuid }, merchant);
    const [late, revived] = await Promise.all([
      callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: first.address, amount: "1" }, merchant),
      callSigned("/v1/payment", { amount: "10.00", currency: "USD", to_currency: "USDT", network: "tron", order_id: "race-late", is_refresh: true }, merchant),
    ]);
    expect(late.status).toBe(200);
    expect(revived.status).toBe(200);
    // Either the revival came first (the old invoice is live again and takes the payment), or the
    // payment did (the old invoice is not revivable, and a new one is made): never both at once.
    const invoices = await getTestDb().invoice.findMany({ where: { merchantId: merchant.merchantId, orderId: "race-late" }, include: { transfers: true } });
    const live = invoices.filter((invoice) => !invoice.isFinal && invoice.expiresAt > new Date());
    expect(live).toHaveLength(1);
    if (revived.body.result.uuid === first.uuid) expect(invoices).toHaveLength(1);
    else expect(invoices.find((invoice) => invoice.id === first.uuid)!.transfers).toHaveLength(1);
  });

  it("lets one of many concurrent picks on the hosted page fix the method; the others are refused", async () => {
    const merchant = await makeMerchant();
    const invoice = (await callSigned("/v1/payment", { amount: "10.00", currency: "USD" }, merchant)).body.result;
    const pick = (network: string) =>
      callApi(new Request(`http://gateway.test/v1/pay/${invoice.uuid}/select`, { method: "POST", body: JSON.stringify({ currency: "USDT", network }) }));
    const responses = await Promise.all(["tron", "bsc", "ethereum", "polygon", "solana", "tron"].map(pick));
    const chosen = responses.filter((response) => response.status === 200);
    expect(chosen).toHaveLength(1);
    expect(responses.filter((response) => response.status !== 200).map((response) => response.body.error.code)).toEqual(Array(5).fill("pay.not_selectable"));
    const stored = await getTestDb().invoice.findUniqueOrThrow({ where: { id: invoice.uuid } });
    expect(stored).toMatchObject({ status: "check", network: chosen[0].body.result.network, address: chosen[0].body.result.address });
  });

  it("refuses a pick once the term has ended, even before the expiry job ran", async () => {
    const merchant = await makeMerchant();
    const invoice = (await callSigned("/v1/payment", { amount: "10.00", currency: "USD" }, merchant)).body.result;
    await getTestDb().invoice.update({ where: { id: invoice.uuid }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const response = await callApi(new Request(`http://gateway.test/v1/pay/${invoice.uuid}/select`, { method: "POST", body: JSON.stringify({ currency: "USDT", network: "tron" }) }));
    expect(response.body.error.code).toBe("invoice.expired");
    expect((await getTestDb().invoice.findUniqueOrThrow({ where: { id: invoice.uuid } })).address).toBeNull();
  });
});
