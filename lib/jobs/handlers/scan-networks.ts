import { randomUUID } from "node:crypto";
import { listNetworks } from "@/lib/catalogue";
import { getChainAdapter } from "@/lib/chains/registry";
import type { ChainAdapter, ObservedTransfer } from "@/lib/chains/types";
import { getKeyTree } from "@/lib/chains/addresses/derivation-paths";
import type { NetworkId } from "@/lib/catalogue";
import { resolveInvoiceReviews, setInvoiceAside } from "@/lib/services/invoices/invoice-reviews";
import { evaluateInvoice, evaluationDepsOf } from "@/lib/services/deposits/evaluate-invoice";
import { orphanInvoiceTransfers, type JudgedTransfer } from "@/lib/services/deposits/orphan-transfers";
import { creditWalletDeposits } from "@/lib/services/deposits/credit-wallet-deposits";
import { orphanWalletDeposits } from "@/lib/services/deposits/orphan-wallet-deposits";
import { log } from "@/lib/log";
import type { GatewayConfig } from "@/lib/config/env";
import type { Db } from "@/lib/db/client";
import { withTransaction } from "@/lib/db/transaction";

/** What a watcher pass needs. */
export interface WatcherDeps {
  db: Db;
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints" | "maturityHoldSeconds" | "splitsEnabled" | "email">;
  now(): Date;
}

export interface ScanResult {
  network: string;
  height: number;
  observed: number;
}

/**
 * One pass of a network's watcher: reads transfers to the service's deposit addresses since
 * the durable cursor (and the mempool), records each transfer once (unique network, txid,
 * position), refreshes confirmations from the tip, evaluates the invoices concerned, and moves
 * the cursor. Idempotent: a repeat pass reports nothing twice, and a crash before the cursor
 * moves only means the next pass reads the same blocks again.
 */
export async function scanNetwork(deps: WatcherDeps, adapter: ChainAdapter): Promise<ScanResult> {
  // One backend for the whole pass: its tip, its blocks and its hashes tell one story.
  return adapter.withOneBackend ? adapter.withOneBackend(() => scanOnce(deps, adapter)) : scanOnce(deps, adapter);
}

