import { randomUUID } from "node:crypto";
import type { Db, Tx } from "@/lib/db/client";
import { findNetwork } from "@/lib/catalogue";
import type { ChainError, ChainSender, ConsumedResources, SentRecord, SignedTransaction, SigningKey } from "@/lib/chains/types";
import { decideOutgoingTransfer, IN_FLIGHT_OUTGOING_STATUSES, type OutgoingFact, type OutgoingStatus } from "@/lib/domain/outgoing/transition";
import { postJournals } from "@/lib/ledger/post";
import { assetKey, movedToColdJournal, networkFeeJournal, type Journal } from "@/lib/ledger/postings";
import { log } from "@/lib/log";

export interface OutgoingDeps {
  db: Db;
  now(): Date;
}

/** The key that signs for a transfer's sending address. */
export type KeyForTransfer = (transfer: { fromAddress: string; fromIndex: number }) => SigningKey;

/**
 * Limits a pass to some transfers: those of one sending address (a caller that holds only that
 * key), of some kinds (each job sends its own: sweeps and their gas, or payouts).
 */
export interface TransferFilter {
  fromAddress?: string;
  kinds?: readonly string[];
}

/** How a pass treats transactions stuck unmined. */
export interface SendOptions {
  /**
   * Seconds a broadcast transaction may wait unmined before it is signed again with a higher fee
   * (families that can: EVM, UTXO), counted in the network's blocks. 0 never replaces.
   */
  replaceAfterSeconds: number;
}

export function whereOf(only: TransferFilter) {
  return { ...(only.fromAddress ? { fromAddress: only.fromAddress } : {}), ...(only.kinds ? { kind: { in: [...only.kinds] } } : {}) };
}

/** How long one worker holds an address's signing lease; a dead worker's successor waits this long. */
const LEASE_MS = 60_000;

export type TransferRow = Awaited<ReturnType<Db["outgoingTransfer"]["findFirstOrThrow"]>>;

/**
 * The sending addresses of a network with transfers to sign or broadcast (and, when stuck
 * transactions are replaced, to follow): each is worked under its own lease (takeLease).
 */
export async function listSendingAddresses(db: Db, network: string, canReplace: boolean, only: TransferFilter): Promise<string[]> {
  const addresses = await db.outgoingTransfer.findMany({
    where: { network, status: { in: canReplace ? ["planned", "signed", "broadcast", "seen"] : ["planned", "signed"] }, ...whereOf(only) },
    select: { fromAddress: true },
    distinct: ["fromAddress"],
  });
  return addresses.map((row) => row.fromAddress);
}

/** A pass of the sender: the deps plus its name as a lease holder. */
export type Worker = OutgoingDeps & { owner: string };

/** A new lease holder: every pass is its own, so two passes in one process exclude each other too. */
export function newWorker(deps: OutgoingDeps): Worker {
  return { ...deps, owner: `${process.pid}:${randomUUID()}` };
}

/** Gives up the address's lease, if this pass still holds it. */
export async function releaseLease(deps: Worker, network: string, address: string): Promise<void> {
  await deps.db.signerLease.deleteMany({ where: { network, address, owner: deps.owner } });
}

/**
 * Transactions of the address broadcast and still unmined after the configured wait, which the
 * sender may sign again with the same resources and a higher fee (it decides whether one is
 * stuck): at most MAX_REPLACEMENTS times each — a few are enough to meet any market, and a
 * transaction the network will not take (its nodes do not replace) must not burn its change.
 */
export async function listReplaceable(db: Db, network: string, fromAddress: string, only: TransferFilter): Promise<TransferRow[]> {
  const waiting = await db.outgoingTransfer.findMany({ where: { network, fromAddress, status: { in: ["broadcast", "seen"] }, ...whereOf(only) }, orderBy: { createdAt: "asc" } });
  return waiting.filter((transfer) => transfer.replacements < MAX_REPLACEMENTS);
}

