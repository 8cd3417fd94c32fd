import type { Db, Tx } from "@/lib/db/client";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { findSettlementAsset, isSettlementSymbol, normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import { formatAmount, MAX_MINOR_UNITS, parseAmount } from "@/lib/domain/money/amount";
import { AppError } from "@/lib/errors";
import { assetKey, parseAssetKey } from "@/lib/ledger/postings";
import { markControlsLoosened } from "@/lib/services/money-out/payout-freeze";

/** One asset's thresholds as the cabinet shows them: decimal strings in the asset's units, null for none. */
export interface MoneyOutThresholdView {
  currency: string;
  network: string;
  per_payout: string | null;
  per_day: string | null;
  updated_at: string;
}

export async function listMoneyOutThresholds(db: Db | Tx, merchantId: string): Promise<MoneyOutThresholdView[]> {
  const rows = await db.moneyOutThreshold.findMany({ where: { merchantId }, orderBy: { asset: "asc" } });
  return rows.map((row) => {
    const { symbol, network } = parseAssetKey(row.asset);
    const decimals = findSettlementAsset(symbol, network)?.decimals ?? 0;
    const format = (minor: { toFixed(): string } | null) => (minor === null ? null : formatAmount(BigInt(minor.toFixed()), decimals));
    return { currency: symbol, network, per_payout: format(row.perPayoutMinor), per_day: format(row.perDayMinor), updated_at: row.updatedAt.toISOString() };
  });
}

export interface ThresholdChange {
  merchantId: string;
  actor: string;
  input: { currency: string; network: string; per_payout?: string | null; per_day?: string | null };
}

interface CheckedThreshold {
  merchantId: string;
  actor: string;
  currency: string;
  network: string;
  perPayout: bigint | null;
  perDay: bigint | null;
}

/**
 * Sets (or, with neither amount, removes) one asset's thresholds: money out of that asset above
 * `per_payout`, or taking the last 24 hours above `per_day`, waits for a second person's approval
 * (lib/domain/payout/money-out-policy). Tightening applies at once; loosening — an amount raised
 * or removed — freezes money out for the freeze period, so a stolen session cannot lift the limit
 * and drain in the same minute.
 */
export const setMoneyOutThreshold = {
  async prepare(_deps: unknown, { merchantId, actor, input }: ThresholdChange): Promise<CheckedThreshold> {
    const currency = normalizeSymbol(input.currency);
    const network = normalizeNetworkId(input.network);
    const asset = isSettlementSymbol(currency) ? findSettlementAsset(currency, network) : undefined;
    if (!asset) throw new AppError("threshold.unknown_currency", `${input.currency} on ${input.network} is not a settlement asset.`);
    const parse = (value: string | null | undefined, field: string): bigint | null => {
      if (value === undefined || value === null || value.trim() === "") return null;
      const minor = parseAmount(value.trim(), asset.decimals);
      if (minor === null || minor <= 0n || minor > MAX_MINOR_UNITS) throw new AppError("threshold.bad_amount", `${field} must be a positive decimal of at most ${asset.decimals} places, in ${currency}, or empty for none.`);
      return minor;
    };
    return { merchantId, actor, currency, network, perPayout: parse(input.per_payout, "per_payout"), perDay: parse(input.per_day, "per_day") };
  },
  async execute(tx: Tx, deps: { now(): Date }, { merchantId, actor, currency, network, perPayout, perDay }: CheckedThreshold): Promise<{ threshold: MoneyOutThresholdView | null; isLoosened: boolean }> {
    const key = { merchantId_asset: { merchantId, asset: assetKey(currency, network) } };
    const now = deps.now();
    const earlier = await tx.moneyOutThreshold.findUnique({ where: key });
    const was = { perPayout: earlier?.perPayoutMinor == null ? null : BigInt(earlier.perPayoutMinor.toFixed()), perDay: earlier?.perDayMinor == null ? null : BigInt(earlier.perDayMinor.toFixed()) };
    if (perPayout === null && perDay === null) await tx.moneyOutThreshold.deleteMany({ where: { merchantId, asset: key.merchantId_asset.asset } });
    else {
      const data = { perPayoutMinor: perPayout?.toString() ?? null, perDayMinor: perDay?.toString() ?? null, updatedBy: actor, updatedAt: now };
      await tx.moneyOutThreshold.upsert({ where: key, create: { merchantId, asset: key.merchantId_asset.asset, ...data }, update: data });
    }
    const isLoosened = isLooser(was.perPayout, perPayout) || isLooser(was.perDay, perDay);
    if (isLoosened) await markControlsLoosened(tx, merchantId, now);
    const threshold = (await listMoneyOutThresholds(tx, merchantId)).find((view) => view.currency === currency && view.network === network) ?? null;
    return { threshold, isLoosened };
  },
} satisfies UnitOfWork<ThresholdChange, CheckedThreshold, { threshold: MoneyOutThresholdView | null; isLoosened: boolean }>;

/** Whether a limit went from `was` to `now` in the direction that lets more money out. */
function isLooser(was: bigint | null, now: bigint | null): boolean {
  if (was === null) return false;
  return now === null || now > was;
}
