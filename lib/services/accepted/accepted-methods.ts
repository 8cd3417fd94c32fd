import type { Db, Tx } from "@/lib/db/client";
import { findSettlementAsset, isSettlementSymbol, normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import { AppError } from "@/lib/errors";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";

export interface AcceptedEntry {
  currency: string;
  network: string;
}

/** spec: POST /v1/payment/accepted/list. */
export async function listAcceptedMethods(db: Db | Tx, merchantId: string): Promise<AcceptedEntry[]> {
  const rows = await db.acceptedMethod.findMany({ where: { merchantId }, orderBy: [{ currency: "asc" }, { network: "asc" }] });
  return rows.map((row) => ({ currency: row.currency, network: row.network }));
}

interface AcceptedSet {
  merchantId: string;
  entries: AcceptedEntry[];
}

/**
 * spec: POST /v1/payment/accepted/set — replaces the whole set; empty accepts everything. Every
 * entry is checked before anything is written; answers the set as stored.
 */
export const setAcceptedMethods = {
  prepare: async (_deps: unknown, { merchantId, entries }: AcceptedSet): Promise<AcceptedSet> => ({
    merchantId,
    entries: entries.map((entry) => {
      const currency = normalizeSymbol(entry.currency);
      const network = normalizeNetworkId(entry.network);
      if (!isSettlementSymbol(currency)) throw new AppError("accepted.unknown_currency", `${entry.currency} is not a settlement currency.`);
      if (!findSettlementAsset(currency, network)) throw new AppError("accepted.no_network", `${currency} is not carried on ${entry.network}.`);
      return { currency, network };
    }),
  }),
  execute: async (tx: Tx, _deps: unknown, { merchantId, entries }: AcceptedSet): Promise<AcceptedEntry[]> => {
    await tx.acceptedMethod.deleteMany({ where: { merchantId } });
    if (entries.length > 0) await tx.acceptedMethod.createMany({ data: entries.map((entry) => ({ merchantId, ...entry })), skipDuplicates: true });
    return listAcceptedMethods(tx, merchantId);
  },
} satisfies UnitOfWork<AcceptedSet, AcceptedSet, AcceptedEntry[]>;
