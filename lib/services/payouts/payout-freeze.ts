import type { GatewayConfig } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";

/** Key kinds that can move money out: payouts (unified, payout) and refunds to any address (payment too). */
const MONEY_MOVING_KEY_KINDS = ["unified", "payout", "payment"];

/**
 * A key that can move money (unified, payout, or payment: it refunds to any address) created
 * within the freeze period freezes the merchant's money out: a stolen session that mints a key
 * cannot drain the balance at once. Refunds to the very address that paid are never frozen.
 */
export async function assertPayoutsNotFrozen(deps: { db: Db; config: Pick<GatewayConfig, "payoutFreezeSeconds">; now(): Date }, merchantId: string): Promise<void> {
  if (deps.config.payoutFreezeSeconds === 0) return;
  const since = new Date(deps.now().getTime() - deps.config.payoutFreezeSeconds * 1000);
  const newest = await deps.db.apiKey.findFirst({
    where: { merchantId, kind: { in: MONEY_MOVING_KEY_KINDS }, revokedAt: null, createdAt: { gt: since } },
    orderBy: { createdAt: "desc" },
    select: { createdAt: true },
  });
  if (!newest) return;
  const liftsAt = new Date(newest.createdAt.getTime() + deps.config.payoutFreezeSeconds * 1000);
  throw new AppError("payout.frozen", `Money out is frozen until ${liftsAt.toISOString()}, after a new key that can move money; refunds to the address that paid are not.`);
}
