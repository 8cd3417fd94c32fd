import type { Prisma } from "@/generated/prisma/client";
import type { GatewayConfig } from "@/lib/config/env";
import type { Db, Tx } from "@/lib/db/client";
import { findSettlementAsset, listNetworksOfSymbol } from "@/lib/catalogue";
import { convertMinor, divideRatios, formatRatio, type Ratio } from "@/lib/domain/money/ratio";
import { AppError } from "@/lib/errors";
import { lockAccounts, postJournal } from "@/lib/ledger/post";
import { lockSpendableBalance } from "@/lib/ledger/balances";
import { assetKey, parseAssetKey, payoutConvertedJournal, PLATFORM, type AccountKey } from "@/lib/ledger/postings";
import type { RateProvider } from "@/lib/rates";
import { fetchUsdPriceRatios } from "@/lib/rates/usd-prices";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import type { PayoutDestination } from "@/lib/services/money-out/payout-destination";

/** spec: `from_currency` — only USDT converts. */
export const CONVERTIBLE_FROM = "USDT";

/** The rate a payout converts at: USD prices of USDT and of the payout's coin, as exact ratios. */
export interface ConversionQuote {
  fromPrice: Ratio;
  toPrice: Ratio;
}

/**
 * spec: `from_currency` on POST /v1/payout, checked and priced before the database: only USDT,
 * into another coin the rate source prices (`payout.convert_unsupported` otherwise), at a live
 * rate — an offline table is not a market, so outside sandbox mode conversion waits for live
 * rates (`payout.convert_frozen`); a source that does not answer is `payout.convert_no_rate`.
 */
export async function quoteConversion(
  deps: { rates: RateProvider; config: Pick<GatewayConfig, "sandbox"> },
  fromCurrency: string,
  destination: PayoutDestination,
): Promise<ConversionQuote> {
  if (fromCurrency.trim().toUpperCase() !== CONVERTIBLE_FROM) throw new AppError("payout.from_currency_unsupported", "from_currency may only be USDT.");
  const to = destination.asset.symbol;
  if (to === CONVERTIBLE_FROM) throw new AppError("payout.convert_same_asset", "from_currency is the payout's own currency.");
  if (deps.rates.isOffline && !deps.config.sandbox) throw new AppError("payout.convert_frozen", "Conversions wait for a live rate source; this service runs on its offline table.");
  const prices = await fetchUsdPriceRatios(deps.rates, [CONVERTIBLE_FROM, to], "payout.convert_no_rate");
  const fromPrice = prices.get(CONVERTIBLE_FROM);
  const toPrice = prices.get(to);
  if (!fromPrice) throw new AppError("payout.convert_no_rate", "No USDT rate now; retry later.");
  if (!toPrice) throw new AppError("payout.convert_unsupported", `Converting USDT to ${to} is not offered: no ${to} rate.`);
  return { fromPrice, toPrice };
}

/** What a conversion takes and gives, as the payout row records it. */
export interface ConversionPlan {
  fromAsset: string;
  fromNetwork: string;
  fromAmount: bigint;
  rate: string;
  row: Pick<Prisma.PayoutCreateManyInput, "convertFromCurrency" | "convertFromNetwork" | "convertFromAmount" | "convertRate">;
}

/**
 * Inside the creating transaction, before the payout row: which of the merchant's USDT balances
 * pays for the conversion (USDT on the payout's own network when that balance covers it, else
 * the largest one), how much (the payout's debit at the quote, rounded up, in that USDT's
 * decimals), with every account the conversion and the reservation touch locked in the ledger's
 * order. `payout.convert_insufficient` when no USDT balance covers it (or it is owed to a debt).
 */
