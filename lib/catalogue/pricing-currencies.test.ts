import { describe, expect, it } from "vitest";
import { FIAT_CURRENCIES, findPricingCurrency, listPricingCurrencies } from "@/lib/catalogue/pricing-currencies";
import { normalizeSymbol } from "@/lib/catalogue/normalize";

const EXPECTED_COINS: ReadonlyArray<readonly [string, number]> = [
  ["BTC", 8],
  ["LTC", 8],
  ["DOGE", 8],
  ["ETH", 18],
  ["BNB", 18],
  ["POL", 18],
  ["AVAX", 18],
  ["TRX", 6],
  ["SOL", 9],
  ["TON", 9],
  ["USDT", 6],
  ["USDC", 6],
  ["DAI", 18],
  ["WBTC", 8],
  ["WETH", 18],
];

// spec: Currency catalogue — the 23 fiats and their decimals.
const EXPECTED_FIATS: ReadonlyArray<readonly [string, number]> = [
  ["USD", 2],
  ["EUR", 2],
  ["GBP", 2],
  ["RUB", 2],
  ["UAH", 2],
  ["PLN", 2],
  ["CZK", 2],
  ["TRY", 2],
  ["CNY", 2],
  ["INR", 2],
  ["BRL", 2],
  ["CAD", 2],
  ["AUD", 2],
  ["CHF", 2],
  ["AED", 2],
  ["ZAR", 2],
  ["MXN", 2],
  ["IDR", 2],
  ["THB", 2],
  ["VND", 2],
  ["NGN", 2],
  ["JPY", 0],
  ["KRW", 0],
];

describe("pricing currencies", () => {
  it("are exactly 38: 15 coins then 23 fiats", () => {
    const all = listPricingCurrencies();
    expect(all).toHaveLength(38);
    expect(all.filter((currency) => !currency.isFiat)).toHaveLength(15);
    expect(all.filter((currency) => currency.isFiat)).toHaveLength(23);
    expect(FIAT_CURRENCIES).toHaveLength(23);
    expect(all.map((currency) => [currency.symbol, currency.decimals, currency.isFiat])).toEqual([
      ...EXPECTED_COINS.map(([symbol, decimals]) => [symbol, decimals, false]),
      ...EXPECTED_FIATS.map(([symbol, decimals]) => [symbol, decimals, true]),
    ]);
  });

  it("has unique symbols", () => {
    const symbols = listPricingCurrencies().map((currency) => currency.symbol);
    expect(new Set(symbols).size).toBe(symbols.length);
  });

  it.each(EXPECTED_COINS)("coin %s has %i decimals and is not fiat", (symbol, decimals) => {
    expect(findPricingCurrency(symbol)).toEqual({ symbol, decimals, isFiat: false });
  });

  it.each(EXPECTED_FIATS)("fiat %s has %i decimals", (symbol, decimals) => {
    expect(findPricingCurrency(symbol)).toEqual({ symbol, decimals, isFiat: true });
  });

  it.each(["KZT", "KGS", "UZS", "MATIC", "usd", ""])("%s is not a pricing currency", (symbol) => {
    expect(findPricingCurrency(symbol)).toBeNull();
    expect(listPricingCurrencies().some((currency) => currency.symbol === symbol)).toBe(false);
  });

  it("finds normalised input", () => {
    expect(findPricingCurrency(normalizeSymbol("jpy"))).toEqual({ symbol: "JPY", decimals: 0, isFiat: true });
  });
});