/** The network's blocks in the configured wait before a transaction counts as stuck. */
export function blocksBeforeReplacing(network: string, options: SendOptions): number {
  const blockTimeMs = findNetwork(network)?.blockTimeMs ?? 1000;
  return Math.max(1, Math.ceil((options.replaceAfterSeconds * 1000) / blockTimeMs));
}

/** The transaction of a row, as the sender replaces it. */
export function stuckOf(transfer: TransferRow): { txid: string; raw: string; consumes: ConsumedResources } {
  return { txid: transfer.txid!, raw: transfer.rawTransaction!, consumes: parseConsumes(transfer.consumes) };
}

/**
 * Stores a replacement signing over the row, under the address's lease — its `consumes.supersedes`
 * naming every earlier txid, any of which may still be the one mined — before it is broadcast.
 * False when the row moved on meanwhile (mined, or replaced by another).
 */
export async function storeReplacement(tx: Tx, deps: Pick<Worker, "owner" | "now">, transfer: TransferRow, bumped: SignedTransaction, afterBlocks: number): Promise<boolean> {
  await holdLease(tx, deps, transfer.network, transfer.fromAddress);
  const { count } = await tx.outgoingTransfer.updateMany({
    where: { id: transfer.id, txid: transfer.txid, status: { in: ["broadcast", "seen"] } },
    data: {
      txid: bumped.txid,
      rawTransaction: bumped.raw,
      consumes: JSON.stringify(bumped.consumes),
      feeMinor: bumped.feeMinor.toString(),
      replacements: { increment: 1 },
      lastError: `unmined after ${afterBlocks} blocks: replaced with a higher fee`,
      updatedAt: deps.now(),
    },
  });
  return count === 1;
}

/** How many times one transfer is replaced with a higher fee at most (about twice its first fee). */
const MAX_REPLACEMENTS = 5;

/** The transfer a row asks for, as a sender signs it. */
export function transferOf(transfer: TransferRow) {
  return { currency: transfer.currency, toAddress: transfer.toAddress, amountMinor: BigInt(transfer.amountMinor.toFixed()), changeAddress: transfer.changeAddress ?? undefined, memo: transfer.memo ?? undefined };
}

/** Inside a transaction: the address's lease is still this pass's (a pass whose lease lapsed in a long pause must not store), and held on for the next step. */
async function holdLease(tx: Tx, deps: Pick<Worker, "owner" | "now">, network: string, address: string): Promise<void> {
  const [lease] = await tx.$queryRaw<{ owner: string; until: Date }[]>`
    SELECT owner, until FROM signer_leases WHERE network = ${network} AND address = ${address} FOR UPDATE`;
  if (!lease || lease.owner !== deps.owner || lease.until <= deps.now()) throw new Error("signing lease lost before the transaction was stored");
  await tx.signerLease.update({ where: { network_address: { network, address } }, data: { until: new Date(deps.now().getTime() + LEASE_MS) } });
}

/** The address's transfers signed before whose broadcast never got a yes: they go out first, as they were signed. */
export async function listSignedTransfers(db: Db, network: string, fromAddress: string, only: TransferFilter): Promise<TransferRow[]> {
  return db.outgoingTransfer.findMany({ where: { network, fromAddress, status: "signed", ...whereOf(only) }, orderBy: { createdAt: "asc" } });
}

/** The address's planned transfers due for signing, oldest first: each signing sees the one before. */
export async function listPlannedTransfers(deps: OutgoingDeps, network: string, fromAddress: string, only: TransferFilter): Promise<TransferRow[]> {
  return deps.db.outgoingTransfer.findMany({
    where: { network, fromAddress, status: "planned", OR: [{ retryAt: null }, { retryAt: { lte: deps.now() } }], ...whereOf(only) },
    orderBy: { createdAt: "asc" },
  });
}

/**
 * Signs a planned transfer, outside any transaction (storeSignedTransfer stores it before it is
 * broadcast). "refused": the chain's rules refuse it (for good: it is failed; for want of funds:
 * it stays planned until `retryAt`; either way nothing was signed, and the next transfer may go);
 * "wait": a passing failure (a node error), the address waits for the next pass.
 */
