import type { Invoice, Prisma } from "@/generated/prisma/client";
import type { NetworkId } from "@/lib/catalogue";
import type { Db, Tx } from "@/lib/db/client";
import { allocateDepositAddress, allocateDepositAddresses, type AllocatedAddress } from "@/lib/chains/allocate-address";
import { loadKeyMaterial, type KeyMaterial } from "@/lib/chains/key-material";
import { addressChainOf } from "@/lib/chains/registry";
import type { AppDeps } from "@/lib/deps/app-deps";
import type { TxDeps, UnitOfWork } from "@/lib/deps/unit-of-work";
import { ensureWatchCursor } from "@/lib/chains/ensure-watch-cursor";
import {
  pricedSymbols,
  quoteNewInvoice,
  readMerchantInvoiceTerms,
  validateCreateRequest,
  type CreateInvoiceInput,
  type NewInvoiceTerms,
} from "./create-invoice";
import { insertInvoices } from "./insert-invoices";
import { fetchPricesOrThrow } from "./pricing";

/** One invoice to create under a fixed id (a batch element's, which may repeat itself after a crash). */
export interface BulkInvoiceRequest {
  invoiceId: string;
  input: CreateInvoiceInput;
}

/** The invoice an element answers (created now, or found again), or why it was refused. */
export type BulkInvoiceOutcome = { invoice: Invoice } | { error: unknown };

export interface BulkInvoices {
  merchantId: string;
  requests: BulkInvoiceRequest[];
}

/** Quotes and addresses, fixed before the transaction. */
interface BulkInvoicePlan extends BulkInvoices {
  now: Date;
  quoted: ({ terms: NewInvoiceTerms } | { error: unknown })[];
  ids: string[];
  orderIds: string[];
  keys: KeyMaterial | null;
  addressOf: Map<number, AllocatedAddress>;
}

/**
 * Creates many invoices as createInvoice creates each, with the same checks, codes and order_id
 * rule, but with a few statements for all of them: one counter move per network, one INSERT of
 * the invoices, in one transaction its entry point opens (and records the outcomes in).
 * Requests are taken in order: a repeated order_id answers the invoice its first request made.
 * Not for is_refresh (a revival locks and re-quotes one invoice at a time: createInvoice).
 */
export const createInvoicesInBulk: UnitOfWork<BulkInvoices, BulkInvoicePlan, BulkInvoiceOutcome[]> = {
  prepare: quoteAndAllocate,
  execute: insertQuotedInvoices,
};

async function quoteAndAllocate(deps: AppDeps, { merchantId, requests }: BulkInvoices): Promise<BulkInvoicePlan> {
  const now = deps.now();
  const merchant = await readMerchantInvoiceTerms(deps.db, merchantId);
  const quoted = await Promise.all(
    requests.map(async ({ input }): Promise<{ terms: NewInvoiceTerms } | { error: unknown }> => {
      try {
        if (input.is_refresh) throw new Error("createInvoicesInBulk does not revive invoices");
        const request = await validateCreateRequest(deps, input);
        // spec: POST /v1/payment — without a quote the invoice is not created (invoice.fee_quote_failed).
        const prices = await fetchPricesOrThrow(deps.rates, pricedSymbols(request), "invoice.fee_quote_failed");
        return { terms: quoteNewInvoice(deps, input, request, merchant, prices, now) };
      } catch (error) {
        return { error };
      }
    }),
  );

  // As createInvoice does, addresses are taken before the transaction, and only for requests that
  // are not already answered by an invoice: by their own id, or live under their order_id.
  const ids = requests.map((request) => request.invoiceId);
  const orderIds = [...new Set(requests.flatMap((request) => (request.input.order_id === undefined ? [] : [request.input.order_id])))];
  const [existingBefore, liveBefore] = await Promise.all([findInvoicesByIds(deps.db, ids), findLiveInvoicesOfOrders(deps.db, merchantId, orderIds, now)]);
  const needsAddress = new Map<NetworkId, number[]>();
  const claimedOrders = new Set<string>();
  quoted.forEach((entry, position) => {
    const { invoiceId, input } = requests[position];
    if (!("terms" in entry) || existingBefore.has(invoiceId)) return;
    if (input.order_id !== undefined) {
      if (liveBefore.has(input.order_id) || claimedOrders.has(input.order_id)) return;
      claimedOrders.add(input.order_id);
    }
    const network = entry.terms.addressNetwork;
    if (network) needsAddress.set(network, [...(needsAddress.get(network) ?? []), position]);
  });
  const keys = quoted.some((entry) => "terms" in entry && entry.terms.addressNetwork) ? await loadKeyMaterial(deps.db, deps.secretBox) : null;
  const addressOf = new Map<number, AllocatedAddress>();
  for (const [network, positions] of needsAddress) {
    // Only a network served by a real node has a watch cursor to set up before its first address.
    if (deps.config.rpcEndpoints[network]) await ensureWatchCursor(deps, network, now);
    const allocated = await allocateDepositAddresses(deps.db, keys!, network, positions.length, addressChainOf(deps.config, network));
    positions.forEach((position, offset) => addressOf.set(position, allocated[offset]));
  }
  return { merchantId, requests, now, quoted, ids, orderIds, keys, addressOf };
}