async function scanOnce(deps: WatcherDeps, adapter: ChainAdapter): Promise<ScanResult> {
  const { db } = deps;
  const network = adapter.network;
  const now = deps.now();
  // Until this pass completes, the network is not known to be fully handled at any tip.
  cleanTipsOf(db).delete(network);
  const tip = await adapter.getTip();
  const cursor = await db.chainCursor.findUnique({ where: { network } });
  let startHeight = await readStartHeight(adapter, cursor, tip.height);
  const reorg = await handleReorganisation(deps, adapter, tip.height, now);
  // Read again from below the fork: the orphaned transactions may be mined again in other blocks.
  if (reorg.forkHeight !== null) startHeight = Math.min(startHeight, reorg.forkHeight - 1);
  const reported = await adapter.scanTransfers({ afterHeight: startHeight });
  // The service's own transactions (sweeps, gas) are never payments, whatever they pay to.
  const ownTxids = reported.length
    ? new Set(
        (await db.outgoingTransfer.findMany({ where: { network, txid: { in: [...new Set(reported.map((transfer) => transfer.txid))] } }, select: { txid: true } })).map(
          (row) => row.txid,
        ),
      )
    : new Set<string | null>();
  const candidates = reported.filter((transfer) => !ownTxids.has(transfer.txid));
  // Only transfers to the service's own deposit addresses matter (final invoices included: a late
  // payment is still credited). Addresses are unique per key tree, so an address of an invoice or
  // a static wallet on another network of the same tree (another EVM network) is a payment on the
  // wrong network.
  const ownerByAddress = await findDepositOwners(db, network, candidates);
  const observed = candidates.filter((transfer) => ownerByAddress.has(transfer.toAddress));

  const touched = new Set<string>();
  const touchedWallets = new Set<string>();
  for (const transfer of observed) {
    const owner = ownerByAddress.get(transfer.toAddress)!;
    // Only the owner's own asset on its own network pays it. Anything else sent to the address
    // is recorded, unlinked, for an operator to resolve: never credited to anyone.
    const reviewReason = owner.network !== network ? "wrong_network" : owner.currency !== transfer.currency ? "other_asset" : null;
    const invoiceId = reviewReason || owner.kind !== "invoice" ? null : owner.id;
    const staticWalletId = reviewReason || owner.kind !== "wallet" ? null : owner.id;
    if (reviewReason) log.warn("transfer to a deposit address that pays nothing; recorded for review", { network, txid: transfer.txid, currency: transfer.currency, reviewReason, [owner.kind === "invoice" ? "invoiceId" : "staticWalletId"]: owner.id });
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
            staticWalletId,
            reviewReason,
            // When it was recorded, not when the pass began: a static wallet blocked meanwhile holds what arrives after.
            createdAt: deps.now(),
            updatedAt: now,
          },
        ],
        skipDuplicates: true, // a concurrent pass recorded it first
      });
    } else if (existing.blockHeight !== transfer.blockHeight || existing.blockHash !== transfer.blockHash || existing.status === "orphaned") {
      // Seen again — in another block after a reorganisation, or mined after the mempool: it counts
      // anew. One statement on the row's latest version: a pass orphaning it concurrently (which
      // holds the row's lock) either finishes first, and this makes it seen again, or finds the new hash.
      await db.$executeRaw`
        UPDATE chain_transfers SET block_height = ${transfer.blockHeight}, block_hash = ${transfer.blockHash},
          status = CASE WHEN status = 'orphaned' THEN 'seen' ELSE status END, updated_at = ${now}
        WHERE id = ${existing.id}::uuid`;
    }
    if (invoiceId) touched.add(invoiceId);
    if (staticWalletId) touchedWallets.add(staticWalletId);
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
  const waitingDeposits = await db.chainTransfer.findMany({ where: { network, staticWalletId: { not: null }, status: "seen" }, select: { staticWalletId: true }, distinct: ["staticWalletId"] });
  for (const row of waitingDeposits) touchedWallets.add(row.staticWalletId!);

  await handleDroppedTransfers(deps, adapter, candidates, now);
  const evaluated: string[] = [];
  for (const invoiceId of touched) {
    // One invoice that cannot be evaluated must not stall the network: it is set aside for
    // review, the others go on and the cursor moves. Its transfers stay as recorded, so every
    // later pass evaluates it again.
    try {
      await withTransaction(db, (tx) => evaluateInvoice(tx, evaluationDepsOf(deps.config), invoiceId, now));
      evaluated.push(invoiceId);
    } catch (error) {
      await setInvoiceAside(db, { invoiceId, network, error }, now);
    }
  }
  await resolveInvoiceReviews(db, evaluated, now);
  for (const walletId of touchedWallets) {
    // As for invoices: one wallet that cannot be credited now does not stall the network; its
    // deposits stay `seen`, so every later pass tries again.
    try {
      await withTransaction(db, (tx) => creditWalletDeposits(tx, evaluationDepsOf(deps.config), walletId, now));
    } catch (error) {
      log.error("static wallet deposits not credited; the next pass retries", { network, staticWalletId: walletId, error });
    }
  }
  await db.chainCursor.upsert({
    where: { network },
    create: { network, height: tip.height, blockHash: tip.hash, updatedAt: now },
    update: { height: tip.height, blockHash: tip.hash, updatedAt: now },
  });
  // A pass that orphaned transfers may have left some for the next pass; one that found the chain
  // as recorded has done everything a later pass at this tip could do, but for waiting transfers.
  if (reorg.forkHeight === null) cleanTipsOf(db).set(network, tip.hash);
  return { network, height: tip.height, observed: observed.length };
}

/** Per database: each network's tip (block hash) at which this process's last pass completed cleanly. */
const cleanTipsByDb = new WeakMap<Db, Map<string, string>>();

function cleanTipsOf(db: Db): Map<string, string> {
  let tips = cleanTipsByDb.get(db);
  if (!tips) cleanTipsByDb.set(db, (tips = new Map()));
  return tips;
}

/**
 * Whether a pass over this network now would change nothing: a pass of this process completed
 * cleanly at the tip its cursor holds, the tip is still that block (the same hash commits to the
 * same history, so no reorganisation since), nothing new is reported (no block, nothing in the
 * mempool), and no recorded transfer waits for a time-based decision (`isWaiting`: confirmations
 * of an open invoice, a maturity hold, a dropped-transaction deadline, a retry of a set-aside one).
 */
async function isUnchangedSinceCleanPass(
  db: Db,
  adapter: ChainAdapter,
  cursor: { height: number; blockHash: string } | undefined,
  isWaiting: boolean,
): Promise<boolean> {
  if (isWaiting || !cursor || cursor.blockHash === "" || cleanTipsOf(db).get(adapter.network) !== cursor.blockHash) return false;
  const tip = await adapter.getTip();
  if (tip.height !== cursor.height || tip.hash !== cursor.blockHash) return false;
  return (await adapter.scanTransfers({ afterHeight: tip.height })).length === 0;
}