export async function planConversion(tx: Tx, input: { merchantId: string; destination: PayoutDestination; debit: bigint; quote: ConversionQuote }, now: Date): Promise<ConversionPlan> {
  const { merchantId, destination } = input;
  const toAsset = assetKey(destination.asset.symbol, destination.network);
  const { network: fromNetwork, fromAmount, rate } = await chooseConversionSource(tx, input);
  const fromAsset = assetKey(CONVERTIBLE_FROM, fromNetwork);
  const merchant = (asset: string, bucket: AccountKey["bucket"]): AccountKey => ({ owner: merchantId, asset, bucket });
  await lockAccounts(
    tx,
    [
      merchant(fromAsset, "available"), merchant(fromAsset, "debt"), merchant(fromAsset, "maturing"),
      merchant(toAsset, "available"), merchant(toAsset, "debt"), merchant(toAsset, "maturing"), merchant(toAsset, "payout_held"),
      { owner: PLATFORM, asset: fromAsset, bucket: "conversions" }, { owner: PLATFORM, asset: toAsset, bucket: "conversions" },
    ],
    now,
  );
  // Read again under the locks: a payout or a reversal may have moved it since.
  const { available, debt } = await lockSpendableBalance(tx, merchantId, fromAsset);
  if (debt < 0n || available < fromAmount) throw new AppError("payout.convert_insufficient", `The USDT balance on ${fromNetwork} no longer covers the conversion.`);
  return {
    fromAsset,
    fromNetwork,
    fromAmount,
    rate,
    row: { convertFromCurrency: CONVERTIBLE_FROM, convertFromNetwork: fromNetwork, convertFromAmount: fromAmount.toString(), convertRate: rate },
  };
}

/**
 * Which of the merchant's USDT balances would pay for converting `debit` (USDT on the payout's
 * network when that balance covers it, else the largest one that does), how much, at what rate
 * (USDT per unit of the coin) — read without locks: /v1/payout/calculate answers it, and
 * planConversion checks it again under the locks.
 */
export async function chooseConversionSource(
  db: Db | Tx,
  input: { merchantId: string; destination: PayoutDestination; debit: bigint; quote: ConversionQuote },
): Promise<{ network: string; fromAmount: bigint; rate: string }> {
  const { merchantId, destination, debit, quote } = input;
  const amountOn = (network: string) => {
    const usdt = findSettlementAsset(CONVERTIBLE_FROM, network)!;
    return convertMinor(debit, { decimals: destination.asset.decimals, price: quote.toPrice }, { decimals: usdt.decimals, price: quote.fromPrice }, "up");
  };
  const networks = listNetworksOfSymbol(CONVERTIBLE_FROM);
  const held = await db.ledgerAccount.findMany({ where: { owner: merchantId, bucket: "available", asset: { in: networks.map((network) => assetKey(CONVERTIBLE_FROM, network)) } } });
  const candidates = held
    .map((row) => ({ network: parseAssetKey(row.asset).network, available: toMinor(row.balance) }))
    .filter((candidate) => candidate.available >= amountOn(candidate.network))
    .sort((a, b) => (a.network === destination.network ? -1 : b.network === destination.network ? 1 : compareValue(b, a)));
  const chosen = candidates[0];
  if (!chosen) throw new AppError("payout.convert_insufficient", `No USDT balance covers converting into ${destination.asset.symbol}.`);
  const fromAmount = amountOn(chosen.network);
  if (fromAmount <= 0n) throw new AppError("payout.convert_bad_amount", "The amount is too small to convert.");
  return { network: chosen.network, fromAmount, rate: formatRatio(divideRatios(quote.toPrice, quote.fromPrice), 8) };
}

/** After the payout row is in: the conversion's journal, so the reservation finds the converted amount available. */
export async function postConversion(tx: Tx, input: { payoutId: string; merchantId: string; destination: PayoutDestination; debit: bigint; plan: ConversionPlan }, now: Date): Promise<void> {
  const { plan } = input;
  await postJournal(
    tx,
    payoutConvertedJournal({
      payoutId: input.payoutId,
      merchantId: input.merchantId,
      from: { asset: plan.fromAsset, amount: plan.fromAmount },
      to: { asset: assetKey(input.destination.asset.symbol, input.destination.network), amount: input.debit },
    }),
    now,
  );
}

/** Larger balances first, in USDT's own units (decimals differ between networks). */
function compareValue(a: { network: string; available: bigint }, b: { network: string; available: bigint }): number {
  const scale = (candidate: { network: string; available: bigint }) => candidate.available * 10n ** BigInt(18 - findSettlementAsset(CONVERTIBLE_FROM, candidate.network)!.decimals);
  const difference = scale(a) - scale(b);
  return difference > 0n ? 1 : difference < 0n ? -1 : a.network.localeCompare(b.network);
}
