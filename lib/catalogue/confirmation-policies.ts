import type { ConfirmationPolicy, NetworkId } from "@/lib/catalogue/types";

/** 1 000 USD in cents: upper bound of the "small payment" tier. */
const USD_1_000_MINOR = 100_000n;
/** 10 000 USD in cents: upper bound of the "medium payment" tier. */
const USD_10_000_MINOR = 1_000_000n;

/**
 * Confirmations required to credit a payment, per network, by the payment's USD value.
 * Values are picked from the crediting practice of other gateways and exchanges in
 * shared/spec/networks.md §5; each line says which.
 */
export const CONFIRMATION_POLICIES: Readonly<Record<NetworkId, ConfirmationPolicy>> = {
  // Cryptopay's 1/3/6 amount tiers re-based to USD; 6 is also BTCPay's LowSpeed.
  bitcoin: tiers([1, USD_1_000_MINOR], [3, USD_10_000_MINOR], [6, null]),
  // Cryptopay's 1/3/6 one step stricter (4x faster blocks, less hash power); top tier is BVNK's 12.
  litecoin: tiers([3, USD_1_000_MINOR], [6, USD_10_000_MINOR], [12, null]),
  // BTCPay LowSpeed 6 for small amounts, Kraken's 40, then Cryptopay's 55 above its large-amount bound.
  dogecoin: tiers([6, USD_1_000_MINOR], [40, USD_10_000_MINOR], [55, null]),
  // BVNK 12, Cryptopay 33, then Circle's ~65 blocks (a finalised checkpoint, about 2 epochs).
  ethereum: tiers([12, USD_1_000_MINOR], [33, USD_10_000_MINOR], [65, null]),
  // Cryptopay/OxaPay 15; at 0.45 s blocks (BEP-619) even 60 blocks is under 30 s, so larger amounts wait 2x/4x.
  bsc: tiers([15, USD_1_000_MINOR], [30, USD_10_000_MINOR], [60, null]),
  // BVNK 12 for small amounts, Cryptopay's 127 for large ones, a midpoint between.
  polygon: tiers([12, USD_1_000_MINOR], [64, USD_10_000_MINOR], [127, null]),
  // Cryptopay 30, BVNK 300, then Circle's ~65 L1 blocks expressed in 250 ms blocks (65 × 12 s / 0.25 s).
  arbitrum: tiers([30, USD_1_000_MINOR], [300, USD_10_000_MINOR], [3_120, null]),
  // BVNK/OxaPay 10, then Circle's ~65 L1 blocks expressed in 2 s blocks (65 × 12 s / 2 s); 60 (2 min) between.
  base: tiers([10, USD_1_000_MINOR], [60, USD_10_000_MINOR], [390, null]),
  // No gateway value in §5; same OP Stack and 2 s blocks as base, and Circle's ~65 L1 blocks on top.
  optimism: tiers([10, USD_1_000_MINOR], [60, USD_10_000_MINOR], [390, null]),
  // Circle credits after 1 block (about 8 s); Kraken's 20 for large amounts.
  avalanche: tiers([1, USD_10_000_MINOR], [20, null]),
  // OxaPay 10; BVNK's 20 (USDT) above, which is past solidification (19 of 27 SRs, 70 %).
  tron: tiers([10, USD_1_000_MINOR], [20, null]),
  // Circle ~2-3 for small amounts; BVNK's 12 above.
  solana: tiers([3, USD_1_000_MINOR], [12, null]),
  // Cryptopay 1: a transaction in a masterchain block is irreversible.
  ton: tiers([1, null]),
};

/** Builds a policy from `[confirmations, upToUsdMinor]` pairs, checking its shape once at load. */
function tiers(...entries: ReadonlyArray<readonly [number, bigint | null]>): ConfirmationPolicy {
  const policy = entries.map(([confirmations, upToUsdMinor]) => ({ confirmations, upToUsdMinor }));
  let previousBound = -1n;
  policy.forEach((tier, index) => {
    const isLast = index === policy.length - 1;
    if (isLast !== (tier.upToUsdMinor === null)) {
      throw new Error("confirmation policy: exactly the last tier must be unbounded");
    }
    if (tier.upToUsdMinor !== null) {
      if (tier.upToUsdMinor <= previousBound) {
        throw new Error("confirmation policy: bounds must increase");
      }
      previousBound = tier.upToUsdMinor;
    }
    if (!Number.isInteger(tier.confirmations) || tier.confirmations < 1) {
      throw new Error("confirmation policy: confirmations must be a positive integer");
    }
  });
  return policy;
}
