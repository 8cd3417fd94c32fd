import type { AppDeps } from "@/lib/deps/app-deps";
import type { NetworkId } from "@/lib/catalogue";
import { getChainSender } from "@/lib/chains/registry";
import type { ChainSender } from "@/lib/chains/types";
import { withTransaction } from "@/lib/db/transaction";
import { log } from "@/lib/log";
import { followOutgoingTransfers, sendOutgoingTransfers } from "./send-outgoing";
import { payOutAutoWithdrawals } from "./pay-out-auto-withdrawals";
import { advancePayout, listDuePayouts, openPayoutKey, PAYOUT_TRANSFERS, payoutConfirmations, SENDING_STATUSES, type PayoutSendDeps } from "@/lib/services/payouts/send-payouts";
import { processAutorefunds } from "./process-autorefunds";
import { releaseDueSplitShares } from "./release-split-shares";

/** The `payout.send` job: a pass over every network that has payouts on their way (networks without a sender wait). */
export async function sendAllPayouts(deps: AppDeps): Promise<{ planned: number; confirmed: number }> {
  // Matured credits that auto-withdraw rules send out, automatic refunds and external partners'
  // split shares whose window ended become payouts first (internal shares go to the partner).
  await payOutAutoWithdrawals(deps);
  await processAutorefunds(deps);
  await releaseDueSplitShares(deps);
  const networks = await deps.db.payout.findMany({ where: { status: { in: SENDING_STATUSES } }, select: { network: true }, distinct: ["network"] });
  const total = { planned: 0, confirmed: 0 };
  for (const { network } of networks) {
    const sender = getChainSender(deps.db, deps.config, network);
    if (!sender) continue;
    try {
      const pass = await sendPayouts(deps, network as NetworkId, sender);
      total.planned += pass.planned;
      total.confirmed += pass.confirmed;
    } catch (error) {
      log.warn("payout pass failed; the next pass retries", { network, error });
    }
  }
  return total;
}

/**
 * One pass of a network's payouts, idempotent over durable state (any number of workers): each
 * approved payout gets its on-chain transfer planned from the hot wallet; the network's
 * outgoing transfers are signed, broadcast and followed (bytes stored before broadcast, never
 * signed twice); then each payout catches up with its transfer (advancePayout), one transaction
 * per payout.
 */
export async function sendPayouts(deps: PayoutSendDeps, network: NetworkId, sender: ChainSender): Promise<{ planned: number; confirmed: number }> {
  const { hot, keyFor } = await openPayoutKey(deps, network);
  const first = await advancePayouts(deps, network, hot.address);
  await sendOutgoingTransfers(deps, network, sender, keyFor, PAYOUT_TRANSFERS(hot.address), { replaceAfterSeconds: deps.config.replaceAfterSeconds });
  await followOutgoingTransfers(deps, network, sender, keyFor, PAYOUT_TRANSFERS(hot.address), payoutConfirmations(network));
  const second = await advancePayouts(deps, network, hot.address);
  return { planned: first.planned + second.planned, confirmed: first.confirmed + second.confirmed };
}

async function advancePayouts(deps: PayoutSendDeps, network: NetworkId, hotAddress: string): Promise<{ planned: number; confirmed: number }> {
  let planned = 0;
  let confirmed = 0;
  for (const id of await listDuePayouts(deps.db, network, deps.now())) {
    // One payout that cannot advance does not stop the others.
    try {
      const outcome = await withTransaction(deps.db, (tx) => advancePayout(tx, id, hotAddress, deps.now()));
      if (outcome === "planned") planned++;
      if (outcome === "confirmed") confirmed++;
    } catch (error) {
      log.warn("payout not advanced; the next pass retries", { network, payoutId: id, error });
    }
  }
  return { planned, confirmed };
}
