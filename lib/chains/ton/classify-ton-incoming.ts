import type { Address, Transaction } from "@ton/core";
import { OP_JETTON_EXCESSES, OP_JETTON_INTERNAL_TRANSFER, OP_JETTON_TRANSFER_NOTIFICATION, parseJettonNotification, readTextComment } from "@/lib/chains/ton/ton-messages";

/** What an account's transaction brought in, before the jetton sender is checked against a master. */
export type TonIncoming =
  /** Toncoin kept by the account. */
  | { kind: "ton"; from: Address; amount: bigint; memo: string | null }
  /** A jetton wallet says it credited `amount`; only trustworthy if `jettonWallet` is the genuine one. */
  | { kind: "jetton-notification"; jettonWallet: Address; from: Address | null; amount: bigint; memo: string | null };

/**
 * Classifies the inbound message of one transaction of a deposit wallet. Pure: the caller checks
 * a notification's sender against the jetton master, since anyone can deploy a jetton wallet
 * that sends well-formed notifications (networks.md §6).
 */
export function classifyTonIncoming(transaction: Transaction): TonIncoming | null {
  const message = transaction.inMessage;
  if (!message || message.info.type !== "internal") return null;
  // A bounced message is our own value coming back, not a payment.
  if (message.info.bounced) return null;
  if (transaction.description.type !== "generic") return null;

  const body = message.body.beginParse();
  const op = body.remainingBits >= 32 ? body.preloadUint(32) : null;

  if (op === OP_JETTON_TRANSFER_NOTIFICATION) {
    // The jettons sit in the jetton wallet whatever happens to the notification itself, so its
    // own bounce does not matter; its TON value is only the carrier and is not a TON deposit.
    const notification = parseJettonNotification(message.body);
    if (!notification || notification.amount <= 0n) return null;
    return { kind: "jetton-notification", jettonWallet: message.info.src, from: notification.sender, amount: notification.amount, memo: notification.memo };
  }
  // Other jetton plumbing addressed to a wallet carries TON for fees, not payments.
  if (op === OP_JETTON_EXCESSES || op === OP_JETTON_INTERNAL_TRANSFER) return null;

  const amount = message.info.value.coins;
  if (amount <= 0n) return null;
  // A bounceable message the account could not take (not deployed, or its code failed) went back.
  if (transaction.description.bouncePhase?.type === "ok") return null;
  return { kind: "ton", from: message.info.src, amount, memo: readTextComment(body) };
}
