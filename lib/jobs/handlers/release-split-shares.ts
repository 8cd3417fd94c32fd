import type { AppDeps } from "@/lib/deps/app-deps";
import { runUnit } from "@/lib/deps/unit-of-work";
import { log } from "@/lib/log";
import { listDueSplitShares, releaseSplitShare } from "@/lib/services/splits/split-shares";

/**
 * Part of the `payout.send` pass: each held share whose refund window ended is released
 * (releaseSplitShare), one transaction per share; one that fails is logged and left to the next
 * pass, and a share whose screening cannot answer now waits for it.
 */
export async function releaseDueSplitShares(deps: AppDeps, limit = 200): Promise<number> {
  let released = 0;
  for (const share of await listDueSplitShares(deps.db, deps.now(), limit)) {
    try {
      if (await runUnit(deps, releaseSplitShare, share)) released++;
    } catch (error) {
      log.warn("split share not released yet; the next pass retries", { shareId: share.id, error });
    }
  }
  return released;
}
