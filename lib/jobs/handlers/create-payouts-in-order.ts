import { withTransaction } from "@/lib/db/transaction";
import type { PayoutDeps } from "@/lib/services/money-out/payout-terms";
import { newPayoutPlan, payoutTurn, recordPayout } from "@/lib/services/payouts/create-payout";
import { isRecordedOneByOne, preparePayoutsInOrder, reservePayoutsTogether, settledOutcomes, type ElementOutcome } from "@/lib/services/payouts/create-payouts-in-order";

/**
 * Many payouts of one merchant in order against its balances (POST /v1/payout/mass, a chunk of a
 * payout batch): checked together before any transaction, then reserved in one transaction — or,
 * when a conversion funds one, each in its own transaction and its balance's turn, in order.
 */
export async function createPayoutsInOrder(deps: PayoutDeps, merchantId: string, requests: unknown[], actor: string): Promise<ElementOutcome[]> {
  const plan = await preparePayoutsInOrder(deps, merchantId, requests, actor);
  if (plan.fresh.length === 0) return settledOutcomes(plan.outcomes);
  if (!isRecordedOneByOne(plan)) return withTransaction(deps.db, (tx) => reservePayoutsTogether(tx, deps, plan));
  const outcomes = [...plan.outcomes];
  for (const { index, terms } of plan.fresh) {
    const payout = newPayoutPlan(merchantId, terms, { actor });
    try {
      outcomes[index] = { payout: await withTransaction(deps.db, (tx) => recordPayout(tx, deps, payout), { turn: payoutTurn(payout) }) };
    } catch (error) {
      outcomes[index] = { error: error as Error };
    }
  }
  return settledOutcomes(outcomes);
}
