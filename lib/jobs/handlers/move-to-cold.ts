import type { HotWalletLimit } from "@/lib/config/env";
import type { NetworkId } from "@/lib/catalogue";
import { withTransaction } from "@/lib/db/transaction";
import { log } from "@/lib/log";
import {
  checkColdAddress,
  COLD_TRANSFERS,
  decideAndPlan,
  logCheck,
  openHotWallet,
  readChainFigures,
  reasonOf,
  recordChecks,
  unchecked,
  type ColdStorageDeps,
  type ColdStorageOptions,
  type HotWalletLimitCheck,
} from "@/lib/services/cold-storage/move-to-cold";
import { followOutgoingTransfers, sendOutgoingTransfers } from "./send-outgoing";

/**
 * Keeps each limited asset's hot wallet at or below the operator's maximum (HOT_WALLET_MAX_*), the
 * `wallet.to-cold` job and `wallets to-cold`: an idempotent pass over durable state, safe with any
 * number of workers. Per network with limits: transfers to cold storage already on their way are
 * followed (a confirmed one is booked hot → cold with its status); then per asset the chain is read
 * and, in one transaction, the excess is decided and planned (decideAndPlan: one move of an asset on
 * its way at a time); then it is signed, stored and broadcast by the outgoing machinery, as sweeps
 * and payouts are. The checks are kept, in a transaction of their own, unless it is a dry run.
 */
export async function moveExcessToCold(deps: ColdStorageDeps, options: ColdStorageOptions): Promise<HotWalletLimitCheck[]> {
  const limits = deps.config.hotWalletLimits.filter((limit) => !options.network || limit.network === options.network);
  const networks = [...new Set(limits.map((limit) => limit.network))];
  const checks: HotWalletLimitCheck[] = [];
  for (const network of networks) {
    const ofNetwork = limits.filter((limit) => limit.network === network);
    try {
      checks.push(...(await moveNetworkExcess(deps, network as NetworkId, ofNetwork, options)));
    } catch (error) {
      log.warn("hot wallet limits not checked; the next pass retries", { network, error });
      checks.push(...ofNetwork.map((limit) => unchecked(limit, `not checked: ${reasonOf(error)}`)));
    }
  }
  if (!options.isDryRun) await withTransaction(deps.db, (tx) => recordChecks(tx, deps.config.hotWalletLimits, checks, deps.now()));
  return checks;
}

async function moveNetworkExcess(deps: ColdStorageDeps, network: NetworkId, limits: HotWalletLimit[], options: ColdStorageOptions): Promise<HotWalletLimitCheck[]> {
  const wallet = await openHotWallet(deps, network);
  if (!wallet) return limits.map((limit) => unchecked(limit, "no chain serves this network"));
  const { sender, hot, keyFor, confirmations } = wallet;
  // Moves already on their way first: one that confirmed is booked and frees its asset for the next.
  if (!options.isDryRun) await followOutgoingTransfers(deps, network, sender, keyFor, COLD_TRANSFERS(hot.address), confirmations);
  const checks: HotWalletLimitCheck[] = [];
  for (const limit of limits) {
    const cold = await checkColdAddress(deps, network, limit, hot.address, wallet.chain);
    if ("refusal" in cold) {
      log.error("hot wallet limit not applied: the cold address is refused", { network, currency: limit.currency, coldAddress: limit.coldAddress, reason: cold.refusal });
      checks.push(unchecked(limit, cold.refusal));
      continue;
    }
    const accepted = { ...limit, coldAddress: cold.address };
    try {
      const figures = await readChainFigures(deps, sender, hot, accepted, options);
      const check = await withTransaction(deps.db, (tx) => decideAndPlan(tx, deps, hot, accepted, figures));
      logCheck(accepted, check);
      checks.push(check);
    } catch (error) {
      log.warn("hot wallet limit not checked; the next pass retries", { network, currency: limit.currency, error });
      checks.push(unchecked(limit, `not checked: ${reasonOf(error)}`));
    }
  }
  if (!options.isDryRun) {
    await sendOutgoingTransfers(deps, network, sender, keyFor, COLD_TRANSFERS(hot.address), { replaceAfterSeconds: deps.config.replaceAfterSeconds });
    // What was just sent may already be final (a sandbox chain that mines at once, a fast node).
    await followOutgoingTransfers(deps, network, sender, keyFor, COLD_TRANSFERS(hot.address), confirmations);
    for (const check of checks) {
      if (!check.transfer) continue;
      const row = await deps.db.outgoingTransfer.findUnique({ where: { id: check.transfer.id } });
      if (row) check.transfer = { ...check.transfer, status: row.status, txid: row.txid };
    }
  }
  return checks;
}
