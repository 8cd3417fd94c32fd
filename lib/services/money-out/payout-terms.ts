import type { GatewayConfig } from "@/lib/config/env";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import type { PayoutAmounts } from "@/lib/domain/payout/amounts";
import { AppError } from "@/lib/errors";
import type { RateProvider } from "@/lib/rates";
import { fetchUsdPriceRatios } from "@/lib/rates/usd-prices";
import type { ConversionQuote } from "./payout-conversion";
import type { PayoutDestination } from "./payout-destination";
import { payoutFeeMinor } from "./payout-fee";
import type { PayoutRowDraft } from "./write-payout";

export interface PayoutDeps {
  db: Db;
  secretBox: SecretBox;
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints" | "allowLoopbackUrls" | "payoutFreezeSeconds" | "payoutWaitingSeconds" | "replaceAfterSeconds">;
  rates: RateProvider;
  now(): Date;
}

/** Everything about a request checked before the database: where it goes and what it costs. */
export interface PayoutTerms {
  orderId: string;
  source: "api" | "manual";
  destination: PayoutDestination;
  requestedMinor: bigint;
  isSubtract: boolean;
  /** Whether is_subtract was given (a repeat that omits it is not compared on it). */
  isSubtractGiven: boolean;
  amounts: PayoutAmounts;
  urlCallback: string | undefined;
  /** from_currency: the rate the debit is converted from USDT at, just before it is reserved. */
  conversion: ConversionQuote | undefined;
}

/** The payout fee of a destination now, in its minor units (what /v1/payout/services quotes). */
export async function quoteFee(deps: Pick<PayoutDeps, "rates">, destination: Pick<PayoutDestination, "asset">): Promise<bigint> {
  const prices = await fetchUsdPriceRatios(deps.rates, [destination.asset.symbol], "payout.convert_no_rate");
  const price = prices.get(destination.asset.symbol);
  if (!price) throw new AppError("payout.convert_no_rate", `No ${destination.asset.symbol} rate to quote the payout fee; retry later.`);
  return payoutFeeMinor(destination.asset, price);
}

/** A new payout's row; the writer (writePayout) decides its status. */
export function newPayoutRow(id: string, merchantId: string, terms: PayoutTerms, now: Date): PayoutRowDraft {
  const { destination, amounts } = terms;
  return {
    id,
    merchantId,
    orderId: terms.orderId,
    source: terms.source,
    currency: destination.asset.symbol,
    network: destination.network,
    address: destination.address,
    memo: destination.memo ?? null,
    amountMinor: amounts.amount.toString(),
    feeMinor: amounts.fee.toString(),
    debitMinor: amounts.debit.toString(),
    requestedAmount: terms.requestedMinor.toString(),
    isSubtract: terms.isSubtract,
    urlCallback: terms.urlCallback ?? null,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  };
}