export async function signTransfer(deps: OutgoingDeps, transfer: TransferRow, sender: ChainSender, keyFor: KeyForTransfer): Promise<SignedTransaction | "refused" | "wait"> {
  const inFlight = await deps.db.outgoingTransfer.findMany({
    where: { network: transfer.network, fromAddress: transfer.fromAddress, status: { in: [...IN_FLIGHT_OUTGOING_STATUSES] } },
    select: { txid: true, consumes: true },
  });
  let signed: SignedTransaction;
  try {
    signed = await sender.sign(keyFor(transfer), transferOf(transfer), { inFlight: inFlight.map((row) => ({ txid: row.txid!, consumes: parseConsumes(row.consumes) })) });
  } catch (error) {
    const reason = errorReason(error);
    // By field, not class: the error may come from another copy of the chain modules.
    if ((error as Partial<ChainError>).retryable ?? true) {
      await deps.db.outgoingTransfer.update({ where: { id: transfer.id }, data: { lastError: reason, attempts: { increment: 1 }, updatedAt: deps.now() } });
      return "wait";
    }
    const isShortOfFunds = (error as Partial<ChainError>).isShortOfFunds ?? false;
    if (isShortOfFunds) {
      // Nothing was signed: it stays planned, and is tried again once funds may have arrived.
      const retryAt = new Date(deps.now().getTime() + shortOfFundsBackoffMs(transfer.attempts));
      await deps.db.outgoingTransfer.update({ where: { id: transfer.id }, data: { lastError: reason, isShortOfFunds, retryAt, attempts: { increment: 1 }, updatedAt: deps.now() } });
      log.warn("outgoing transfer waits: the sending address cannot fund it yet", { network: transfer.network, reference: transfer.reference, error: reason });
      return "refused";
    }
    await applyFact(deps.db, transfer, { kind: "sign_refused" }, deps.now(), { lastError: reason, isShortOfFunds });
    log[isShortOfFunds ? "warn" : "error"]("outgoing transfer refused at signing; nothing was sent", { network: transfer.network, reference: transfer.reference, error: reason });
    return "refused";
  }
  // Identical bytes (Solana: the same transfer under the same blockhash) are the same
  // transaction: storing them for a second purpose would count one payment twice.
  const twin = await deps.db.outgoingTransfer.findFirst({ where: { network: transfer.network, txid: signed.txid, status: { notIn: ["failed", "replaced"] } }, select: { reference: true } });
  if (twin) {
    await deps.db.outgoingTransfer.update({ where: { id: transfer.id }, data: { lastError: `identical to the transaction of ${twin.reference}; waits for fresh chain state`, updatedAt: deps.now() } });
    return "wait";
  }
  return signed;
}

/**
 * Stores a signing with the resources it consumes (nonce, seqno, outpoints, blockhash, lifetime),
 * re-checking the address's lease: only then may it be broadcast.
 */
export async function storeSignedTransfer(tx: Tx, deps: Pick<Worker, "owner" | "now">, transfer: TransferRow, signed: SignedTransaction): Promise<TransferRow> {
  // Still ours: a worker whose lease lapsed (a long pause) must not store what a successor may
  // also sign; held on, a long run of transfers from one address keeps its lease.
  await holdLease(tx, deps, transfer.network, transfer.fromAddress);
  const stored = await applyFact(tx, transfer, { kind: "signed" }, deps.now(), {
    txid: signed.txid,
    rawTransaction: signed.raw,
    consumes: JSON.stringify(signed.consumes),
    nonce: signed.consumes.nonce ?? null,
    seqno: signed.consumes.seqno ?? null,
    feeMinor: signed.feeMinor.toString(),
    attempts: { increment: 1 },
    lastError: "",
    isShortOfFunds: false,
    retryAt: null,
  });
  if (!stored) throw new Error(`outgoing transfer ${transfer.id} was no longer planned`);
  // The database holds each coin for one transaction: a second spender fails on the key.
  const outpoints = signed.consumes.outpoints ?? [];
  if (outpoints.length) await tx.outgoingOutpoint.createMany({ data: outpoints.map((outpoint) => ({ network: transfer.network, outpoint, transferId: transfer.id })) });
  return stored;
}

