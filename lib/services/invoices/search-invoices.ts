import type { Invoice, Prisma } from "@/generated/prisma/client";
import type { AppDeps } from "@/lib/deps/app-deps";
import { toPayment, type PaymentObject } from "@/lib/api/serialize/payment";
import { normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import type { PaymentStatus } from "@/lib/domain/invoice/status";
import { isUuid } from "@/lib/domain/input/uuid";
import { describeInvoiceAmounts } from "@/lib/domain/invoice/invoice-amounts";
import { listInvoices, type InvoiceFilters, type InvoicePage } from "@/lib/services/invoices/list-invoices";
import { after, decodeCursor, encodeCursor, type KeysetPosition } from "@/lib/db/keyset-cursor";
import { containsText } from "@/lib/db/text-search";
import { loadSettlementFigures, type SettlementFigures } from "@/lib/services/invoices/settlement-figures";

/** The cabinet's invoice filters: those of /v1/payment/history under the cabinet's names, plus a search box. */
export interface InvoiceSearchFilters {
  /** Any of these payment statuses (none or an empty list: any status). */
  status?: PaymentStatus[];
  /** The payer currency or the price currency (any case), like the API's `currency`. */
  coin?: string;
  network?: string;
  /** Inclusive lower bound of created_at. */
  createdFrom?: Date;
  /** Exclusive upper bound of created_at. */
  createdTo?: Date;
  /** Exactly (no partial match) an invoice uuid, an order_id, a deposit address, or the txid of one of its transfers. */
  query?: string;
}

export interface InvoiceSearchPage {
  /** The API's payment objects, newest first. */
  items: PaymentObject[];
  /** The same cursor as /v1/payment/list's `next_cursor`; null on the last page. */
  nextCursor: string | null;
}

export const MAX_SEARCH_PAGE = 100;
/** Rows read per query while exporting: the export never holds more. */
export const EXPORT_PAGE_SIZE = 500;

/** The API's filters (/v1/payment/history) that the cabinet's status, coin, network and dates mean. */
export function toInvoiceFilters(filters: InvoiceSearchFilters): InvoiceFilters {
  return {
    status: filters.status && filters.status.length > 0 ? filters.status : undefined,
    currency: filters.coin ? normalizeSymbol(filters.coin.trim()) : undefined,
    network: filters.network ? normalizeNetworkId(filters.network.trim()) : undefined,
    date_from: filters.createdFrom,
    date_to: filters.createdTo,
  };
}

/**
 * A page of the merchant's invoices, newest first. Without a search text it is listInvoices
 * itself: the same rows, order and cursors as /v1/payment/history with the same filters.
 */
export async function searchInvoices(
  deps: Pick<AppDeps, "db" | "config">,
  merchantId: string,
  filters: InvoiceSearchFilters,
  page: { limit: number; cursor?: string },
): Promise<InvoiceSearchPage> {
  const limit = Math.min(Math.max(Math.trunc(page.limit) || 1, 1), MAX_SEARCH_PAGE);
  const rows = await findInvoicePage(deps, merchantId, filters, { limit, cursor: page.cursor });
  return { items: await Promise.all(rows.items.map((row) => toPayment(row, deps.config.publicBaseUrl))), nextCursor: rows.nextCursor };
}

/**
 * Columns of the export: the payment object's fields (without the QR code and the buyer's private
 * data), the platform fee and the net after the amounts (empty until settled), then final_at.
 */
const CSV_COLUMNS = [
  "uuid",
  "order_id",
  "status",
  "amount",
  "currency",
  "payer_amount",
  "payer_currency",
  "amount_paid",
  "fee",
  "net",
  "network",
  "address",
  "txid",
  "payer_address",
  "is_final",
  "created_at",
  "updated_at",
  "final_at",
] as const;

/**
 * The whole filtered view as CSV (RFC 4180: CRLF line ends, fields with a comma, quote or line
 * break quoted): a header, then one line per invoice in the search's order. Each yielded string
 * is one line with its CRLF. Reads EXPORT_PAGE_SIZE rows at a time along the keyset cursor, so
 * invoices created during the export (newer than its first row) are not in it, and none repeats.
 */
export async function* exportInvoicesCsv(deps: Pick<AppDeps, "db">, merchantId: string, filters: InvoiceSearchFilters): AsyncGenerator<string, void, undefined> {
  yield toCsvLine(CSV_COLUMNS);
  let cursor: string | undefined;
  do {
    const page = await findInvoicePage(deps, merchantId, filters, { limit: EXPORT_PAGE_SIZE, cursor });
    const figures = await loadSettlementFigures(deps.db, page.items);
    for (const row of page.items) yield toCsvLine(toCsvCells(row, figures.get(row.id)));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/** The same values toPayment writes, without the QR code (1–2 ms each: minutes for 100 000 rows). */
function toCsvCells(row: Invoice, settlement: SettlementFigures | undefined): string[] {
  const amounts = describeInvoiceAmounts(row);
  return [
    row.id,
    row.orderId ?? "",
    row.status,
    amounts.amount,
    row.priceCurrency,
    amounts.payerAmount,
    row.payerCurrency ?? "",
    amounts.amountPaid,
    settlement?.fee ?? "",
    settlement?.net ?? "",
    row.network ?? "",
    row.address ?? "",
    row.txid,
    row.payerAddress,
    String(row.isFinal),
    row.createdAt.toISOString(),
    row.updatedAt.toISOString(),
    row.finalAt?.toISOString() ?? "",
  ];
}

/**
 * One CSV line. A cell a spreadsheet would read as a formula (=, +, -, @, or a tab or carriage
 * return in front, per OWASP's CSV injection advice) gets a leading apostrophe first; order ids,
 * addresses and payer data come from buyers and integrators.
 */
export function toCsvLine(cells: readonly string[]): string {
  return `${cells.map(toCsvCell).join(",")}\r\n`;
}

function toCsvCell(value: string): string {
  const neutral = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(neutral) ? `"${neutral.replaceAll('"', '""')}"` : neutral;
}

/**
 * The rows of a page. Without a search text, listInvoices answers. With one, the invoices whose
 * order id, deposit address, payer e-mail or a transfer's txid contains it in any case (or whose
 * uuid it is), under the same filters, order and cursor. listInvoices takes no such text, so its
 * filters are written again here (filterWhere); the integration test holds the two together.
 */
async function findInvoicePage(deps: Pick<AppDeps, "db">, merchantId: string, filters: InvoiceSearchFilters, page: { limit: number; cursor?: string }): Promise<InvoicePage> {
  const position = page.cursor ? decodeCursor(page.cursor, "payment.bad_cursor") : null;
  const invoiceFilters = boundByPosition(toInvoiceFilters(filters), position);
  const query = filters.query?.trim() ?? "";
  if (query === "") return listInvoices(deps.db, merchantId, invoiceFilters, page);

  const text = containsText(query);
  const matches: Prisma.InvoiceWhereInput[] = [
    { orderId: text },
    { address: text },
    { payerEmail: text },
    { transfers: { some: { txid: text } } },
  ];
  if (isUuid(query)) matches.push({ id: query.toLowerCase() });
  const rows = await deps.db.invoice.findMany({
    where: { merchantId, AND: [{ OR: matches }, filterWhere(invoiceFilters), after(position)] },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.limit + 1,
  });
  const items = rows.slice(0, page.limit);
  return { items, nextCursor: rows.length > page.limit ? encodeCursor(items[items.length - 1]) : null };
}

/**
 * The rows after a cursor were all created at or before its position: saying so as an upper
 * bound of created_at (timestamps are whole milliseconds) changes no row, and lets PostgreSQL
 * start the (merchant_id, created_at) index scan at the position. The cursor's own condition
 * (an OR) does not bound the scan: without this, every page reads all the newer rows first, and an
 * export of 100 000 rows in pages of 500 reads some 10 million.
 */
function boundByPosition(filters: InvoiceFilters, position: KeysetPosition | null): InvoiceFilters {
  if (!position) return filters;
  const bound = new Date(position.createdAt.getTime() + 1);
  return { ...filters, date_to: filters.date_to && filters.date_to < bound ? filters.date_to : bound };
}

/** listInvoices' filters as a Prisma condition (its own `where`, less the merchant and the cursor). */
function filterWhere(filters: InvoiceFilters): Prisma.InvoiceWhereInput {
  return {
    ...(filters.status ? { status: { in: filters.status } } : {}),
    ...(filters.currency ? { OR: [{ priceCurrency: filters.currency }, { payerCurrency: filters.currency }] } : {}),
    ...(filters.network ? { network: filters.network } : {}),
    ...(filters.order_id ? { orderId: filters.order_id } : {}),
    createdAt: { ...(filters.date_from ? { gte: filters.date_from } : {}), ...(filters.date_to ? { lt: filters.date_to } : {}) },
  };
}
