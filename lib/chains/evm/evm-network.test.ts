import { describe, expect, test } from "vitest";
import { ChainError } from "@/lib/chains/types";
import { checkEvmChainId, findEvmAsset, resolveEvmNetwork } from "@/lib/chains/evm/evm-network";

describe("resolveEvmNetwork", () => {
  test("takes the native coin and the tokens from the catalogue", () => {
    expect(resolveEvmNetwork("bsc")).toEqual({
      id: "bsc",
      nativeSymbol: "BNB",
      catalogueChainId: 56,
      tokens: [
        { symbol: "USDT", contract: "0x55d398326f99059fF775485246999027B3197955", decimals: 18 },
        { symbol: "USDC", contract: "0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d", decimals: 18 },
      ],
    });
    expect(resolveEvmNetwork("base").tokens.map((token) => token.symbol)).toEqual(["USDC"]);
    expect(resolveEvmNetwork("arbitrum").nativeSymbol).toBe("ETH");
    expect(resolveEvmNetwork("ethereum").tokens.map((token) => token.symbol)).toEqual(["USDT", "USDC", "DAI", "WBTC", "WETH"]);
  });

  test.each(["ethereum", "bsc", "polygon", "arbitrum", "base", "optimism", "avalanche"])("%s resolves with checksummed contracts", (network) => {
    for (const token of resolveEvmNetwork(network).tokens) expect(token.contract).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  test("an override replaces the contract, written in lower case or checksummed", () => {
    const network = resolveEvmNetwork("ethereum", { USDT: "0x5fbdb2315678afecb367f032d93f642f64180aa3" });
    expect(network.tokens[0]).toEqual({ symbol: "USDT", contract: "0x5FbDB2315678afecb367f032d93F642f64180aa3", decimals: 6 });
  });

  const refusals: [string, string, Record<string, string>][] = [
    ["a network of another family", "tron", {}],
    ["an unknown network", "ropsten", {}],
    ["a symbol the network does not have", "base", { USDT: "0x5fbdb2315678afecb367f032d93f642f64180aa3" }],
    ["a contract with a checksum typo", "ethereum", { USDT: "0x5FbDB2315678afecb367f032d93F642f64180aA3" }],
    ["two tokens on one contract", "ethereum", { USDT: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48" }],
  ];
  test.each(refusals)("refuses %s", (_name, network, overrides) => {
    expect(() => resolveEvmNetwork(network, overrides)).toThrow(ChainError);
  });
});

describe("checkEvmChainId", () => {
  const cases: [string, string, number, number | undefined, boolean][] = [
    ["the catalogue's own chain", "bsc", 56, undefined, true],
    ["a test node", "ethereum", 31337, undefined, true],
    ["a testnet (Sepolia)", "ethereum", 11155111, undefined, true],
    ["another catalogue mainnet", "bsc", 1, undefined, false],
    ["Base mainnet behind the optimism endpoint", "optimism", 8453, undefined, false],
    ["the expected id", "ethereum", 31337, 31337, true],
    ["not the expected id", "ethereum", 1, 31337, false],
  ];
  test.each(cases)("%s", (_name, network, reported, expected, isAccepted) => {
    const check = () => checkEvmChainId(resolveEvmNetwork(network), reported, expected);
    if (isAccepted) expect(check).not.toThrow();
    else expect(check).toThrow(expect.objectContaining({ retryable: false }));
  });
});

describe("findEvmAsset", () => {
  const polygon = resolveEvmNetwork("polygon");
  test.each([
    ["POL", "native"],
    ["USDC", "token"],
    ["ETH", null],
    ["USDC.e", null],
  ])("%s", (symbol, kind) => {
    expect(findEvmAsset(polygon, symbol)?.kind ?? null).toBe(kind);
  });
});
