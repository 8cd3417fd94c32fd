import { describe, expect, it } from "vitest";
import { loadConfig } from "./env";

const EVM_COLD = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";
const TRON_COLD = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";

describe("hot wallet limits from the environment", () => {
  it("is empty when nothing is set", () => {
    expect(loadConfig({}).hotWalletLimits).toEqual([]);
  });

  it.each<[string, Record<string, string>, { network: string; currency: string; maxMinor: bigint; coldAddress: string }[]]>([
    ["a token with 6 decimals", { HOT_WALLET_MAX_TRON_USDT: "5000", COLD_ADDRESS_TRON: TRON_COLD }, [{ network: "tron", currency: "USDT", maxMinor: 5_000_000_000n, coldAddress: TRON_COLD }]],
    ["a coin with 18 decimals, exactly", { HOT_WALLET_MAX_ETHEREUM_ETH: "0.1", COLD_ADDRESS_ETHEREUM: EVM_COLD }, [{ network: "ethereum", currency: "ETH", maxMinor: 100_000_000_000_000_000n, coldAddress: EVM_COLD }]],
    ["every decimal the asset has", { HOT_WALLET_MAX_ETHEREUM_ETH: "1.000000000000000001", COLD_ADDRESS_ETHEREUM: EVM_COLD }, [{ network: "ethereum", currency: "ETH", maxMinor: 1_000_000_000_000_000_001n, coldAddress: EVM_COLD }]],
    ["zero: everything not reserved leaves", { HOT_WALLET_MAX_BITCOIN_BTC: "0", COLD_ADDRESS_BITCOIN: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" }, [{ network: "bitcoin", currency: "BTC", maxMinor: 0n, coldAddress: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" }]],
    [
      "a per-asset cold address over the network's",
      { HOT_WALLET_MAX_ETHEREUM_ETH: "2", HOT_WALLET_MAX_ETHEREUM_USDT: "100.5", COLD_ADDRESS_ETHEREUM: EVM_COLD, COLD_ADDRESS_ETHEREUM_USDT: " 0x0000000000000000000000000000000000000001 " },
      [
        { network: "ethereum", currency: "ETH", maxMinor: 2_000_000_000_000_000_000n, coldAddress: EVM_COLD },
        { network: "ethereum", currency: "USDT", maxMinor: 100_500_000n, coldAddress: "0x0000000000000000000000000000000000000001" },
      ],
    ],
  ])("parses %s", (_name, env, expected) => {
    expect(loadConfig(env).hotWalletLimits).toEqual(expected);
  });

  it.each<[string, Record<string, string>, RegExp]>([
    ["a maximum without a cold address", { HOT_WALLET_MAX_TRON_USDT: "10" }, /HOT_WALLET_MAX_TRON_USDT is set but no cold address receives the excess: set COLD_ADDRESS_TRON/],
    ["another network's cold address only", { HOT_WALLET_MAX_TRON_USDT: "10", COLD_ADDRESS_ETHEREUM: EVM_COLD }, /no cold address receives the excess/],
    ["an unknown network", { HOT_WALLET_MAX_MOON_USDT: "10", COLD_ADDRESS_MOON: "x" }, /HOT_WALLET_MAX_MOON_USDT: no such network/],
    ["an asset the network does not have", { HOT_WALLET_MAX_TRON_DAI: "10", COLD_ADDRESS_TRON: TRON_COLD }, /DAI is not an asset of tron/],
    ["a name without an asset", { HOT_WALLET_MAX_TRON: "10", COLD_ADDRESS_TRON: TRON_COLD }, /no such network/],
    ["more decimals than the asset has", { HOT_WALLET_MAX_TRON_USDT: "1.0000001", COLD_ADDRESS_TRON: TRON_COLD }, /at most 6 decimals, got "1.0000001"/],
    ["an exponent", { HOT_WALLET_MAX_TRON_USDT: "1e3", COLD_ADDRESS_TRON: TRON_COLD }, /must be an amount of USDT/],
    ["a negative amount", { HOT_WALLET_MAX_TRON_USDT: "-5", COLD_ADDRESS_TRON: TRON_COLD }, /must be an amount of USDT/],
    ["words", { HOT_WALLET_MAX_TRON_USDT: "lots", COLD_ADDRESS_TRON: TRON_COLD }, /must be an amount of USDT/],
    ["a cold address no maximum uses", { COLD_ADDRESS_TRON: TRON_COLD }, /COLD_ADDRESS_TRON is set but no HOT_WALLET_MAX_\* sends to it/],
  ])("refuses %s", (_name, env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe("what real chains are given from the environment", () => {
  it("reads token contract overrides per network and symbol, and the TON API key", () => {
    const config = loadConfig({ TOKEN_ETHEREUM_USDT: "0xabc", TOKEN_ETHEREUM_USDC: "0xdef", TOKEN_TON_USDT: "EQjetton", TOKEN_TRON_: "ignored", TON_API_KEY: "key" });
    expect(config.tokenContracts).toEqual({ ethereum: { USDT: "0xabc", USDC: "0xdef" }, ton: { USDT: "EQjetton" } });
    expect(config.tonApiKey).toBe("key");
  });

  it("is empty when nothing is set", () => {
    expect(loadConfig({})).toMatchObject({ tokenContracts: {}, tonApiKey: undefined });
  });
});
