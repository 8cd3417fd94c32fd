import { randomUUID } from "node:crypto";
import type { Db } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { GatewayConfig } from "@/lib/config/env";
import { findNetwork, findSettlementAsset, type NetworkId } from "@/lib/catalogue";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { addressChainOf } from "@/lib/chains/registry";
import { deriveSigningKey, HOT_WALLET_INDEX } from "@/lib/chains/signing-keys";
import type { ChainError, ChainSender, SigningKey } from "@/lib/chains/types";
import { postJournal } from "@/lib/ledger/post";
import { assetKey, networkFeeJournal } from "@/lib/ledger/postings";
import { log } from "@/lib/log";
import { toMinor } from "@/lib/services/invoices/invoice-view";

export interface SweepDeps {
  db: Db;
  secretBox: SecretBox;
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">;
  now(): Date;
}

/** Families whose token transfers the deposit address must pay for in the native coin. */
const GAS_FOR_TOKENS = new Set(["evm", "tron", "solana", "ton"]);
/** Gas sent for a token sweep: the estimate with room for price moves. */
const GAS_MARGIN_PERCENT = 150n;
const IN_FLIGHT = new Set(["pending", "sending", "sent"]);
/** A transfer left `sending` this long belonged to a worker that died: it is tried again (the chain refuses a double spend). */
const STALE_SENDING_MS = 10 * 60_000;
/** A deposit whose sweep failed this often is left for an operator. */
const MAX_FAILED_SWEEPS = 5;

interface Keys {
  key(index: number): SigningKey;
  hot: SigningKey;
}

async function keysFor(deps: SweepDeps, network: NetworkId): Promise<Keys> {
  const material = await loadKeyMaterial(deps.db, deps.secretBox);
  const chain = addressChainOf(deps.config, network);
  const seed = material.openSeed();
  return { key: (index) => deriveSigningKey(seed, network, index, chain), hot: deriveSigningKey(seed, network, HOT_WALLET_INDEX, chain) };
}

/**
 * Moves credited deposits from their invoice addresses to the network's hot wallet, as one
 * idempotent pass over durable state: plans the transfers that are due (each under a unique
 * reference, so two workers plan once), sends what is planned, and follows what was sent to
 * confirmation, recording each network fee in the ledger. A token sweep on a family where the
 * address pays gas in the native coin first gets that gas from the hot wallet.
 */
export async function sweepNetwork(deps: SweepDeps, network: NetworkId, sender: ChainSender): Promise<{ planned: number; sent: number; confirmed: number }> {
  const keys = await keysFor(deps, network);
  const planned = await planSweeps(deps, network, sender, keys);
  const sent = await sendPlanned(deps, network, sender, keys);
  const confirmed = await followSent(deps, network, sender);
  return { planned, sent, confirmed };
}

async function planSweeps(deps: SweepDeps, network: NetworkId, sender: ChainSender, keys: Keys): Promise<number> {
  const family = findNetwork(network)?.family;
  const nativeSymbol = findNetwork(network)?.nativeSymbol ?? "";
  const invoices = await deps.db.invoice.findMany({
    where: { network, isFinal: true, settledMinor: { gt: 0 }, address: { not: null }, addressIndex: { not: null } },
    select: { id: true, address: true, addressIndex: true, payerCurrency: true },
  });
  let planned = 0;
  for (const invoice of invoices) {
    // One deposit that cannot be planned now (a node error) does not hold up the others.
    try {
      planned += await planInvoiceSweep(deps, network, sender, keys, invoice, family, nativeSymbol);
    } catch (error) {
      log.warn("sweep not planned; the next pass retries", { network, invoiceId: invoice.id, error });
    }
  }
  return planned;
}

async function planInvoiceSweep(
  deps: SweepDeps,
  network: NetworkId,
  sender: ChainSender,
  keys: Keys,
  invoice: { id: string; address: string | null; addressIndex: number | null; payerCurrency: string | null },
  family: string | undefined,
  nativeSymbol: string,
): Promise<number> {
  const currency = invoice.payerCurrency!;
  const asset = findSettlementAsset(currency, network);
  if (!asset) return 0;
  const outgoing = await deps.db.outgoingTransfer.findMany({ where: { network, fromAddress: invoice.address!, kind: "sweep" } });
  if (outgoing.some((transfer) => IN_FLIGHT.has(transfer.status))) return 0;
  if (outgoing.filter((transfer) => transfer.status === "failed").length >= MAX_FAILED_SWEEPS) return 0;
  const credited = await deps.db.chainTransfer.aggregate({ where: { invoiceId: invoice.id, status: "confirmed", currency }, _sum: { amountMinor: true } });
  const swept = outgoing.filter((transfer) => transfer.status === "confirmed").reduce((sum, transfer) => sum + toMinor(transfer.coveredMinor), 0n);
  const remaining = toMinor(credited._sum.amountMinor) - swept;
  if (remaining <= 0n) return 0;
  const from = keys.key(invoice.addressIndex!);
  const transfer = { currency, toAddress: keys.hot.address, amountMinor: remaining };
  // A deposit with no native coin yet may not be able to simulate its own transfer (TON): the
  // same transfer from the hot wallet costs the same and sizes the gas.
  const fee = (await sender.estimateFee(from, transfer).catch(() => sender.estimateFee(keys.hot, transfer))).feeMinor;
  const attempt = outgoing.length;
  const sweep = (amountMinor: bigint) =>
    plan(deps, { kind: "sweep", reference: `sweep:${invoice.id}:${attempt}`, network, currency, from, fromIndex: invoice.addressIndex!, to: keys.hot.address, amountMinor, coveredMinor: remaining });
  if (asset.kind === "native") {
    // The coin pays its own fee: what is left after it (with a margin, as the fee may rise
    // before sending) goes to the hot wallet; dust stays.
    const reserve = (fee * GAS_MARGIN_PERCENT) / 100n;
    return remaining > reserve ? sweep(remaining - reserve) : 0;
  }
  const isSandbox = !deps.config.rpcEndpoints[network];
  if (family && GAS_FOR_TOKENS.has(family) && !isSandbox) {
    const gasReference = `gas:${invoice.id}:${attempt}`;
    const gas = await deps.db.outgoingTransfer.findUnique({ where: { reference: gasReference } });
    if (!gas) {
      const amount = (fee * GAS_MARGIN_PERCENT) / 100n;
      return plan(deps, { kind: "gas", reference: gasReference, network, currency: nativeSymbol, from: keys.hot, fromIndex: HOT_WALLET_INDEX, to: from.address, amountMinor: amount, coveredMinor: amount });
    }
    if (gas.status !== "confirmed") return 0; // the token moves once its gas is there
  }
  return sweep(remaining);
}

