import type { Db } from "@/lib/db/client";
import type { Invoice } from "@/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { isUuid } from "./find-invoice";
import type { PaymentStatus } from "@/lib/domain/invoice/status";

export interface InvoiceFilters {
  status?: PaymentStatus[];
  currency?: string;
  network?: string;
  order_id?: string;
  /** Inclusive lower bound of created_at. */
  date_from?: Date;
  /** Exclusive upper bound of created_at. */
  date_to?: Date;
}

export interface InvoicePage {
  items: Invoice[];
  nextCursor: string | null;
}

/** An opaque cursor: the position (created_at, uuid) after which the next page starts. */
export function encodeCursor(row: Pick<Invoice, "createdAt" | "id">): string {
  return Buffer.from(`${row.createdAt.toISOString()}|${row.id}`, "utf8").toString("base64url");
}

function decodeCursor(cursor: string): { createdAt: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  const createdAt = new Date(iso ?? "");
  if (!id || !isUuid(id) || Number.isNaN(createdAt.getTime())) throw new AppError("payment.bad_cursor");
  return { createdAt, id };
}

/**
 * A merchant's invoices, newest first, with keyset pagination: stable while new invoices
 * arrive, and as fast on page 1000 as on page 1.
 */
export async function listInvoices(db: Db, merchantId: string, filters: InvoiceFilters, page: { limit: number; cursor?: string }): Promise<InvoicePage> {
  const after = page.cursor ? decodeCursor(page.cursor) : null;
  const rows = await db.invoice.findMany({
    where: {
      merchantId,
      ...(filters.status ? { status: { in: filters.status } } : {}),
      ...(filters.currency ? { OR: [{ priceCurrency: filters.currency }, { payerCurrency: filters.currency }] } : {}),
      ...(filters.network ? { network: filters.network } : {}),
      ...(filters.order_id ? { orderId: filters.order_id } : {}),
      createdAt: { ...(filters.date_from ? { gte: filters.date_from } : {}), ...(filters.date_to ? { lt: filters.date_to } : {}) },
      ...(after ? { AND: [{ OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.limit + 1,
  });
  const items = rows.slice(0, page.limit);
  return { items, nextCursor: rows.length > page.limit ? encodeCursor(items[items.length - 1]) : null };
}
