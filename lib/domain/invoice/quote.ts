import { convertMinor, mulDivUp, type Ratio } from "@/lib/domain/money/ratio";

export interface PricedAsset {
  decimals: number;
  /** USD per whole unit. */
  usdPrice: Ratio;
}

export interface InvoiceQuote {
  /** What the buyer must send, in the settlement asset's on-chain minor units. */
  payerAmountMinor: bigint;
  /** Price-currency units per settlement unit, exact. */
  rate: Ratio;
  /** The fixed part of the platform fee, in settlement minor units. */
  feeFixedAssetMinor: bigint;
  /** The price in USD cents (for minimums and confirmation policies). */
  priceUsdMinor: bigint;
}

/**
 * Fixes the amounts of an invoice at the current prices. The payer amount is rounded up at the
 * asset's display precision (`roundingDecimals`, ≤ on-chain decimals): the payer never owes a
 * fraction of a unit less than the price. `subtractPercent` adds the deprecated payer-side
 * surcharge. Example: 10.00 USD in USDT (6 decimals) at 1.0002 USD → 9.998001 USDT.
 */
export function quoteInvoice(input: {
  priceMinor: bigint;
  price: PricedAsset;
  settlement: PricedAsset & { roundingDecimals: number };
  subtractPercent: number;
  feeFixedUsdMinor: bigint;
}): InvoiceQuote {
  const { settlement } = input;
  const usd: PricedAsset = { decimals: 2, usdPrice: { numerator: 1n, denominator: 1n } };
  const display = { decimals: settlement.roundingDecimals, price: settlement.usdPrice };
  // Round up at display precision, then express in on-chain minor units.
  const base = convertMinor(input.priceMinor, { decimals: input.price.decimals, price: input.price.usdPrice }, display, "up");
  const withSurcharge = mulDivUp(base, BigInt(100 + input.subtractPercent), 100n);
  const scale = 10n ** BigInt(settlement.decimals - settlement.roundingDecimals);
  const feeFixed = convertMinor(input.feeFixedUsdMinor, { decimals: usd.decimals, price: usd.usdPrice }, display, "up");
  return {
    payerAmountMinor: withSurcharge * scale,
    // rate = settlement USD price ÷ price-currency USD price
    rate: {
      numerator: settlement.usdPrice.numerator * input.price.usdPrice.denominator,
      denominator: settlement.usdPrice.denominator * input.price.usdPrice.numerator,
    },
    feeFixedAssetMinor: feeFixed * scale,
    priceUsdMinor: convertMinor(input.priceMinor, { decimals: input.price.decimals, price: input.price.usdPrice }, { decimals: 2, price: usd.usdPrice }, "down"),
  };
}

/** The platform fee of a received amount: the percentage (rounded up) plus the fixed part, never more than received. */
export function platformFeeMinor(receivedMinor: bigint, percentBps: number, fixedMinor: bigint): bigint {
  const fee = mulDivUp(receivedMinor, BigInt(percentBps), 10_000n) + fixedMinor;
  return fee > receivedMinor ? receivedMinor : fee;
}
