import { randomUUID } from "node:crypto";
import { listNetworks } from "@/lib/catalogue";
import { getChainAdapter } from "@/lib/chains/registry";
import type { ChainAdapter, ObservedTransfer } from "@/lib/chains/types";
import { LedgerError } from "@/lib/ledger/post";
import { evaluateInvoice, evaluationDepsOf } from "@/lib/services/invoices/evaluate-invoice";
import { orphanInvoiceTransfers } from "@/lib/services/invoices/orphan-transfers";
import { log } from "@/lib/log";
import type { JobDeps } from "../catalogue";

export interface ScanResult {
  network: string;
  height: number;
  observed: number;
  /** Webhook deliveries recorded by the evaluations (already committed). */
  deliveryIds: string[];
}

/**
 * One pass of a network's watcher: reads transfers to the service's deposit addresses since
 * the durable cursor (and the mempool), records each transfer once (unique network, txid,
 * position), refreshes confirmations from the tip, evaluates the invoices concerned, and moves
 * the cursor. Idempotent: a repeat pass reports nothing twice, and a crash before the cursor
 * moves only means the next pass reads the same blocks again.
 */
export async function scanNetwork(deps: Pick<JobDeps, "db" | "config" | "now">, adapter: ChainAdapter): Promise<ScanResult> {
  const { db } = deps;
  const network = adapter.network;
  const now = deps.now();
  const tip = await adapter.getTip();
  const cursor = await db.chainCursor.findUnique({ where: { network } });
  // A real node's history before the service first looked holds no deposits of its invoices:
  // start at the tip. A sandbox chain is read from its genesis.
  let startHeight = cursor?.height ?? (adapter.source === "rpc" ? Math.max(-1, tip.height - 1) : -1);
  const reorg = await handleReorganisation(deps, adapter, tip.height, now);
  // Read again from below the fork: the orphaned transactions may be mined again in other blocks.
  if (reorg.forkHeight !== null) startHeight = Math.min(startHeight, reorg.forkHeight - 1);
  const candidates = await adapter.scanTransfers({ afterHeight: startHeight });
  // Only transfers to the service's own deposit addresses matter (final invoices included: a late payment is still credited).
  const watched = candidates.length
    ? await db.invoice.findMany({
        where: { network, address: { in: [...new Set(candidates.map((transfer) => transfer.toAddress))] } },
        select: { id: true, address: true, payerCurrency: true },
      })
    : [];
  const invoiceByAddress = new Map(watched.map((invoice) => [invoice.address!, invoice]));
  const observed = candidates.filter((transfer) => invoiceByAddress.has(transfer.toAddress));

  const touched = new Set<string>();
  for (const transfer of observed) {
    const invoice = invoiceByAddress.get(transfer.toAddress)!;
    // Only the invoice's own asset pays it. Another asset sent to the address is recorded,
    // unlinked, for an operator to return: never credited as if it were the invoice's coin.
    const invoiceId = invoice.payerCurrency === transfer.currency ? invoice.id : null;
    if (!invoiceId) log.warn("transfer of another asset to a deposit address; recorded for review", { network, txid: transfer.txid, currency: transfer.currency });
    const key = { network, txid: transfer.txid, position: transfer.position };
    const existing = await db.chainTransfer.findUnique({ where: { network_txid_position: key } });
    if (!existing) {
      await db.chainTransfer.createMany({
        data: [
          {
            id: randomUUID(),
            ...key,
            currency: transfer.currency,
            toAddress: transfer.toAddress,
            fromAddress: transfer.fromAddress,
            amountMinor: transfer.amountMinor.toString(),
            blockHeight: transfer.blockHeight,
            blockHash: transfer.blockHash,
            invoiceId,
            createdAt: now,
            updatedAt: now,
          },
        ],
        skipDuplicates: true, // a concurrent pass recorded it first
      });
    } else if (existing.blockHeight !== transfer.blockHeight || existing.blockHash !== transfer.blockHash || existing.status === "orphaned") {
      // Seen again — in another block after a reorganisation, or mined after the mempool: it counts anew.
      await db.chainTransfer.update({
        where: { id: existing.id },
        data: { blockHeight: transfer.blockHeight, blockHash: transfer.blockHash, ...(existing.status === "orphaned" ? { status: "seen" } : {}), updatedAt: now },
      });
    }
    if (invoiceId) touched.add(invoiceId);
  }

  // Confirmations come from the tip: a transfer in block h has tip − h + 1.
  await db.$executeRaw`
    UPDATE chain_transfers SET confirmations = ${tip.height} - block_height + 1, updated_at = ${now}
    WHERE network = ${network} AND block_height IS NOT NULL AND status <> 'orphaned'
      AND (status = 'seen' OR invoice_id IN (SELECT id FROM invoices WHERE network = ${network} AND NOT is_final))
      AND confirmations <> ${tip.height} - block_height + 1`;
  const waiting = await db.chainTransfer.findMany({
    where: { network, invoiceId: { not: null }, OR: [{ status: "seen" }, { invoice: { isFinal: false } }] },
    select: { invoiceId: true },
    distinct: ["invoiceId"],
  });
  for (const row of waiting) touched.add(row.invoiceId!);

  const dropped = await handleDroppedTransfers(deps, adapter, candidates, now);
  const deliveryIds: string[] = [...dropped];
  let failures = 0;
  for (const invoiceId of touched) {
    // One invoice that cannot be evaluated must not stall the network: the others go on, and
    // the cursor stays put so the next pass tries it again.
    try {
      const result = await db.$transaction((tx) => evaluateInvoice(tx, evaluationDepsOf(deps.config), invoiceId, now));
      deliveryIds.push(...result.deliveryIds);
    } catch (error) {
      failures++;
      log.error("invoice evaluation failed; retried at the next pass", { network, invoiceId, error });
    }
  }
  if (failures > 0) return { network, height: cursor?.height ?? -1, observed: observed.length, deliveryIds: [...reorg.deliveryIds, ...deliveryIds] };
  await db.chainCursor.upsert({
    where: { network },
    create: { network, height: tip.height, blockHash: tip.hash, updatedAt: now },
    update: { height: tip.height, blockHash: tip.hash, updatedAt: now },
  });
  return { network, height: tip.height, observed: observed.length, deliveryIds: [...reorg.deliveryIds, ...deliveryIds] };
}

