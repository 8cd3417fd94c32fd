import { describe, expect, it } from "vitest";
import { CONFIRMATION_POLICIES } from "@/lib/catalogue/confirmation-policies";
import { listNetworks } from "@/lib/catalogue/networks";
import { minimumConfirmations, requiredConfirmations } from "@/lib/catalogue/required-confirmations";
import { findSettlementAsset, listSettlementAssets } from "@/lib/catalogue/settlement-assets";
import type { SettlementAsset } from "@/lib/catalogue/types";

function asset(symbol: string, network: string): SettlementAsset {
  const found = findSettlementAsset(symbol, network);
  if (found === null) throw new Error(`missing ${symbol} on ${network}`);
  return found;
}

describe("requiredConfirmations", () => {
  // [symbol, network, amount in USD cents, expected confirmations]
  it.each([
    ["BTC", "bitcoin", 0n, 1],
    ["BTC", "bitcoin", 1n, 1],
    ["BTC", "bitcoin", 100_000n, 1], // exactly 1 000 USD: bound is inclusive
    ["BTC", "bitcoin", 100_001n, 3],
    ["BTC", "bitcoin", 1_000_000n, 3], // exactly 10 000 USD
    ["BTC", "bitcoin", 1_000_001n, 6],
    ["BTC", "bitcoin", 10n ** 30n, 6], // far beyond any bound
    ["BTC", "bitcoin", -5n, 1], // negative is treated like zero
    ["LTC", "litecoin", 50_000n, 3],
    ["LTC", "litecoin", 500_000n, 6],
    ["LTC", "litecoin", 5_000_000n, 12],
    ["DOGE", "dogecoin", 100_000n, 6],
    ["DOGE", "dogecoin", 100_001n, 40],
    ["DOGE", "dogecoin", 1_000_001n, 55],
    ["ETH", "ethereum", 1_000n, 12],
    ["USDT", "ethereum", 500_000n, 33],
    ["WETH", "ethereum", 2_000_000n, 65],
    ["USDT", "bsc", 100_000n, 15],
    ["USDC", "bsc", 1_000_000n, 30],
    ["BNB", "bsc", 1_000_001n, 60],
    ["POL", "polygon", 100n, 12],
    ["USDC", "polygon", 200_000n, 64],
    ["USDT", "polygon", 9_999_999n, 127],
    ["ETH", "arbitrum", 100_000n, 30],
    ["USDC", "arbitrum", 100_001n, 300],
    ["USDT", "arbitrum", 1_000_001n, 3_120],
    ["ETH", "base", 100_000n, 10],
    ["USDC", "base", 1_000_000n, 60],
    ["ETH", "base", 1_000_001n, 390],
    ["USDT", "optimism", 1n, 10],
    ["USDC", "optimism", 1_000_001n, 390],
    ["AVAX", "avalanche", 1_000_000n, 1], // 10 000 USD still 1
    ["USDT", "avalanche", 1_000_001n, 20],
    ["TRX", "tron", 100_000n, 10],
    ["USDT", "tron", 100_001n, 20],
    ["SOL", "solana", 100_000n, 3],
    ["USDC", "solana", 100_001n, 12],
    ["TON", "ton", 0n, 1],
    ["USDT", "ton", 10n ** 12n, 1],
  ] as const)("%s on %s for %i cents → %i", (symbol, network, amountUsdMinor, expected) => {
    expect(requiredConfirmations(asset(symbol, network), amountUsdMinor)).toBe(expected);
  });

  it.each([
    ["bitcoin", 1],
    ["litecoin", 3],
    ["dogecoin", 6],
    ["ethereum", 12],
    ["bsc", 15],
    ["polygon", 12],
    ["arbitrum", 30],
    ["base", 10],
    ["optimism", 10],
    ["avalanche", 1],
    ["tron", 10],
    ["solana", 3],
    ["ton", 1],
  ] as const)("min confirmations on %s is %i (the first tier)", (network, expected) => {
    expect(minimumConfirmations({ confirmationPolicy: CONFIRMATION_POLICIES[network] })).toBe(expected);
  });

  it("every network has a policy with increasing bounds, non-decreasing counts and an unbounded last tier", () => {
    for (const network of listNetworks()) {
      const policy = CONFIRMATION_POLICIES[network.id];
      expect(policy.length).toBeGreaterThan(0);
      expect(policy[policy.length - 1]?.upToUsdMinor).toBeNull();
      for (let i = 1; i < policy.length; i += 1) {
        const previous = policy[i - 1];
        const current = policy[i];
        expect(previous?.upToUsdMinor).not.toBeNull();
        expect(current?.confirmations ?? 0).toBeGreaterThanOrEqual(previous?.confirmations ?? 0);
        if (current?.upToUsdMinor != null && previous?.upToUsdMinor != null) {
          expect(current.upToUsdMinor > previous.upToUsdMinor).toBe(true);
        }
      }
    }
  });

  it("every asset uses its network's policy", () => {
    for (const entry of listSettlementAssets()) {
      expect(entry.confirmationPolicy).toBe(CONFIRMATION_POLICIES[entry.network]);
    }
  });

  it("a policy without an unbounded tier is rejected rather than guessed", () => {
    expect(() => requiredConfirmations({ confirmationPolicy: [{ upToUsdMinor: 10n, confirmations: 1 }] }, 11n)).toThrow();
    expect(() => minimumConfirmations({ confirmationPolicy: [] })).toThrow();
  });
});
