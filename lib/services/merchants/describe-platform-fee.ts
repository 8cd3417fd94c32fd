import type { Db } from "@/lib/db/client";
import { DEFAULT_PLATFORM_FEE, formatPercentBps } from "@/lib/domain/fees/platform-fee";
import { formatAmount } from "@/lib/domain/money/amount";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";

/** The platform fee taken from each payment: the store's override where the operator set one, else the service default. */
export interface PlatformFeeView {
  /** Percent of each payment, e.g. "1.5". */
  percent: string;
  /** Fixed part in USD, e.g. "0.30". */
  fixedUsd: string;
  isPercentOverride: boolean;
  isFixedOverride: boolean;
}

export async function describePlatformFee(db: Db, merchantId: string): Promise<PlatformFeeView> {
  const merchant = await db.merchant.findUniqueOrThrow({ where: { id: merchantId }, select: { feePercentBps: true, feeFixedUsdMinor: true } });
  // The same fallbacks as invoice creation (create-invoice.ts): a null column is the service default.
  const percentBps = merchant.feePercentBps ?? DEFAULT_PLATFORM_FEE.percentBps;
  const fixedUsdMinor = merchant.feeFixedUsdMinor === null ? DEFAULT_PLATFORM_FEE.fixedUsdMinor : toMinor(merchant.feeFixedUsdMinor);
  return {
    percent: formatPercentBps(percentBps),
    fixedUsd: formatAmount(fixedUsdMinor, 2, 2),
    isPercentOverride: merchant.feePercentBps !== null,
    isFixedOverride: merchant.feeFixedUsdMinor !== null,
  };
}