/** A transaction absent from the mempool this long (evicted, replaced) no longer counts as on its way. */
const DROPPED_AFTER_MS = 10 * 60_000;

/**
 * Mempool transfers the chain stopped reporting (evicted, or replaced with RBF) are orphaned
 * once they have been missing for DROPPED_AFTER_MS, so their invoices do not wait for them
 * forever. Adapters that report no mempool never record unmined transfers.
 */
async function handleDroppedTransfers(deps: Pick<JobDeps, "db" | "config">, adapter: ChainAdapter, reported: ObservedTransfer[], now: Date): Promise<string[]> {
  const stillThere = new Set(reported.map((transfer) => `${transfer.txid}:${transfer.position}`));
  const unmined = await deps.db.chainTransfer.findMany({
    where: { network: adapter.network, status: "seen", blockHeight: null, updatedAt: { lt: new Date(now.getTime() - DROPPED_AFTER_MS) } },
    select: { id: true, txid: true, position: true, invoiceId: true },
  });
  const gone = unmined.filter((transfer) => !stillThere.has(`${transfer.txid}:${transfer.position}`));
  const deliveryIds: string[] = [];
  for (const transfer of gone) {
    if (!transfer.invoiceId) continue;
    const result = await deps.db.$transaction((tx) => orphanInvoiceTransfers(tx, evaluationDepsOf(deps.config), transfer.invoiceId!, [transfer.id], now));
    deliveryIds.push(...result.deliveryIds);
  }
  // Seen again this pass: refresh, so absence is measured from the last sighting.
  const seenIds = unmined.filter((transfer) => stillThere.has(`${transfer.txid}:${transfer.position}`)).map((transfer) => transfer.id);
  if (seenIds.length) await deps.db.chainTransfer.updateMany({ where: { id: { in: seenIds } }, data: { updatedAt: now } });
  return deliveryIds;
}

/** How far back the watcher checks that recorded blocks are still on the chain. */
const REORG_WINDOW_BLOCKS = 500;

/**
 * Compares the blocks holding recent transfers with the chain as it is now. Transfers in blocks
 * that are gone are orphaned, per invoice, with their credits reversed (see
 * orphanInvoiceTransfers). Returns the lowest height that changed, or null.
 */