/** Networks with a recorded transfer a pass must look at again: unconfirmed, or paying an open invoice. */
async function findNetworksWithWaitingTransfers(db: Db): Promise<Set<string>> {
  const rows = await db.$queryRaw<{ network: string }[]>`
    SELECT network FROM chain_transfers WHERE status = 'seen'
    UNION
    SELECT transfer.network FROM chain_transfers transfer JOIN invoices invoice ON invoice.id = transfer.invoice_id WHERE NOT invoice.is_final`;
  return new Set(rows.map((row) => row.network));
}

/**
 * The height after which this pass reads. A network read for the first time starts just below
 * its tip on a real node (the cursor is also created when its first deposit address is handed
 * out, see ensureWatchCursor, so no deposit falls before it), and at genesis on a sandbox chain.
 * A cursor whose block is no longer on the chain (a node replaced by a fresh chain, or a
 * reorganisation deeper than the cursor) is stepped back by the reorganisation window.
 */
async function readStartHeight(adapter: ChainAdapter, cursor: { height: number; blockHash: string } | null, tipHeight: number): Promise<number> {
  if (!cursor) return adapter.source === "rpc" ? Math.max(-1, tipHeight - 1) : -1;
  if (cursor.height < 0 || cursor.blockHash === "") return cursor.height;
  const hashThere = cursor.height > tipHeight ? null : await adapter.getBlockHash(cursor.height);
  if (hashThere === cursor.blockHash) return cursor.height;
  log.warn("the watcher's last block is no longer on the chain; reading again from further back", { network: adapter.network, height: cursor.height });
  return Math.max(-1, Math.min(cursor.height, tipHeight) - REORG_WINDOW_BLOCKS);
}

/** Whose deposit address it is: an invoice's or a static wallet's, with the asset it takes (null: none chosen yet). */
interface DepositOwner {
  kind: "invoice" | "wallet";
  id: string;
  network: string;
  currency: string | null;
}

/** The invoices and static wallets of the network's key tree that own the reported addresses. */
async function findDepositOwners(db: Db, network: string, transfers: readonly ObservedTransfer[]): Promise<Map<string, DepositOwner>> {
  if (transfers.length === 0) return new Map();
  const where = { network: { in: networksOfKeyTree(network) }, address: { in: [...new Set(transfers.map((transfer) => transfer.toAddress))] } };
  const invoices = await db.invoice.findMany({ where, select: { id: true, address: true, payerCurrency: true, network: true } });
  const wallets = await db.staticWallet.findMany({ where, select: { id: true, address: true, currency: true, network: true } });
  const owners: (DepositOwner & { address: string })[] = [
    ...invoices.map((invoice) => ({ kind: "invoice" as const, id: invoice.id, address: invoice.address!, network: invoice.network!, currency: invoice.payerCurrency })),
    ...wallets.map((wallet) => ({ kind: "wallet" as const, ...wallet })),
  ];
  // An address handed out on two EVM networks before counters were shared: this network's owner wins.
  return new Map([...owners.filter((owner) => owner.network !== network), ...owners.filter((owner) => owner.network === network)].map((owner) => [owner.address, owner]));
}

function networksOfKeyTree(network: string): string[] {
  const tree = getKeyTree(network as NetworkId);
  return listNetworks()
    .map((candidate) => candidate.id)
    .filter((candidate) => getKeyTree(candidate) === tree);
}

/** A transaction absent from the mempool this long (evicted, replaced) no longer counts as on its way. */
const DROPPED_AFTER_MS = 10 * 60_000;

/**
 * Mempool transfers the chain stopped reporting (evicted, or replaced with RBF) are orphaned
 * once they have been missing for DROPPED_AFTER_MS, so their invoices do not wait for them
 * forever. Adapters that report no mempool never record unmined transfers.
 */
async function handleDroppedTransfers(deps: Pick<WatcherDeps, "db" | "config">, adapter: ChainAdapter, reported: ObservedTransfer[], now: Date): Promise<void> {
  const stillThere = new Set(reported.map((transfer) => `${transfer.txid}:${transfer.position}`));
  const unmined = await deps.db.chainTransfer.findMany({
    where: { network: adapter.network, status: "seen", blockHeight: null, updatedAt: { lt: new Date(now.getTime() - DROPPED_AFTER_MS) } },
    select: { id: true, txid: true, position: true, blockHash: true, invoiceId: true, staticWalletId: true },
  });
  const gone = unmined.filter((transfer) => !stillThere.has(`${transfer.txid}:${transfer.position}`));
  for (const transfer of gone) {
    if (transfer.invoiceId) await withTransaction(deps.db, (tx) => orphanInvoiceTransfers(tx, evaluationDepsOf(deps.config), transfer.invoiceId!, [transfer], now));
    else if (transfer.staticWalletId) await withTransaction(deps.db, (tx) => orphanWalletDeposits(tx, transfer.staticWalletId!, [transfer], now));
  }
  // Seen again this pass: refresh, so absence is measured from the last sighting.
  const seenIds = unmined.filter((transfer) => stillThere.has(`${transfer.txid}:${transfer.position}`)).map((transfer) => transfer.id);
  if (seenIds.length) await deps.db.chainTransfer.updateMany({ where: { id: { in: seenIds } }, data: { updatedAt: now } });
}

