import type { Db } from "@/lib/db/client";
import { withTransaction } from "@/lib/db/transaction";
import { deleteUnenrolledUsers } from "@/lib/services/cabinet/expire-enrolments";

/**
 * The enrolment expiry job: one transaction deletes every cabinet user past the enrolment
 * deadline, with their audit rows (see deleteUnenrolledUsers). Returns how many went.
 */
export async function expireUnenrolledUsers(deps: { db: Db; now(): Date }): Promise<number> {
  const now = deps.now();
  return withTransaction(deps.db, (tx) => deleteUnenrolledUsers(tx, now));
}
