import type { GatewayConfig } from "@/lib/config/env";
import type { Db, Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

/** Key kinds that can move money out: payouts (unified, payout) and refunds to any address (payment too). */
export const MONEY_MOVING_KEY_KINDS = ["unified", "payout", "payment"];

type FreezeDeps = { config: Pick<GatewayConfig, "payoutFreezeSeconds">; now(): Date };

/**
 * When the merchant's money-out freeze lifts, or null when there is none. A freeze follows, for
 * GATEWAY_PAYOUT_FREEZE_SECONDS, every new key that can move money (unified, payout, or payment:
 * it refunds to any address) and every loosened control (an auto-withdraw or split destination
 * changed, a threshold raised or removed): a stolen session that mints a key or points money
 * elsewhere cannot drain the balance at once. Refunds to the very address that paid are never
 * frozen (lib/domain/payout/money-out-policy).
 */
export async function readFrozenUntil(db: Db | Tx, deps: FreezeDeps, merchantId: string): Promise<Date | null> {
  const freezeMs = deps.config.payoutFreezeSeconds * 1000;
  if (freezeMs === 0) return null;
  const now = deps.now();
  const since = new Date(now.getTime() - freezeMs);
  // One after the other: inside a transaction the queries share one connection.
  const newestKey = await db.apiKey.findFirst({ where: { merchantId, kind: { in: MONEY_MOVING_KEY_KINDS }, revokedAt: null, createdAt: { gt: since } }, orderBy: { createdAt: "desc" }, select: { createdAt: true } });
  const merchant = await db.merchant.findUnique({ where: { id: merchantId }, select: { controlsChangedAt: true } });
  return freezeLiftsAt([newestKey?.createdAt, merchant?.controlsChangedAt], freezeMs, now);
}

/** The freeze's end: the newest change still within the period, plus the period; null when none is. */
export function freezeLiftsAt(changes: (Date | null | undefined)[], freezeMs: number, now: Date): Date | null {
  if (freezeMs === 0) return null;
  const within = changes.filter((at): at is Date => at != null && at.getTime() + freezeMs > now.getTime());
  if (within.length === 0) return null;
  return new Date(Math.max(...within.map((at) => at.getTime())) + freezeMs);
}

/** `payout.frozen` while the merchant's money out is frozen (see readFrozenUntil). */
export async function assertPayoutsNotFrozen(deps: FreezeDeps & { db: Db }, merchantId: string): Promise<void> {
  const liftsAt = await readFrozenUntil(deps.db, deps, merchantId);
  if (liftsAt) throw frozenRefusal(liftsAt);
}

/**
 * Inside the caller's transaction (or alone): a control of money out loosened — a new destination
 * (auto-withdraw, a new split rule), a threshold raised or removed — so money out is
 * frozen from now for GATEWAY_PAYOUT_FREEZE_SECONDS (see readFrozenUntil).
 */
export async function markControlsLoosened(db: Db | Tx, merchantId: string, now: Date): Promise<void> {
  await db.merchant.update({ where: { id: merchantId }, data: { controlsChangedAt: now } });
}

export function frozenRefusal(liftsAt: Date): AppError {
  return new AppError("payout.frozen", `Money out is frozen until ${liftsAt.toISOString()}, after a new key that can move money or a loosened control; refunds to the address that paid are not.`);
}
