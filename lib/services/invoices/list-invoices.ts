import type { Db } from "@/lib/db/client";
import type { Invoice } from "@/generated/prisma/client";
import { after, decodeCursor, encodeCursor } from "@/lib/db/keyset-cursor";
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

/**
 * A merchant's invoices, newest first, with keyset pagination: stable while new invoices
 * arrive, and as fast on page 1000 as on page 1.
 */
export async function listInvoices(db: Db, merchantId: string, filters: InvoiceFilters, page: { limit: number; cursor?: string }): Promise<InvoicePage> {
  const position = page.cursor ? decodeCursor(page.cursor, "payment.bad_cursor") : null;
  const rows = await db.invoice.findMany({
    where: {
      merchantId,
      ...(filters.status ? { status: { in: filters.status } } : {}),
      ...(filters.currency ? { OR: [{ priceCurrency: filters.currency }, { payerCurrency: filters.currency }] } : {}),
      ...(filters.network ? { network: filters.network } : {}),
      ...(filters.order_id ? { orderId: filters.order_id } : {}),
      createdAt: { ...(filters.date_from ? { gte: filters.date_from } : {}), ...(filters.date_to ? { lt: filters.date_to } : {}) },
      ...after(position),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.limit + 1,
  });
  const items = rows.slice(0, page.limit);
  return { items, nextCursor: rows.length > page.limit ? encodeCursor(items[items.length - 1]) : null };
}