/** The wait before signing again what the address could not fund: 10 s doubling, at most a minute. */
function shortOfFundsBackoffMs(tries: number): number {
  return Math.min(10_000 * 2 ** Math.min(tries, 16), 60_000);
}

/**
 * One broadcast of stored bytes. "stop": the address waits for the next pass. The attempt is
 * counted before the bytes go: a process that dies after a node took them and before it heard
 * back leaves that count, so a later refusal ("nonce too low" from a node that lags) is never
 * believed on its own.
 */
export async function broadcastStored(deps: OutgoingDeps, transfer: TransferRow, sender: ChainSender, keyFor: KeyForTransfer): Promise<"accepted" | "refused" | "stop"> {
  await deps.db.outgoingTransfer.update({ where: { id: transfer.id }, data: { broadcasts: { increment: 1 }, updatedAt: deps.now() } });
  const outcome = await sender.broadcast({ txid: transfer.txid!, raw: transfer.rawTransaction! });
  if (outcome.kind === "accepted") {
    await applyFact(deps.db, transfer, { kind: "broadcast_accepted" }, deps.now(), { lastError: "" });
    return "accepted";
  }
  // Whatever the node said, the chain may have these bytes from an earlier broadcast.
  const state = await sender.getTransaction(transfer.txid!, sentRecordOf(transfer));
  if (state.state !== "unknown") {
    await applyFact(deps.db, transfer, { kind: "broadcast_accepted" }, deps.now());
    return "accepted";
  }
  // Bytes broadcast before may have landed: a refusal now ("nonce too low", "already known")
  // proves nothing until the chain shows they cannot be there.
  if (outcome.kind === "uncertain" || outcome.retryable || transfer.broadcasts > 0) {
    // Bytes that can never land (their blockhash expired, an input spent elsewhere) stop waiting.
    if (await isProvablyDead(transfer, sender, keyFor)) {
      await applyFact(deps.db, transfer, { kind: "dead" }, deps.now(), { lastError: outcome.reason.slice(0, 500) });
      log.warn("signed outgoing transfer can no longer land; its purpose may be sent anew", { network: transfer.network, reference: transfer.reference });
      return "refused";
    }
    await deps.db.outgoingTransfer.update({ where: { id: transfer.id }, data: { lastError: outcome.reason.slice(0, 500), updatedAt: deps.now() } });
    return "stop";
  }
  // Refused for good and unknown to the chain: the resources of these bytes are free again.
  await applyFact(deps.db, transfer, { kind: "broadcast_refused" }, deps.now(), {
    lastError: outcome.reason.slice(0, 500),
    isShortOfFunds: outcome.kind === "rejected" && outcome.isShortOfFunds === true,
  });
  log.error("outgoing transfer refused by the node; nothing was sent", { network: transfer.network, reference: transfer.reference, reason: outcome.reason });
  return "refused";
}

/** What was broadcast and is not final yet, oldest first. */
export async function listLiveTransfers(db: Db, network: string, only: TransferFilter): Promise<TransferRow[]> {
  return db.outgoingTransfer.findMany({ where: { network, status: { in: ["broadcast", "seen"] }, ...whereOf(only) }, orderBy: { createdAt: "asc" } });
}

/** A final on-chain outcome of a transfer, to be settled with its fee in one transaction (settleOutgoingTransfer). */
export interface Settlement {
  fact: OutgoingFact;
  chargedFeeMinor: bigint | undefined;
  data: Record<string, unknown>;
}

/**
 * Follows one broadcast transfer, outside any transaction: the outcome to settle when it is final —
 * confirmed (the fee the chain charged is booked) or reverted (its fee is booked, nothing moved) —
 * else null, having recorded what changed: in a block but not deep enough yet, pending, or dead —
 * absent from the chain and provably unable to land (then, and only then, its purpose may be sent
 * anew). A transaction the chain lost that can still land is broadcast again, the same bytes.
 */