/** How far back the watcher checks that recorded blocks are still on the chain. */
const REORG_WINDOW_BLOCKS = 500;

/**
 * Compares the blocks holding recent transfers with the chain as it is now. Transfers in blocks
 * that are gone are orphaned, per invoice, with their credits reversed (see
 * orphanInvoiceTransfers). Returns the lowest height that changed, or null.
 */
async function handleReorganisation(deps: Pick<WatcherDeps, "db" | "config">, adapter: ChainAdapter, tipHeight: number, now: Date) {
  const recent = await deps.db.chainTransfer.findMany({
    where: { network: adapter.network, status: { not: "orphaned" }, blockHeight: { not: null, gte: tipHeight - REORG_WINDOW_BLOCKS } },
    select: { id: true, blockHeight: true, blockHash: true, invoiceId: true, staticWalletId: true },
  });
  const canonical = new Map<number, string | null>();
  for (const height of new Set(recent.map((transfer) => transfer.blockHeight!))) {
    canonical.set(height, height > tipHeight ? null : await adapter.getBlockHash(height));
  }
  const orphaned = recent.filter((transfer) => canonical.get(transfer.blockHeight!) !== transfer.blockHash);
  if (orphaned.length === 0) return { forkHeight: null };
  log.warn("reorganisation: transfers orphaned", { network: adapter.network, transfers: orphaned.map((transfer) => transfer.id) });
  const byInvoice = new Map<string, JudgedTransfer[]>();
  const byWallet = new Map<string, JudgedTransfer[]>();
  for (const transfer of orphaned) {
    if (transfer.invoiceId) byInvoice.set(transfer.invoiceId, [...(byInvoice.get(transfer.invoiceId) ?? []), transfer]);
    if (transfer.staticWalletId) byWallet.set(transfer.staticWalletId, [...(byWallet.get(transfer.staticWalletId) ?? []), transfer]);
  }
  // A wallet that cannot be reversed now (a lost connection) is found with the same orphans next pass.
  for (const [walletId, judged] of byWallet) {
    try {
      await withTransaction(deps.db, (tx) => orphanWalletDeposits(tx, walletId, judged, now));
    } catch (error) {
      log.error("static wallet deposits not reversed; the next pass retries", { network: adapter.network, staticWalletId: walletId, error });
    }
  }
  for (const [invoiceId, judged] of byInvoice) {
    // A reversal is always posted (a shortfall becomes debt); anything else that stops it (a lost
    // connection) sets the invoice aside, and the next pass finds the same orphans again.
    try {
      await withTransaction(deps.db, (tx) => orphanInvoiceTransfers(tx, evaluationDepsOf(deps.config), invoiceId, judged, now));
    } catch (error) {
      await setInvoiceAside(deps.db, { invoiceId, network: adapter.network, error }, now);
    }
  }
  return { forkHeight: Math.min(...orphaned.map((transfer) => transfer.blockHeight!)) };
}

/**
 * The watcher job: one pass over every network served here. A failing network does not stop the
 * others. A network unchanged since this process's last clean pass costs two questions to its
 * chain (tip, new transfers); its cursor's time is still renewed, as the sign of a successful scan.
 */
export async function scanAllNetworks(deps: WatcherDeps): Promise<{ networks: number; unchanged: string[] }> {
  const [cursors, waiting] = await Promise.all([
    deps.db.chainCursor.findMany({ select: { network: true, height: true, blockHash: true } }),
    findNetworksWithWaitingTransfers(deps.db),
  ]);
  const cursorOf = new Map(cursors.map((cursor) => [cursor.network, cursor]));
  let networks = 0;
  const unchanged: string[] = [];
  for (const network of listNetworks()) {
    const adapter = getChainAdapter(deps.db, deps.config, network.id);
    if (!adapter) continue;
    networks++;
    try {
      if (await isUnchangedSinceCleanPass(deps.db, adapter, cursorOf.get(network.id), waiting.has(network.id))) unchanged.push(network.id);
      else await scanNetwork(deps, adapter);
    } catch (error) {
      log.warn("chain scan failed; the next pass retries", { network: network.id, error });
    }
  }
  if (unchanged.length) await deps.db.chainCursor.updateMany({ where: { network: { in: unchanged } }, data: { updatedAt: deps.now() } });
  return { networks, unchanged };
}
