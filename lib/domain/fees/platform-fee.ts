/** The platform fee: a percentage in basis points plus a fixed amount in USD cents. */
export interface PlatformFee {
  percentBps: number;
  fixedUsdMinor: bigint;
}

/** spec: What the service does — 1.5 % plus 0.30 USD per payment by default. */
export const DEFAULT_PLATFORM_FEE: PlatformFee = { percentBps: 150, fixedUsdMinor: 30n };

/** Basis points as the percent string of the API. Example: 150 → "1.5". */
export function formatPercentBps(bps: number): string {
  const whole = Math.trunc(bps / 100);
  const fraction = String(bps % 100).padStart(2, "0").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : String(whole);
}
