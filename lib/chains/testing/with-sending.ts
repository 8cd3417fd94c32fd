import { createKeyedMutex } from "@/lib/db/keyed-mutex";
import { ChainError, type ChainSender, type OutgoingTransfer, type SignedTransaction, type SigningKey } from "../types";

/** A broadcast that got no answer: the transaction may or may not be with the node. */
export class BroadcastUncertainError extends ChainError {
  readonly txid: string;
  constructor(txid: string, reason: string) {
    super(`broadcast of ${txid} is uncertain (${reason})`, { retryable: true });
    this.name = "BroadcastUncertainError";
    this.txid = txid;
  }
}

export type SendingChainSender<S extends ChainSender> = S & {
  /** Signs with what this helper knows of the key's earlier transactions, broadcasts, and answers the txid. */
  send(from: SigningKey, transfer: OutgoingTransfer): Promise<{ txid: string; signed: SignedTransaction }>;
};

/**
 * For adapter tests against local nodes: sign-then-broadcast in one call, keeping the key's
 * in-flight transactions in memory the way the service keeps them in its database (see
 * lib/services/outgoing). A refusal throws ChainError; an uncertain broadcast throws
 * BroadcastUncertainError and its transaction stays in flight.
 */
export function withSending<S extends ChainSender>(sender: S): SendingChainSender<S> {
  const runExclusive = createKeyedMutex();
  const inFlight = new Map<string, SignedTransaction[]>();
  return Object.assign(sender, {
    send(from: SigningKey, transfer: OutgoingTransfer) {
      return runExclusive(from.address, async () => {
        const known = inFlight.get(from.address) ?? [];
        const signed = await sender.sign(from, transfer, { inFlight: known });
        const outcome = await sender.broadcast(signed);
        if (outcome.kind === "rejected") throw new ChainError(outcome.reason, { retryable: outcome.retryable });
        inFlight.set(from.address, [...known, signed]);
        if (outcome.kind === "uncertain") throw new BroadcastUncertainError(signed.txid, outcome.reason);
        return { txid: signed.txid, signed };
      });
    },
  });
}
