/** The merchant's settings a new invoice takes its fee and tolerance from (null: the platform's default fee). */
export interface MerchantInvoiceTerms {
  feePercentBps: number | null;
  feeFixedUsdMinor: bigint | null;
  accuracyBps: number;
}