async function plan(
  deps: SweepDeps,
  transfer: { kind: string; reference: string; network: string; currency: string; from: SigningKey; fromIndex: number; to: string; amountMinor: bigint; coveredMinor: bigint },
): Promise<number> {
  const now = deps.now();
  const { count } = await deps.db.outgoingTransfer.createMany({
    data: [
      {
        id: randomUUID(),
        kind: transfer.kind,
        reference: transfer.reference,
        network: transfer.network,
        currency: transfer.currency,
        fromAddress: transfer.from.address,
        fromIndex: transfer.fromIndex,
        toAddress: transfer.to,
        amountMinor: transfer.amountMinor.toString(),
        coveredMinor: transfer.coveredMinor.toString(),
        createdAt: now,
        updatedAt: now,
      },
    ],
    skipDuplicates: true,
  });
  return count;
}

async function sendPlanned(deps: SweepDeps, network: NetworkId, sender: ChainSender, keys: Keys): Promise<number> {
  await deps.db.outgoingTransfer.updateMany({
    where: { network, status: "sending", updatedAt: { lt: new Date(deps.now().getTime() - STALE_SENDING_MS) } },
    data: { status: "pending" },
  });
  const pending = await deps.db.outgoingTransfer.findMany({ where: { network, status: "pending" }, orderBy: { createdAt: "asc" } });
  let sent = 0;
  for (const transfer of pending) {
    // Claim it: of two workers, one sends.
    const { count } = await deps.db.outgoingTransfer.updateMany({ where: { id: transfer.id, status: "pending" }, data: { status: "sending", attempts: { increment: 1 }, updatedAt: deps.now() } });
    if (count === 0) continue;
    const from = transfer.fromIndex === HOT_WALLET_INDEX ? keys.hot : keys.key(transfer.fromIndex);
    const outgoing = { currency: transfer.currency, toAddress: transfer.toAddress, amountMinor: toMinor(transfer.amountMinor) };
    try {
      const fee = await sender.estimateFee(from, outgoing);
      const { txid } = await sender.send(from, outgoing);
      await deps.db.outgoingTransfer.update({ where: { id: transfer.id }, data: { status: "sent", txid, feeMinor: fee.feeMinor.toString(), lastError: "", updatedAt: deps.now() } });
      sent++;
    } catch (error) {
      // By field, not class: the error may come from another copy of the chain modules.
      const isRetryable = (error as Partial<ChainError>).retryable ?? true;
      const reason = (error instanceof Error ? error.message : "send failed").slice(0, 500);
      await deps.db.outgoingTransfer.update({ where: { id: transfer.id }, data: { status: isRetryable ? "pending" : "failed", lastError: reason, updatedAt: deps.now() } });
      if (!isRetryable) log.error("sweep transfer refused; the deposit stays where it is", { network, reference: transfer.reference, error: reason });
    }
  }
  return sent;
}

async function followSent(deps: SweepDeps, network: NetworkId, sender: ChainSender): Promise<number> {
  const sent = await deps.db.outgoingTransfer.findMany({ where: { network, status: "sent" } });
  const nativeSymbol = findNetwork(network)?.nativeSymbol ?? "";
  let confirmed = 0;
  for (const transfer of sent) {
    const state = await sender.getTransaction(transfer.txid!);
    if (state.state === "confirmed" && state.confirmations >= 1) {
      await deps.db.$transaction(async (tx) => {
        const { count } = await tx.outgoingTransfer.updateMany({ where: { id: transfer.id, status: "sent" }, data: { status: "confirmed", updatedAt: deps.now() } });
        // The fee left the service's custody: one balanced journal in the same transaction.
        if (count === 1 && transfer.feeMinor !== null && toMinor(transfer.feeMinor) > 0n) {
          await postJournal(tx, networkFeeJournal({ transferId: transfer.id, asset: assetKey(nativeSymbol, network), fee: toMinor(transfer.feeMinor) }), deps.now());
        }
      });
      confirmed++;
    } else if (state.state === "failed") {
      // Reported, not lost: the funds never left; the next pass plans a new attempt.
      await deps.db.outgoingTransfer.update({ where: { id: transfer.id }, data: { status: "failed", lastError: "failed on chain", updatedAt: deps.now() } });
      log.error("sweep transfer failed on chain", { network, reference: transfer.reference, txid: transfer.txid });
    }
  }
  return confirmed;
}
