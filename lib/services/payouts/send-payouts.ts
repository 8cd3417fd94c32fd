import type { Payout } from "@/generated/prisma/client";
import type { GatewayConfig } from "@/lib/config/env";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db, Tx } from "@/lib/db/client";
import { withTransaction } from "@/lib/db/transaction";
import { findNetwork, findSettlementAsset, minimumConfirmations, type NetworkId } from "@/lib/catalogue";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { addressChainOf, getChainSender } from "@/lib/chains/registry";
import { deriveSigningKey, HOT_WALLET_INDEX } from "@/lib/chains/signing-keys";
import type { ChainSender } from "@/lib/chains/types";
import { factsToCatchUp, type PayoutFact, type TransferProgress } from "@/lib/domain/payout/transition";
import { log } from "@/lib/log";
import { planOutgoingTransfer } from "@/lib/services/outgoing/plan-outgoing";
import { followOutgoingTransfers, sendOutgoingTransfers } from "@/lib/services/outgoing/send-outgoing";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { applyPayoutFact } from "./apply-payout-fact";
import { processAutorefunds } from "@/lib/services/refunds/resolve-payment";
import { releaseDueSplitShares } from "@/lib/services/splits/split-shares";
import type { PayoutDeps } from "@/lib/services/money-out/payout-terms";

export interface PayoutSendDeps {
  db: Db;
  secretBox: SecretBox;
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints" | "replaceAfterSeconds">;
  now(): Date;
}

/** Refusals of a payout's transfer (other than the hot wallet lacking funds) before it fails. */
export const MAX_FAILED_ATTEMPTS = 3;
/**
 * The wait before the next attempt: doubling from 10 s, at most 10 minutes after a refusal, at
 * most a minute while only funds are missing (they may arrive with the next sweep).
 */
function backoffMs(waits: number, isShortOfFunds: boolean): number {
  return Math.min(10_000 * 2 ** Math.min(waits, 16), isShortOfFunds ? 60_000 : 600_000);
}

const SENDING_STATUSES = ["approved", "broadcasting", "sent"];
/** This job's transfers: payouts, from the hot wallet (sweeps and their gas are the sweeper's). */
const PAYOUT_TRANSFERS = (hotAddress: string) => ({ fromAddress: hotAddress, kinds: ["payout"] });

/**
 * One pass of a network's payouts, idempotent over durable state (any number of workers): each
 * approved payout gets its on-chain transfer planned from the hot wallet; the network's
 * outgoing transfers are signed, broadcast and followed (lib/services/outgoing: bytes stored
 * before broadcast, never signed twice); then each payout catches up with its transfer —
 * broadcasting, sent, confirmed (the reserve paid out), or, when the transfer was refused or
 * died, another attempt after a backoff (waiting without limit while the hot wallet is short of
 * funds), or failed with its reserve released after repeated refusals.
 */
