/** The largest single invoice or payout, in USD cents (1,000,000.00 USD); above it, split the amount. */
export const MAXIMUM_AMOUNT_USD_MINOR = 100_000_000n;

/**
 * Estimated network fee of one payout, in USD cents, per network: what the service-list
 * operations quote until a chain adapter gives a live estimate.
 */
export const ESTIMATED_PAYOUT_FEE_USD_MINOR: Readonly<Record<string, bigint>> = {
  bitcoin: 150n,
  litecoin: 2n,
  dogecoin: 5n,
  ethereum: 100n,
  bsc: 5n,
  polygon: 1n,
  arbitrum: 5n,
  base: 2n,
  optimism: 2n,
  avalanche: 5n,
  tron: 100n,
  solana: 1n,
  ton: 5n,
};
