import { describe, expect, it } from "vitest";
import { parseRatio } from "@/lib/domain/money/ratio";
import { platformFeeMinor, quoteInvoice } from "./quote";
import { clampLifetime, resolveSettlementTarget, type SettlementCatalogue } from "./settlement-target";

const catalogue: SettlementCatalogue = {
  isFiat: (symbol) => ["USD", "EUR", "JPY"].includes(symbol),
  isPricingCurrency: (symbol) => ["USD", "EUR", "JPY", "BTC", "USDT", "ETH"].includes(symbol),
  isSettlementSymbol: (symbol) => ["BTC", "USDT", "ETH"].includes(symbol),
  networksOf: (symbol) => ({ BTC: ["bitcoin"], USDT: ["tron", "ethereum"], ETH: ["ethereum", "base"] })[symbol] ?? [],
};

describe("resolveSettlementTarget", () => {
  it.each([
    [{ currency: "USD" }, { kind: "select" }],
    [{ currency: "BTC" }, { kind: "select" }],
    [{ currency: "USD", toCurrency: "USDT", network: "tron" }, { kind: "fixed", symbol: "USDT", network: "tron" }],
    [{ currency: "BTC", network: "bitcoin" }, { kind: "fixed", symbol: "BTC", network: "bitcoin" }],
    [{ currency: "EUR", toCurrency: "BTC" }, { kind: "fixed", symbol: "BTC", network: "bitcoin" }],
  ])("%j → %j", (request, target) => {
    expect(resolveSettlementTarget(request, catalogue)).toEqual(target);
  });

  it.each([
    [{ currency: "KZT" }, "payment.unknown_currency"],
    [{ currency: "USD", network: "tron" }, "payment.to_currency_required"],
    [{ currency: "USD", toCurrency: "USDT" }, "payment.network_required"],
    [{ currency: "USD", toCurrency: "EUR", network: "tron" }, "payment.unknown_to_currency"],
    [{ currency: "USD", toCurrency: "DOGE", network: "dogecoin" }, "payment.unknown_to_currency"],
    [{ currency: "USD", toCurrency: "BTC", network: "tron" }, "payment.unsupported_network"],
    [{ currency: "ETH", network: "tron" }, "payment.unsupported_network"],
  ])("%j → %s", (request, code) => {
    expect(() => resolveSettlementTarget(request, catalogue)).toThrow(expect.objectContaining({ code }));
  });
});

describe("clampLifetime", () => {
  it.each([
    [undefined, 3600],
    [299, 300],
    [0, 300],
    [-5, 300],
    [300, 300],
    [43_200, 43_200],
    [43_201, 43_200],
    [1e12, 43_200],
    [1800.9, 1800],
  ])("%s → %i", (given, clamped) => {
    expect(clampLifetime(given)).toBe(clamped);
  });
});

describe("quoteInvoice", () => {
  const usd = { decimals: 2, usdPrice: parseRatio("1")! };
  it("rounds the payer amount up at display precision, in on-chain units", () => {
    const quote = quoteInvoice({
      priceMinor: 1000n,
      price: usd,
      settlement: { decimals: 18, roundingDecimals: 6, usdPrice: parseRatio("1.0002")! },
      subtractPercent: 0,
      feeFixedUsdMinor: 30n,
    });
    // 10 / 1.0002 = 9.99800039… → 9.998001 USDT, written with 18 decimals
    expect(quote.payerAmountMinor).toBe(9_998_001n * 10n ** 12n);
    expect(quote.feeFixedAssetMinor).toBe(299_941n * 10n ** 12n);
    expect(quote.priceUsdMinor).toBe(1000n);
  });

  it("adds the deprecated subtract surcharge, rounding up", () => {
    const quote = quoteInvoice({
      priceMinor: 1000n,
      price: usd,
      settlement: { decimals: 6, roundingDecimals: 6, usdPrice: parseRatio("1")! },
      subtractPercent: 3,
      feeFixedUsdMinor: 30n,
    });
    expect(quote.payerAmountMinor).toBe(10_300_000n);
  });

  it("prices JPY (0 decimals) in BTC", () => {
    const quote = quoteInvoice({
      priceMinor: 15000n,
      price: { decimals: 0, usdPrice: parseRatio("0.0067")! },
      settlement: { decimals: 8, roundingDecimals: 8, usdPrice: parseRatio("100000")! },
      subtractPercent: 0,
      feeFixedUsdMinor: 30n,
    });
    // 15000 × 0.0067 = 100.5 USD → 0.001005 BTC
    expect(quote.payerAmountMinor).toBe(100_500n);
    expect(quote.priceUsdMinor).toBe(10_050n);
  });
});

describe("platformFeeMinor", () => {
  it.each([
    [10_000_000n, 150, 300_000n, 450_000n],
    [1n, 150, 0n, 1n],
    [100n, 150, 1_000n, 100n],
    [0n, 150, 0n, 0n],
  ])("%s at %i bps + %s → %s", (received, bps, fixed, fee) => {
    expect(platformFeeMinor(received, bps, fixed)).toBe(fee);
  });
});
