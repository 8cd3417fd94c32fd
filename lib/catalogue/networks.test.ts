import { describe, expect, it } from "vitest";
import { explorerUrl, findNetwork, isNetworkId, listNetworks } from "@/lib/catalogue/networks";
import { normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue/normalize";

// networks.md §1: id, family, native coin, EVM chain id.
const EXPECTED_NETWORKS = [
  ["bitcoin", "utxo", "BTC", undefined],
  ["litecoin", "utxo", "LTC", undefined],
  ["dogecoin", "utxo", "DOGE", undefined],
  ["ethereum", "evm", "ETH", 1],
  ["bsc", "evm", "BNB", 56],
  ["polygon", "evm", "POL", 137],
  ["arbitrum", "evm", "ETH", 42161],
  ["base", "evm", "ETH", 8453],
  ["optimism", "evm", "ETH", 10],
  ["avalanche", "evm", "AVAX", 43114],
  ["tron", "tron", "TRX", undefined],
  ["solana", "solana", "SOL", undefined],
  ["ton", "ton", "TON", undefined],
] as const;

describe("networks", () => {
  it("lists the 13 networks in catalogue order", () => {
    expect(listNetworks().map((network) => network.id)).toEqual(EXPECTED_NETWORKS.map(([id]) => id));
  });

  it.each(EXPECTED_NETWORKS)("%s is %s with native %s and chain id %s", (id, family, nativeSymbol, evmChainId) => {
    const network = findNetwork(id);
    expect(network?.family).toBe(family);
    expect(network?.nativeSymbol).toBe(nativeSymbol);
    expect(network?.evmChainId).toBe(evmChainId);
    expect(network?.isAccountBased).toBe(family !== "utxo");
    expect(network?.hasMemo).toBe(false);
  });

  it.each([
    ["bitcoin", 600_000],
    ["litecoin", 150_000],
    ["dogecoin", 60_000],
    ["ethereum", 12_000],
    ["bsc", 450],
    ["arbitrum", 250],
    ["tron", 3_000],
    ["solana", 400],
  ])("%s has a block time of %i ms", (id, blockTimeMs) => {
    expect(findNetwork(id)?.blockTimeMs).toBe(blockTimeMs);
  });

  it.each([
    ["bsc", "BNB Smart Chain"],
    ["arbitrum", "Arbitrum One"],
    ["optimism", "OP Mainnet"],
    ["avalanche", "Avalanche C-Chain"],
  ])("%s is displayed as %s", (id, displayName) => {
    expect(findNetwork(id)?.displayName).toBe(displayName);
  });

  it.each([
    ["bitcoin", "5.00"],
    ["ethereum", "5.00"],
    ["tron", "2.00"],
    ["polygon", "1.00"],
    ["solana", "1.00"],
  ])("minimum on %s is %s USD", (id, minimumUsd) => {
    expect(findNetwork(id)?.minimumUsd).toBe(minimumUsd);
  });

  it("every minimum is a positive USD amount with 2 fraction digits", () => {
    for (const network of listNetworks()) {
      expect(network.minimumUsd).toMatch(/^[1-9]\d*\.\d{2}$/);
    }
  });

  it("every block time is a positive integer", () => {
    for (const network of listNetworks()) {
      expect(Number.isInteger(network.blockTimeMs) && network.blockTimeMs > 0).toBe(true);
    }
  });

  it.each(["BSC", "Bitcoin", "matic", "", "tron "])("lookup of %j is exact and fails", (id) => {
    expect(findNetwork(id)).toBeNull();
    expect(isNetworkId(id)).toBe(false);
  });

  it.each([
    ["BSC", "bsc"],
    ["Tron", "tron"],
    ["ton", "ton"],
  ])("normalizeNetworkId(%s) is %s", (input, expected) => {
    expect(normalizeNetworkId(input)).toBe(expected);
    expect(findNetwork(normalizeNetworkId(input))?.id).toBe(expected);
  });

  it.each([
    ["usdt", "USDT"],
    ["Eur", "EUR"],
    ["BTC", "BTC"],
  ])("normalizeSymbol(%s) is %s", (input, expected) => {
    expect(normalizeSymbol(input)).toBe(expected);
  });
});

describe("explorers", () => {
  // The catalogue lists mainnet networks only (sandbox chains are a way of serving them, not networks).
  it.each(listNetworks().map((network) => [network.id]))("%s has transaction and address pages on an https explorer", (id) => {
    const explorer = findNetwork(id)!.explorer!;
    expect(explorer.transaction).toContain("{txid}");
    expect(explorer.address).toContain("{address}");
    for (const template of [explorer.transaction, explorer.address]) {
      const url = new URL(template.replace(/\{(txid|address)\}/, "VALUE"));
      expect(url.protocol).toBe("https:");
      expect(url.href).toContain("VALUE");
      expect(url.username + url.password).toBe("");
    }
  });

  it("fills the template with the value, URL-encoded, and answers null where there is nothing to link", () => {
    expect(explorerUrl("bitcoin", "transaction", "ab12")).toBe("https://mempool.space/tx/ab12");
    expect(explorerUrl("ethereum", "address", "0xAbC")).toBe("https://etherscan.io/address/0xAbC");
    expect(explorerUrl("tron", "transaction", "ff00")).toBe("https://tronscan.org/#/transaction/ff00");
    expect(explorerUrl("solana", "address", "So1")).toBe("https://solscan.io/account/So1");
    expect(explorerUrl("ton", "transaction", "a+b/c=")).toBe("https://tonviewer.com/transaction/a%2Bb%2Fc%3D");
    expect(explorerUrl("ton", "address", "x/../y")).toBe("https://tonviewer.com/x%2F..%2Fy");
    expect(explorerUrl("bitcoin", "transaction", "")).toBeNull();
    expect(explorerUrl("nowhere", "transaction", "ab12")).toBeNull();
  });
});
