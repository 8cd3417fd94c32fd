import type { Db } from "@/lib/db/client";
import { findSettlementAsset, isSettlementSymbol, normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import { AppError } from "@/lib/errors";
import { withTransaction } from "@/lib/db/transaction";

export interface AcceptedEntry {
  currency: string;
  network: string;
}

/** spec: POST /v1/payment/accepted/list. */
export async function listAcceptedMethods(db: Db, merchantId: string): Promise<AcceptedEntry[]> {
  const rows = await db.acceptedMethod.findMany({ where: { merchantId }, orderBy: [{ currency: "asc" }, { network: "asc" }] });
  return rows.map((row) => ({ currency: row.currency, network: row.network }));
}

/** spec: POST /v1/payment/accepted/set — replaces the whole set; empty accepts everything. */
export async function setAcceptedMethods(db: Db, merchantId: string, entries: { currency: string; network: string }[]): Promise<void> {
  const normalized = entries.map((entry) => {
    const currency = normalizeSymbol(entry.currency);
    const network = normalizeNetworkId(entry.network);
    if (!isSettlementSymbol(currency)) throw new AppError("accepted.unknown_currency", `${entry.currency} is not a settlement currency.`);
    if (!findSettlementAsset(currency, network)) throw new AppError("accepted.no_network", `${currency} is not carried on ${entry.network}.`);
    return { merchantId, currency, network };
  });
  await withTransaction(db, async (tx) => {
    await tx.acceptedMethod.deleteMany({ where: { merchantId } });
    if (normalized.length > 0) await tx.acceptedMethod.createMany({ data: normalized, skipDuplicates: true });
  });
}