async function insertQuotedInvoices(tx: Tx, deps: TxDeps, { merchantId, requests, now, quoted, ids, orderIds, keys, addressOf }: BulkInvoicePlan): Promise<BulkInvoiceOutcome[]> {
  const existing = await findInvoicesByIds(tx, ids);
  if (orderIds.length > 0) {
    // spec: POST /v1/payment rule 2 — each order's slot row serialises its check-and-create, as
    // for a single create; taken in one order so two bulk creates cannot deadlock.
    await tx.$executeRaw`
      INSERT INTO invoice_order_slots (merchant_id, order_id)
      SELECT ${merchantId}::uuid, order_id FROM unnest(${orderIds}::text[]) AS v(order_id)
      ON CONFLICT DO NOTHING`;
    await tx.$queryRaw`
      SELECT order_id FROM invoice_order_slots
      WHERE merchant_id = ${merchantId}::uuid AND order_id = ANY(${orderIds}::text[])
      ORDER BY order_id FOR UPDATE`;
  }
  const live = await findLiveInvoicesOfOrders(tx, merchantId, orderIds, now);

  const rows: Prisma.InvoiceCreateManyInput[] = [];
  /** Per position: the answering invoice, the row it creates, or its refusal. */
  const plan: ({ invoice: Invoice } | { row: number } | { error: unknown })[] = [];
  const creatorOfOrder = new Map<string, number>();
  for (const [position, entry] of quoted.entries()) {
    const { invoiceId, input } = requests[position];
    const found = existing.get(invoiceId);
    if (found) {
      plan.push({ invoice: found });
      continue;
    }
    if (!("terms" in entry)) {
      plan.push({ error: entry.error });
      continue;
    }
    const orderId = input.order_id;
    if (orderId !== undefined) {
      const liveInvoice = live.get(orderId);
      if (liveInvoice) {
        plan.push({ invoice: liveInvoice });
        continue;
      }
      const creator = creatorOfOrder.get(orderId);
      if (creator !== undefined) {
        plan.push({ row: creator });
        continue;
      }
    }
    const network = entry.terms.addressNetwork;
    // An order answered by a live invoice before the lock, and no longer now, takes its address here.
    const allocated = network ? (addressOf.get(position) ?? (await allocateDepositAddress(tx, keys!, network, addressChainOf(deps.config, network)))) : null;
    if (orderId !== undefined) creatorOfOrder.set(orderId, rows.length);
    plan.push({ row: rows.length });
    rows.push({
      ...entry.terms.columns,
      id: invoiceId,
      merchantId,
      paymentLinkId: null,
      orderId: orderId ?? null,
      address: allocated?.address ?? null,
      addressIndex: allocated?.index ?? null,
    });
  }

  const created = await insertInvoices(tx, rows);
  const createdById = new Map(created.map((invoice) => [invoice.id, invoice]));
  const slotUpdates = rows.filter((row) => row.orderId !== null && row.orderId !== undefined);
  if (slotUpdates.length > 0) {
    await tx.$executeRaw`
      UPDATE invoice_order_slots s SET invoice_id = v.invoice_id
      FROM unnest(${slotUpdates.map((row) => row.orderId!)}::text[], ${slotUpdates.map((row) => row.id)}::uuid[]) AS v(order_id, invoice_id)
      WHERE s.merchant_id = ${merchantId}::uuid AND s.order_id = v.order_id`;
  }
  return plan.map((step): BulkInvoiceOutcome => ("row" in step ? { invoice: createdById.get(rows[step.row].id)! } : step));
}

async function findInvoicesByIds(db: Db | Tx, ids: string[]): Promise<Map<string, Invoice>> {
  const found = await db.invoice.findMany({ where: { id: { in: ids } } });
  return new Map(found.map((invoice) => [invoice.id, invoice]));
}

/** The newest live (not final, not expired) invoice of each order, as createInvoice finds one. */
async function findLiveInvoicesOfOrders(db: Db | Tx, merchantId: string, orderIds: string[], now: Date): Promise<Map<string, Invoice>> {
  if (orderIds.length === 0) return new Map();
  const found = await db.invoice.findMany({ where: { merchantId, orderId: { in: orderIds }, isFinal: false, expiresAt: { gt: now } }, orderBy: { createdAt: "desc" } });
  const newest = new Map<string, Invoice>();
  for (const invoice of found) if (!newest.has(invoice.orderId!)) newest.set(invoice.orderId!, invoice);
  return newest;
}
