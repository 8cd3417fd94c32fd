import type { Db } from "@/lib/db/client";
import { withTransaction } from "@/lib/db/transaction";
import { listDueLots, matureLot } from "@/lib/services/deposits/evaluate-invoice";

/** The maturity job: every lot whose hold ended moves from maturing to available, each in its own transaction. Idempotent. */
export async function matureDueLots(db: Db, now: Date, limit = 500): Promise<number> {
  let matured = 0;
  for (const id of await listDueLots(db, now, limit)) {
    if (await withTransaction(db, (tx) => matureLot(tx, id, now))) matured++;
  }
  return matured;
}
