import type { GatewayConfig } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

/**
 * A payout-capable key (unified or payout) created within the freeze period freezes the
 * merchant's payouts: a stolen session that mints a key cannot drain the balance at once.
 */
export async function assertPayoutsNotFrozen(deps: { db: Db; config: Pick<GatewayConfig, "payoutFreezeSeconds">; now(): Date }, merchantId: string): Promise<void> {
  if (deps.config.payoutFreezeSeconds === 0) return;
  const since = new Date(deps.now().getTime() - deps.config.payoutFreezeSeconds * 1000);
  const newest = await deps.db.apiKey.findFirst({
    where: { merchantId, kind: { in: ["unified", "payout"] }, revokedAt: null, createdAt: { gt: since } },
    orderBy: { createdAt: "desc" },
    select: { createdAt: true },
  });
  if (!newest) return;
  const liftsAt = new Date(newest.createdAt.getTime() + deps.config.payoutFreezeSeconds * 1000);
  throw new AppError("payout.frozen", `Payouts are frozen until ${liftsAt.toISOString()}, after a new payout key.`);
}
