import type { ChainSender } from "@/lib/chains/types";
import { withTransaction } from "@/lib/db/transaction";
import { log } from "@/lib/log";
import {
  blocksBeforeReplacing,
  broadcastStored,
  followTransfer,
  listLiveTransfers,
  listPlannedTransfers,
  listReplaceable,
  listSendingAddresses,
  listSignedTransfers,
  newWorker,
  releaseLease,
  settleOutgoingTransfer,
  signTransfer,
  storeReplacement,
  storeSignedTransfer,
  stuckOf,
  takeLease,
  transferOf,
  type KeyForTransfer,
  type OutgoingDeps,
  type SendOptions,
  type TransferFilter,
  type Worker,
} from "@/lib/services/outgoing/send-outgoing";

/**
 * Signs and broadcasts a network's planned outgoing transfers, crash-safe, any number of workers
 * at once (the payout, sweep and cold-storage jobs). Per sending address, under a database lease
 * (one worker signs for an address at a time):
 *
 * 1. a transfer signed earlier whose broadcast never got a yes (a crash, no answer) is broadcast
 *    again — the same bytes, never a new signature;
 * 2. then each planned transfer is signed (chain reads outside any database transaction) and its
 *    bytes, txid and the resources they consume are stored in one transaction that re-checks the
 *    lease — only then broadcast.
 *
 * A refusal of the bytes that the chain confirms it never took frees their resources; an answer
 * that settles nothing (no answer, a busy node) stops the address until the next pass, unless the
 * chain proves the bytes can no longer land (then they are replaced, and the purpose planned anew).
 */
export async function sendOutgoingTransfers(
  deps: OutgoingDeps,
  network: string,
  sender: ChainSender,
  keyFor: KeyForTransfer,
  only: TransferFilter = {},
  options: SendOptions = { replaceAfterSeconds: 0 },
): Promise<{ broadcast: number }> {
  const addresses = await listSendingAddresses(deps.db, network, options.replaceAfterSeconds > 0 && sender.bump !== undefined, only);
  const worker = newWorker(deps);
  let broadcast = 0;
  for (const fromAddress of addresses) {
    if (!(await takeLease(worker, network, fromAddress))) continue; // another worker is on it
    try {
      await replaceStuck(worker, network, fromAddress, sender, keyFor, only, options);
      broadcast += await sendFromAddress(worker, network, fromAddress, sender, keyFor, only);
    } catch (error) {
      log.warn("outgoing transfers of an address stopped; the next pass goes on", { network, fromAddress, error });
    } finally {
      await releaseLease(worker, network, fromAddress);
    }
  }
  return { broadcast };
}

/**
 * Transactions of the address broadcast and still unmined after the configured wait are signed
 * again with the same resources and a higher fee, under the address's lease; the new signing is
 * stored over the row before it is broadcast.
 */
async function replaceStuck(deps: Worker, network: string, fromAddress: string, sender: ChainSender, keyFor: KeyForTransfer, only: TransferFilter, options: SendOptions): Promise<void> {
  if (!sender.bump || options.replaceAfterSeconds <= 0) return;
  const afterBlocks = blocksBeforeReplacing(network, options);
  for (const transfer of await listReplaceable(deps.db, network, fromAddress, only)) {
    const bumped = await sender.bump(keyFor(transfer), transferOf(transfer), stuckOf(transfer), { afterBlocks });
    if (!bumped) continue;
    const isStored = await withTransaction(deps.db, (tx) => storeReplacement(tx, deps, transfer, bumped, afterBlocks));
    if (!isStored) continue; // mined or moved on meanwhile
    log.warn("outgoing transfer stuck unmined; replaced with a higher fee", { network, reference: transfer.reference, stuck: transfer.txid, replacement: bumped.txid });
    await sender.broadcast({ txid: bumped.txid, raw: bumped.raw });
  }
}

async function sendFromAddress(deps: Worker, network: string, fromAddress: string, sender: ChainSender, keyFor: KeyForTransfer, only: TransferFilter): Promise<number> {
  let broadcast = 0;
  // 1. What was signed before goes out first, as it was signed.
  for (const transfer of await listSignedTransfers(deps.db, network, fromAddress, only)) {
    const outcome = await broadcastStored(deps, transfer, sender, keyFor);
    if (outcome === "stop") return broadcast;
    if (outcome === "accepted") broadcast++;
  }
  // 2. Then the planned ones, one at a time: each signing sees the one before.
  for (const transfer of await listPlannedTransfers(deps, network, fromAddress, only)) {
    const signed = await signTransfer(deps, transfer, sender, keyFor);
    if (signed === "refused") continue; // this one cannot go (a bad recipient, funds short for it); the next may
    if (signed === "wait") return broadcast;
    // Stored before broadcast: a crash from here on leaves these bytes, and only these, to send.
    const stored = await withTransaction(deps.db, (tx) => storeSignedTransfer(tx, deps, transfer, signed));
    const outcome = await broadcastStored(deps, stored, sender, keyFor);
    if (outcome === "stop") return broadcast;
    if (outcome === "accepted") broadcast++;
  }
  return broadcast;
}

/**
 * Follows what was broadcast until it is final (see followTransfer): a final outcome is settled
 * with its fee in a transaction of its own, one transfer at a time; one that cannot be followed
 * now does not stop the others.
 */
export async function followOutgoingTransfers(
  deps: OutgoingDeps,
  network: string,
  sender: ChainSender,
  keyFor: KeyForTransfer,
  only: TransferFilter = {},
  /** Confirmations after which a transaction in a block is final (before that it is `seen`). */
  confirmations = 1,
): Promise<{ confirmed: number }> {
  let confirmed = 0;
  for (const transfer of await listLiveTransfers(deps.db, network, only)) {
    try {
      const settlement = await followTransfer(deps, transfer, sender, keyFor, confirmations);
      if (!settlement) continue;
      const isSettled = await withTransaction(deps.db, (tx) => settleOutgoingTransfer(tx, deps, transfer, settlement));
      if (isSettled && settlement.fact.kind === "confirmed") confirmed++;
    } catch (error) {
      log.warn("could not follow an outgoing transfer; the next pass tries again", { network, reference: transfer.reference, error });
    }
  }
  return { confirmed };
}