/** A pass over every network that has payouts on their way (networks without a sender wait). */
export async function sendAllPayouts(deps: PayoutDeps): Promise<{ planned: number; confirmed: number }> {
  // Automatic refunds and external partners' split shares whose window ended become payouts
  // first (internal shares go to the partner); the job turns due auto-withdrawals into payouts before.
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

export async function sendPayouts(deps: PayoutSendDeps, network: NetworkId, sender: ChainSender): Promise<{ planned: number; confirmed: number }> {
  const keys = await loadKeyMaterial(deps.db, deps.secretBox);
  const hot = deriveSigningKey(keys.openSeed(), network, HOT_WALLET_INDEX, addressChainOf(deps.config, network));
  const keyFor = (transfer: { fromIndex: number }) => {
    if (transfer.fromIndex !== HOT_WALLET_INDEX) throw new Error("payouts are sent from the hot wallet only");
    return hot;
  };
  const first = await advancePayouts(deps, network, hot.address);
  await sendOutgoingTransfers(deps, network, sender, keyFor, PAYOUT_TRANSFERS(hot.address), { replaceAfterSeconds: deps.config.replaceAfterSeconds });
  await followOutgoingTransfers(deps, network, sender, keyFor, PAYOUT_TRANSFERS(hot.address), payoutConfirmations(network));
  const second = await advancePayouts(deps, network, hot.address);
  return { planned: first.planned + second.planned, confirmed: first.confirmed + second.confirmed };
}

/**
 * Confirmations after which a payout is `confirmed` (and paid in the ledger): the network's
 * `min_confirmations` (GET /v1/currencies), the depth at which this service believes a deposit.
 */
export function payoutConfirmations(network: NetworkId): number {
  const native = findSettlementAsset(findNetwork(network)!.nativeSymbol, network);
  return native ? minimumConfirmations(native) : 1;
}

/** Payouts advanced per pass (oldest first); the rest wait for the next pass. */
const ADVANCE_LIMIT = 2000;

async function advancePayouts(deps: PayoutSendDeps, network: NetworkId, hotAddress: string): Promise<{ planned: number; confirmed: number }> {
  // Only payouts with something to do: a transfer to plan, a transfer that moved on, a wait to show.
  const due = await deps.db.$queryRaw<{ id: string }[]>`
    SELECT p.id::text AS id FROM payouts p
    LEFT JOIN outgoing_transfers t ON t.reference = 'payout:' || p.id::text || ':send:' || p.attempt::text
    WHERE p.network = ${network} AND p.status IN ('approved', 'broadcasting', 'sent') AND (
         (t.id IS NULL AND p.status = 'approved' AND p.next_attempt_at <= ${deps.now()})
      OR (t.status = 'signed' AND p.status = 'approved')
      OR (t.status IN ('broadcast', 'seen') AND p.status <> 'sent')
      OR t.status IN ('confirmed', 'failed', 'replaced')
      OR (t.status IN ('planned', 'signed') AND t.last_error <> ''
          AND p.wait_reason <> left(CASE WHEN t.is_short_of_funds THEN ${SHORT_OF_FUNDS_PREFIX} || t.last_error ELSE t.last_error END, 500)))
    ORDER BY p.created_at LIMIT ${ADVANCE_LIMIT}`;
  let planned = 0;
  let confirmed = 0;
  for (const { id } of due) {
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

type Advance = "planned" | "confirmed" | "moved" | "unchanged";

/** One payout, under its row lock (a payout another worker holds is skipped this pass). */
async function advancePayout(tx: Tx, id: string, hotAddress: string, now: Date): Promise<Advance> {
  const [locked] = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM payouts WHERE id = ${id}::uuid AND status IN ('approved', 'broadcasting', 'sent') FOR UPDATE SKIP LOCKED`;
  if (!locked) return "unchanged";
  let payout = await tx.payout.findUniqueOrThrow({ where: { id } });
  const reference = transferReference(payout);
  const transfer = await tx.outgoingTransfer.findUnique({ where: { reference } });

  if (!transfer) {
    if (payout.status !== "approved" || payout.nextAttemptAt > now) return "unchanged";
    await planOutgoingTransfer(
      tx,
      {
        kind: "payout",
        reference,
        network: payout.network,
        currency: payout.currency,
        fromAddress: hotAddress,
        fromIndex: HOT_WALLET_INDEX,
        toAddress: payout.address,
        memo: payout.memo ?? undefined,
        amountMinor: toMinor(payout.amountMinor),
        coveredMinor: toMinor(payout.amountMinor),
      },
      now,
    );
    return "planned";
  }

  const progress = progressOf(transfer.status);
  if (progress === "dropped") return handleDroppedAttempt(tx, payout, transfer, now);
  // A transfer that waits (the hot wallet short of funds, a node error, fresh chain state needed) says why on the payout.
  const waitReason = waitReasonOf(transfer);
  if ((progress === "planned" || progress === "signed") && transfer.lastError && payout.waitReason !== waitReason) {
    await tx.payout.update({ where: { id }, data: { waitReason, updatedAt: now } });
  }
  let outcome: Advance = "unchanged";
  for (const kind of factsToCatchUp(payout.status as Parameters<typeof factsToCatchUp>[0], progress)) {
    const moved = await applyPayoutFact(tx, payout, { kind } as PayoutFact, now, { txid: transfer.txid ?? "", waitReason: "" });
    if (!moved) break;
    payout = moved;
    outcome = kind === "transfer_confirmed" ? "confirmed" : "moved";
  }
  return outcome;
}

/** Why a payout's transfer is not moving, as the payout shows it (the SQL filter of advancePayouts says the same). */
function waitReasonOf(transfer: { lastError: string; isShortOfFunds: boolean }): string {
  return (transfer.isShortOfFunds ? `${SHORT_OF_FUNDS_PREFIX}${transfer.lastError}` : transfer.lastError).slice(0, 500);
}

const SHORT_OF_FUNDS_PREFIX = "the hot wallet cannot cover it yet: ";

/**
 * The current attempt's transfer was refused or died without moving anything: the payout
 * waits and tries again — without limit while the hot wallet lacks the funds, up to
 * MAX_FAILED_ATTEMPTS for any other refusal, then it fails and its reserve comes back. A
 * transfer its recipient refused on chain (it bounced) fails the payout at once: the same
 * transfer would bounce again, at a fee each time.
 */
async function handleDroppedAttempt(tx: Tx, payout: Payout, transfer: { lastError: string; isShortOfFunds: boolean; isRefusedByRecipient: boolean }, now: Date): Promise<Advance> {
  const failedAttempts = transfer.isRefusedByRecipient ? MAX_FAILED_ATTEMPTS : payout.failedAttempts + (transfer.isShortOfFunds ? 0 : 1);
  const reason = waitReasonOf(transfer) || "the transfer was refused";
  if (failedAttempts >= MAX_FAILED_ATTEMPTS) {
    await applyPayoutFact(tx, payout, { kind: "transfer_gave_up" }, now, { failedAttempts, waitReason: reason.slice(0, 500) });
    log.error("payout failed after repeated refusals; its reserve is released", { payoutId: payout.id, reason });
    return "moved";
  }
  const retry = {
    attempt: payout.attempt + 1,
    failedAttempts,
    waitReason: reason.slice(0, 500),
    nextAttemptAt: new Date(now.getTime() + backoffMs(payout.attempt - 1, transfer.isShortOfFunds)),
  };
  if (payout.status === "approved") {
    await tx.payout.update({ where: { id: payout.id }, data: { ...retry, updatedAt: now } });
  } else {
    await applyPayoutFact(tx, payout, { kind: "transfer_dropped" }, now, { ...retry, txid: "" });
  }
  return "moved";
}

/** The reference of the outgoing transfer of a payout's current attempt. */
export function transferReference(payout: Pick<Payout, "id" | "attempt">): string {
  return `payout:${payout.id}:send:${payout.attempt}`;
}

function progressOf(status: string): TransferProgress {
  switch (status) {
    case "planned":
      return "planned";
    case "signed":
      return "signed";
    case "broadcast":
    case "seen":
      return "broadcast";
    case "confirmed":
      return "confirmed";
    default:
      return "dropped"; // failed or replaced: nothing moved
  }
}
