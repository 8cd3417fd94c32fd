import type { Db } from "@/lib/db/client";
import type { Invoice } from "@/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/domain/input/uuid";

/**
 * A merchant's invoice by uuid or order_id (the newest with that order_id). Another merchant's
 * invoice is `payment.not_found`, exactly like a missing one.
 */
export async function getMerchantInvoiceOrThrow(db: Db, merchantId: string, lookup: { uuid?: string; order_id?: string }): Promise<Invoice> {
  if (lookup.uuid !== undefined) {
    if (!isUuid(lookup.uuid)) throw new AppError("payment.bad_uuid");
    const invoice = await db.invoice.findFirst({ where: { id: lookup.uuid, merchantId } });
    if (!invoice) throw new AppError("payment.not_found");
    return invoice;
  }
  if (lookup.order_id !== undefined && lookup.order_id !== "") {
    const invoice = await db.invoice.findFirst({ where: { merchantId, orderId: lookup.order_id }, orderBy: { createdAt: "desc" } });
    if (!invoice) throw new AppError("payment.not_found");
    return invoice;
  }
  throw new AppError("payment.no_lookup");
}
