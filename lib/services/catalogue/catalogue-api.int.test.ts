import { describe, expect, it } from "vitest";
import { callApi, callSigned, makeMerchant, makeTestDeps } from "@/lib/testing/harness";

const FIATS_2 = ["USD", "EUR", "GBP", "RUB", "UAH", "PLN", "CZK", "TRY", "CNY", "INR", "BRL", "CAD", "AUD", "CHF", "AED", "ZAR", "MXN", "IDR", "THB", "VND", "NGN"];
const FIATS_0 = ["JPY", "KRW"];

async function getCurrencies(env: Record<string, string> = {}) {
  return callApi(new Request("http://gateway.test/v1/currencies"), { deps: makeTestDeps({}, env) });
}

describe("GET /v1/currencies", () => {
  it("lists 38 pricing currencies: 15 coins and the 23 fiats with their decimals", async () => {
    const { status, body } = await getCurrencies();
    expect(status).toBe(200);
    const pricing: { symbol: string; decimals: number; fiat: boolean }[] = body.pricing_currencies;
    expect(pricing).toHaveLength(38);
    expect(pricing.filter((entry) => entry.fiat)).toHaveLength(23);
    expect(pricing.filter((entry) => !entry.fiat)).toHaveLength(15);
    for (const symbol of FIATS_2) expect(pricing).toContainEqual({ symbol, decimals: 2, fiat: true });
    for (const symbol of FIATS_0) expect(pricing).toContainEqual({ symbol, decimals: 0, fiat: true });
    for (const symbol of ["KZT", "KGS", "UZS"]) expect(pricing.find((entry) => entry.symbol === symbol)).toBeUndefined();
    expect(pricing).toContainEqual({ symbol: "BTC", decimals: 8, fiat: false });
    expect(pricing).toContainEqual({ symbol: "ETH", decimals: 18, fiat: false });
  });

  it("lists settlement assets on all five chain families with real contracts and decimals", async () => {
    const { body } = await getCurrencies();
    const currencies: { symbol: string; decimals: number; networks: Record<string, unknown>[] }[] = body.currencies;
    const networkOf = (symbol: string, network: string) =>
      currencies.find((entry) => entry.symbol === symbol)?.networks.find((entry) => entry.network === network);
    const allNetworks = new Set(currencies.flatMap((entry) => entry.networks.map((network) => network.network)));
    for (const network of ["bitcoin", "litecoin", "dogecoin", "ethereum", "bsc", "polygon", "arbitrum", "base", "tron", "solana", "ton"]) {
      expect(allNetworks.has(network), network).toBe(true);
    }
    expect(currencies.every((entry) => entry.symbol !== "USD")).toBe(true);
    expect(networkOf("USDT", "tron")).toMatchObject({ kind: "token", contract: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t" });
    expect(networkOf("USDT", "ethereum")).toMatchObject({ kind: "token", contract: "0xdAC17F958D2ee523a2206206994597C13D831ec7" });
    expect(networkOf("USDC", "solana")).toMatchObject({ contract: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v" });
    expect(networkOf("USDT", "ton")).toMatchObject({ contract: "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs" });
    expect(networkOf("USDT", "bsc")).toMatchObject({ decimals: 18 });
    expect(currencies.find((entry) => entry.symbol === "USDT")?.decimals).toBe(6);
    expect(networkOf("BTC", "bitcoin")).toMatchObject({ kind: "native", min_confirmations: expect.any(Number) });
    expect(networkOf("BTC", "bitcoin")).not.toHaveProperty("contract");
    for (const entry of currencies.flatMap((currency) => currency.networks)) {
      expect(entry.available).toBe(entry.deposit_available);
    }
  });

  it("derives availability from configuration: sandbox on serves every network, off serves none", async () => {
    const on = await getCurrencies({ GATEWAY_SANDBOX: "1" });
    const off = await getCurrencies({ GATEWAY_SANDBOX: "0" });
    const flags = (body: any) => body.currencies.flatMap((currency: any) => currency.networks.map((network: any) => [network.deposit_available, network.payout_available]));
    expect(flags(on.body).every(([deposit, payout]: boolean[]) => deposit && payout)).toBe(true);
    expect(flags(off.body).every(([deposit, payout]: boolean[]) => !deposit && !payout)).toBe(true);
  });
});

describe("POST /v1/payment/services and /v1/payout/services", () => {
  it("answer one entry per asset, with limits and commission as decimal strings", async () => {
    const merchant = await makeMerchant();
    const payment = await callSigned("/v1/payment/services", {}, merchant);
    const payout = await callSigned("/v1/payout/services", {}, merchant);
    expect(payment.status).toBe(200);
    expect(payout.status).toBe(200);
    expect(payment.body.result.length).toBe(payout.body.result.length);
    const usdtTron = payment.body.result.find((entry: any) => entry.currency === "USDT" && entry.network === "tron");
    expect(usdtTron).toEqual({
      network: "tron",
      currency: "USDT",
      is_available: true,
      limit: { min_amount: expect.stringMatching(/^\d+(\.\d+)?$/), max_amount: expect.stringMatching(/^\d+(\.\d+)?$/) },
      commission: { fee_amount: expect.stringMatching(/^0\.3\d*$/), percent: "1.5" },
    });
    const payoutBtc = payout.body.result.find((entry: any) => entry.currency === "BTC");
    expect(payoutBtc.commission.percent).toBe("0");
    expect(Number(payoutBtc.commission.fee_amount)).toBeGreaterThan(0);
  });

  it("mark everything unavailable when no chain serves the networks", async () => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/payment/services", {}, merchant, { deps: makeTestDeps({}, { GATEWAY_SANDBOX: "0" }) });
    expect(response.body.result.every((entry: any) => entry.is_available === false)).toBe(true);
  });
});

describe("POST /v1/exchange-rate/list", () => {
  it("quotes every pricing currency against USDT, or one, or none for an unknown currency", async () => {
    const merchant = await makeMerchant();
    const all = await callSigned("/v1/exchange-rate/list", {}, merchant);
    expect(all.body.result).toHaveLength(38);
    expect(all.body.result.every((item: any) => item.to === "USDT" && /^\d+(\.\d+)?$/.test(item.course))).toBe(true);
    const one = await callSigned("/v1/exchange-rate/list", { currency_from: "eth" }, merchant);
    expect(one.body.result).toEqual([expect.objectContaining({ from: "ETH", to: "USDT", is_offline: true })]);
    const unknown = await callSigned("/v1/exchange-rate/list", { currency_from: "KZT" }, merchant);
    expect(unknown.status).toBe(200);
    expect(unknown.body.result).toEqual([]);
    const bad = await callSigned("/v1/exchange-rate/list", { currency_from: 5 }, merchant);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("rate.bad_request");
  });

  it("answers rate.unavailable 503 when the source fails", async () => {
    const merchant = await makeMerchant();
    const { RateSourceError } = await import("@/lib/rates");
    const failing = {
      name: "failing",
      isOffline: false,
      fetchUsdPrices: async () => {
        throw new RateSourceError("down", { retryable: true, source: "failing" });
      },
    };
    const response = await callSigned("/v1/exchange-rate/list", {}, merchant, { deps: makeTestDeps({ rates: failing }) });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe("rate.unavailable");
  });
});
