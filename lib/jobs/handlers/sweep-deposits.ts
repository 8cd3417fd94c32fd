import type { NetworkId } from "@/lib/catalogue";
import { HOT_WALLET_INDEX } from "@/lib/chains/signing-keys";
import type { ChainSender } from "@/lib/chains/types";
import { keysFor, planSweeps, SWEEP_TRANSFERS, type SweepDeps } from "@/lib/services/sweeps/sweep-deposits";
import { followOutgoingTransfers, sendOutgoingTransfers } from "./send-outgoing";

/**
 * Moves credited deposits from their invoice and static wallet addresses to the network's hot
 * wallet (the `chain.sweep` job), as one idempotent pass over durable state: plans the transfers
 * that are due, then sends and follows them as outgoing transfers (signed bytes stored before
 * broadcast, the fee the chain took booked).
 */
export async function sweepNetwork(deps: SweepDeps, network: NetworkId, sender: ChainSender): Promise<{ planned: number; sent: number; confirmed: number }> {
  const keys = await keysFor(deps, network);
  const keyFor = (transfer: { fromIndex: number }) => (transfer.fromIndex === HOT_WALLET_INDEX ? keys.hot() : keys.key(transfer.fromIndex));
  const planned = await planSweeps(deps, network, sender, keys);
  const { broadcast: sent } = await sendOutgoingTransfers(deps, network, sender, keyFor, SWEEP_TRANSFERS, { replaceAfterSeconds: deps.config.replaceAfterSeconds });
  const { confirmed } = await followOutgoingTransfers(deps, network, sender, keyFor, SWEEP_TRANSFERS);
  return { planned, sent, confirmed };
}
