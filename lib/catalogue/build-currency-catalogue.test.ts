import { describe, expect, it } from "vitest";
import { buildCurrencyCatalogue } from "@/lib/catalogue/build-currency-catalogue";

const ALL_AVAILABLE = () => ({ deposit: true, payout: true });
const NONE_AVAILABLE = () => ({ deposit: false, payout: false });

describe("buildCurrencyCatalogue", () => {
  it("lists the 15 settlement currencies with canonical decimals and their networks", () => {
    const catalogue = buildCurrencyCatalogue(ALL_AVAILABLE);
    expect(catalogue.currencies.map((currency) => [currency.symbol, currency.decimals, currency.networks.length])).toEqual([
      ["BTC", 8, 1],
      ["LTC", 8, 1],
      ["DOGE", 8, 1],
      ["ETH", 18, 4],
      ["BNB", 18, 1],
      ["POL", 18, 1],
      ["AVAX", 18, 1],
      ["TRX", 6, 1],
      ["SOL", 9, 1],
      ["TON", 9, 1],
      ["USDT", 6, 9],
      ["USDC", 6, 8],
      ["DAI", 18, 1],
      ["WBTC", 8, 1],
      ["WETH", 18, 1],
    ]);
  });

  it("writes native and token network entries exactly", () => {
    const catalogue = buildCurrencyCatalogue(ALL_AVAILABLE);
    const btc = catalogue.currencies.find((currency) => currency.symbol === "BTC");
    expect(btc).toEqual({
      symbol: "BTC",
      decimals: 8,
      networks: [
        {
          network: "bitcoin",
          kind: "native",
          decimals: 8,
          min_confirmations: 1,
          available: true,
          deposit_available: true,
          payout_available: true,
        },
      ],
    });
    expect(btc?.networks[0]).not.toHaveProperty("contract");

    const usdt = catalogue.currencies.find((currency) => currency.symbol === "USDT");
    expect(usdt?.networks.find((entry) => entry.network === "bsc")).toEqual({
      network: "bsc",
      kind: "token",
      contract: "0x55d398326f99059fF775485246999027B3197955",
      decimals: 18,
      min_confirmations: 15,
      available: true,
      deposit_available: true,
      payout_available: true,
    });
  });

  it("marks everything unavailable when the configuration says so", () => {
    const catalogue = buildCurrencyCatalogue(NONE_AVAILABLE);
    for (const currency of catalogue.currencies) {
      for (const entry of currency.networks) {
        expect([entry.available, entry.deposit_available, entry.payout_available]).toEqual([false, false, false]);
      }
    }
  });

  it("takes availability per network; available mirrors deposit_available", () => {
    const asked: string[] = [];
    const catalogue = buildCurrencyCatalogue((network) => {
      asked.push(network);
      return { deposit: network !== "tron", payout: network === "ethereum" };
    });
    const usdt = catalogue.currencies.find((currency) => currency.symbol === "USDT");
    const tron = usdt?.networks.find((entry) => entry.network === "tron");
    const ethereum = usdt?.networks.find((entry) => entry.network === "ethereum");
    const solana = usdt?.networks.find((entry) => entry.network === "solana");
    expect([tron?.available, tron?.deposit_available, tron?.payout_available]).toEqual([false, false, false]);
    expect([ethereum?.available, ethereum?.deposit_available, ethereum?.payout_available]).toEqual([true, true, true]);
    expect([solana?.available, solana?.deposit_available, solana?.payout_available]).toEqual([true, true, false]);
    // Each network is asked once, however many assets it carries.
    expect(asked.length).toBe(new Set(asked).size);
    expect(new Set(asked).size).toBe(13);
  });

  it("lists the 38 pricing currencies with the API field names", () => {
    const catalogue = buildCurrencyCatalogue(ALL_AVAILABLE);
    expect(catalogue.pricing_currencies).toHaveLength(38);
    expect(catalogue.pricing_currencies[0]).toEqual({ symbol: "BTC", decimals: 8, fiat: false });
    expect(catalogue.pricing_currencies.find((currency) => currency.symbol === "JPY")).toEqual({
      symbol: "JPY",
      decimals: 0,
      fiat: true,
    });
    expect(catalogue.pricing_currencies.filter((currency) => currency.fiat)).toHaveLength(23);
    expect(catalogue.pricing_currencies.some((currency) => currency.symbol === "KZT")).toBe(false);
  });

  it("is plain JSON: it survives a round trip unchanged", () => {
    const catalogue = buildCurrencyCatalogue(ALL_AVAILABLE);
    expect(JSON.parse(JSON.stringify(catalogue))).toEqual(catalogue);
    expect(Object.keys(catalogue)).toEqual(["currencies", "pricing_currencies"]);
  });
});