export async function followTransfer(
  deps: OutgoingDeps,
  transfer: TransferRow,
  sender: ChainSender,
  keyFor: KeyForTransfer,
  /** Confirmations after which a transaction in a block is final (before that it is `seen`). */
  confirmations: number,
): Promise<Settlement | null> {
  const state = await sender.getTransaction(transfer.txid!, sentRecordOf(transfer));
  // An earlier signing the fee bump replaced is the one mined: that is the transaction that went out.
  const landed = state.landedTxid ? { txid: state.landedTxid } : {};
  if (state.state === "confirmed" && state.confirmations >= Math.max(confirmations, 1)) {
    return { fact: { kind: "confirmed" }, chargedFeeMinor: state.feeMinor, data: landed };
  } else if (state.state === "confirmed") {
    // In a block, not deep enough yet: a reorganisation could still take it out.
    if (transfer.status !== "seen") await applyFact(deps.db, transfer, { kind: "pending" }, deps.now());
  } else if (state.state === "failed") {
    const isRefusedByRecipient = state.isRefusedByRecipient === true;
    const lastError = isRefusedByRecipient ? "the recipient refused the transfer on chain (it bounced back)" : "the transfer failed on chain";
    log.error("outgoing transfer failed on chain; nothing moved but its fee", { network: transfer.network, reference: transfer.reference, txid: transfer.txid, isRefusedByRecipient });
    return { fact: { kind: "reverted" }, chargedFeeMinor: state.feeMinor, data: { isRefusedByRecipient, lastError, ...landed } };
  } else if (state.state === "pending") {
    if (transfer.status !== "seen") await applyFact(deps.db, transfer, { kind: "pending" }, deps.now());
  } else if (!(await isProvablyDead(transfer, sender, keyFor))) {
    await sender.broadcast({ txid: transfer.txid!, raw: transfer.rawTransaction! });
  } else {
    await applyFact(deps.db, transfer, { kind: "dead" }, deps.now(), { lastError: "dropped by the chain and can no longer land" });
    log.warn("outgoing transfer dropped for good; its purpose may be sent anew", { network: transfer.network, reference: transfer.reference, txid: transfer.txid });
  }
  return null;
}

/**
 * Whether a transaction the chain did not report can never land: the sender says so (its nonce,
 * seqno or inputs used by another, its lifetime over), and the chain, asked again after that,
 * still does not know it — it may have landed between the first look and the proof, and then the
 * proof is its own doing.
 */
async function isProvablyDead(transfer: TransferRow, sender: ChainSender, keyFor: KeyForTransfer): Promise<boolean> {
  if (await sender.canStillLand({ txid: transfer.txid!, consumes: parseConsumes(transfer.consumes) }, keyFor(transfer))) return false;
  return (await sender.getTransaction(transfer.txid!, sentRecordOf(transfer))).state === "unknown";
}

/** A final on-chain outcome and, in the same transaction, the fee the chain took, once. False when another worker settled it. */
export async function settleOutgoingTransfer(tx: Tx, deps: Pick<OutgoingDeps, "now">, transfer: TransferRow, { fact, chargedFeeMinor, data }: Settlement): Promise<boolean> {
  const nativeSymbol = findNetwork(transfer.network)?.nativeSymbol ?? "";
  // The receipt's fee where the chain reports one, else the exact or bounded fee fixed at signing.
  const fee = chargedFeeMinor ?? (transfer.feeMinor === null ? 0n : BigInt(transfer.feeMinor.toFixed()));
  const settled = await applyFact(tx, transfer, fact, deps.now(), { ...data, feeMinor: fee.toString() });
  if (!settled) return false; // another worker settled it
  const journals: Journal[] = [];
  if (fee > 0n) journals.push(networkFeeJournal({ transferId: transfer.id, asset: assetKey(nativeSymbol, transfer.network), fee }));
  // A move to cold storage has no purpose row of its own to book it later: its arrival is booked
  // with the status that says so, whichever pass follows it.
  if (transfer.kind === "cold" && settled.status === "confirmed") {
    journals.push(movedToColdJournal({ transferId: transfer.id, asset: assetKey(transfer.currency, transfer.network), amount: BigInt(transfer.amountMinor.toFixed()) }));
  }
  // One posting of both: the accounts they share are locked once, in the ledger's order.
  await postJournals(tx, journals, deps.now());
  return true;
}