async function handleReorganisation(deps: Pick<JobDeps, "db" | "config">, adapter: ChainAdapter, tipHeight: number, now: Date) {
  const recent = await deps.db.chainTransfer.findMany({
    where: { network: adapter.network, status: { not: "orphaned" }, blockHeight: { not: null, gte: tipHeight - REORG_WINDOW_BLOCKS } },
    select: { id: true, blockHeight: true, blockHash: true, invoiceId: true },
  });
  const canonical = new Map<number, string | null>();
  for (const height of new Set(recent.map((transfer) => transfer.blockHeight!))) {
    canonical.set(height, height > tipHeight ? null : await adapter.getBlockHash(height));
  }
  const orphaned = recent.filter((transfer) => canonical.get(transfer.blockHeight!) !== transfer.blockHash);
  if (orphaned.length === 0) return { forkHeight: null, deliveryIds: [] as string[] };
  log.warn("reorganisation: transfers orphaned", { network: adapter.network, transfers: orphaned.map((transfer) => transfer.id) });
  const deliveryIds: string[] = [];
  const byInvoice = new Map<string, string[]>();
  for (const transfer of orphaned) if (transfer.invoiceId) byInvoice.set(transfer.invoiceId, [...(byInvoice.get(transfer.invoiceId) ?? []), transfer.id]);
  for (const [invoiceId, transferIds] of byInvoice) {
    try {
      const result = await deps.db.$transaction((tx) => orphanInvoiceTransfers(tx, evaluationDepsOf(deps.config), invoiceId, transferIds, now));
      deliveryIds.push(...result.deliveryIds);
    } catch (error) {
      // Anything but an uncoverable reversal (a deadlock, a lost connection) is retried at the next pass.
      if (!(error instanceof LedgerError || (error instanceof Error && error.name === "LedgerError"))) throw error;
      // The merchant's balance cannot cover the reversal (already paid out): record the orphaning
      // so the watcher moves on, and leave the ledger for an operator to settle.
      log.error("reorganisation reversed a credit that is no longer covered; needs review", { network: adapter.network, invoiceId, error });
      await deps.db.chainTransfer.updateMany({ where: { id: { in: transferIds } }, data: { status: "orphaned", updatedAt: now } });
    }
  }
  return { forkHeight: Math.min(...orphaned.map((transfer) => transfer.blockHeight!)), deliveryIds };
}

/** The watcher job: one pass over every network served here. A failing network does not stop the others. */
export async function scanAllNetworks(deps: Pick<JobDeps, "db" | "config" | "now">): Promise<{ networks: number; deliveryIds: string[] }> {
  const deliveryIds: string[] = [];
  let networks = 0;
  for (const network of listNetworks()) {
    const adapter = getChainAdapter(deps.db, deps.config, network.id);
    if (!adapter) continue;
    networks++;
    try {
      deliveryIds.push(...(await scanNetwork(deps, adapter)).deliveryIds);
    } catch (error) {
      log.warn("chain scan failed; the next pass retries", { network: network.id, error });
    }
  }
  return { networks, deliveryIds };
}

/** The expiry job: every live invoice whose term has passed is evaluated (cancel, wrong_amount). */
export async function expireDueInvoices(deps: Pick<JobDeps, "db" | "config" | "now">, limit = 200): Promise<{ expired: number; deliveryIds: string[] }> {
  const now = deps.now();
  // By status (indexed with expires_at) rather than is_final, so the sweep stays an index scan.
  const due = await deps.db.invoice.findMany({
    // confirm_check waits for its transfer (the watcher evaluates it every pass), so it is not
    // swept: many of them must not crowd out the invoices that really expire.
    where: { status: { in: ["select", "check", "wrong_amount_waiting"] }, expiresAt: { lte: now } },
    select: { id: true },
    take: limit,
    orderBy: { expiresAt: "asc" },
  });
  const deliveryIds: string[] = [];
  let expired = 0;
  for (const { id } of due) {
    const result = await deps.db.$transaction((tx) => evaluateInvoice(tx, evaluationDepsOf(deps.config), id, now));
    if (result.changed) expired++;
    deliveryIds.push(...result.deliveryIds);
  }
  return { expired, deliveryIds };
}
