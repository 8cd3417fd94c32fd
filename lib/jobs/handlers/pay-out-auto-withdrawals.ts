import type { AppDeps } from "@/lib/deps/app-deps";
import { withTransaction } from "@/lib/db/transaction";
import { log } from "@/lib/log";
import { listDueAutoWithdrawals, payOutAutoWithdrawal, recordAutoWithdrawalRefusal } from "@/lib/services/payouts/auto-withdraw";
import { runUnit } from "@/lib/deps/unit-of-work";

/**
 * Turns due auto-withdrawals into payouts, each in its own transaction (see payOutAutoWithdrawal);
 * a refused one is recorded and the next one still goes. Answers how many became payouts.
 */
export async function payOutAutoWithdrawals(deps: AppDeps, limit = 200): Promise<number> {
  let paidOut = 0;
  for (const withdrawal of await listDueAutoWithdrawals(deps.db, limit)) {
    try {
      await runUnit(deps, payOutAutoWithdrawal, withdrawal);
      paidOut++;
    } catch (error) {
      const isFinal = await withTransaction(deps.db, (tx) => recordAutoWithdrawalRefusal(tx, deps, withdrawal.lotId, error));
      if (!isFinal) log.warn("auto-withdrawal not sent yet; the next pass retries", { lotId: withdrawal.lotId, error });
    }
  }
  return paidOut;
}