/**
 * The only writer of an outgoing transfer's status: the domain decides, the row changes only
 * from the status it was read in (compare-and-set), and resources go back when the decision says.
 * Returns the updated row, or null when the fact did not apply (another worker moved it first).
 */
async function applyFact(db: Db | Tx, transfer: TransferRow, fact: OutgoingFact, now: Date, data: Record<string, unknown> = {}): Promise<TransferRow | null> {
  const decision = decideOutgoingTransfer(transfer.status as OutgoingStatus, fact);
  if (!decision) return null;
  // From the row as it was read, txid included: a fee bump rewrites the txid without changing the
  // status, and a fact about the earlier signing must not land on the new one.
  const { count } = await db.outgoingTransfer.updateMany({
    where: { id: transfer.id, status: transfer.status, txid: transfer.txid },
    data: { ...data, status: decision.status, ...(decision.shouldReleaseResources ? { isReleased: true } : {}), updatedAt: now },
  });
  if (count === 0) return null;
  if (decision.shouldReleaseResources) await db.outgoingOutpoint.deleteMany({ where: { transferId: transfer.id } });
  return db.outgoingTransfer.findUniqueOrThrow({ where: { id: transfer.id } });
}

/**
 * Inside the caller's transaction: calls off the transfer of `reference` while it is only planned
 * (its purpose no longer stands), so no worker ever signs it. Answers its status afterwards —
 * "failed" when it was called off (or had failed before), "replaced" for a dead one, anything
 * else when it was signed first and goes its way — or null when none was planned.
 */
export async function withdrawPlannedTransfer(tx: Tx, reference: string, now: Date, reason: string): Promise<OutgoingStatus | null> {
  const transfer = await tx.outgoingTransfer.findUnique({ where: { reference } });
  if (!transfer) return null;
  // The signer stores its signing only from planned (compare-and-set): one of the two wins.
  const withdrawn = await applyFact(tx, transfer, { kind: "withdrawn" }, now, { lastError: reason.slice(0, 500) });
  if (withdrawn) return withdrawn.status as OutgoingStatus;
  return (await tx.outgoingTransfer.findUniqueOrThrow({ where: { reference } })).status as OutgoingStatus;
}

/** Takes (or renews) the signing lease of an address, in one statement; false while another worker holds it. */
export async function takeLease(deps: Worker, network: string, address: string): Promise<boolean> {
  const now = deps.now();
  const until = new Date(now.getTime() + LEASE_MS);
  const rows = await deps.db.$queryRaw<{ owner: string }[]>`
    INSERT INTO signer_leases (network, address, owner, until) VALUES (${network}, ${address}, ${deps.owner}, ${until})
    ON CONFLICT (network, address) DO UPDATE SET owner = EXCLUDED.owner, until = EXCLUDED.until
    WHERE signer_leases.until <= ${now} OR signer_leases.owner = ${deps.owner}
    RETURNING owner`;
  return rows.length === 1;
}

/** What the database recorded of a signed transfer: how any process finds it on chain again. */
function sentRecordOf(transfer: TransferRow): SentRecord {
  return {
    fromAddress: transfer.fromAddress,
    consumes: parseConsumes(transfer.consumes),
    transfer: { currency: transfer.currency, amountMinor: BigInt(transfer.amountMinor.toFixed()) },
  };
}

function parseConsumes(text: string | null): ConsumedResources {
  return text ? (JSON.parse(text) as ConsumedResources) : {};
}

function errorReason(error: unknown): string {
  return (error instanceof Error ? error.message : "signing failed").slice(0, 500);
}
