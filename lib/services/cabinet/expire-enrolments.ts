import type { Tx } from "@/lib/db/client";
import { enrolmentCutoff } from "@/lib/domain/cabinet/enrolment-deadline";
import { recordAudit } from "./audit-log";

/**
 * Deletes the cabinet users who never set up an authenticator app within the deadline
 * (ENROLMENT_DEADLINE_MS), which frees their e-mail addresses for a new invitation; sign-in and
 * enrolment refuse them already (`cabinet.enrolment_expired`). A user whose second factor the
 * operator reset (`user reset`) and who does not enrol again goes the same way, like an invitation
 * left unanswered: what they did stays in the audit log under their id and e-mail, and keys they
 * made no longer approve money out (their maker is gone). An owner is kept while the store has
 * no enrolled owner, so the operator still sees whom the store was made for. Each deletion is
 * audited in the store's log, in the same transaction. Idempotent; returns how many went.
 */
export async function deleteUnenrolledUsers(tx: Tx, now: Date): Promise<number> {
  const expired = await tx.$queryRaw<{ id: string; merchant_id: string; email: string; role: string; created_at: Date }[]>`
    DELETE FROM cabinet_users AS expired
    WHERE expired.totp_enabled_at IS NULL
      AND expired.enrolment_started_at <= ${enrolmentCutoff(now)}
      AND (expired.role <> 'owner' OR EXISTS (
        SELECT 1 FROM cabinet_users AS owner
        WHERE owner.merchant_id = expired.merchant_id AND owner.role = 'owner' AND owner.disabled_at IS NULL AND owner.totp_enabled_at IS NOT NULL))
    RETURNING expired.id, expired.merchant_id, expired.email, expired.role, expired.created_at`;
  for (const user of expired) {
    await recordAudit(
      tx,
      {
        merchantId: user.merchant_id,
        userId: user.id,
        actorEmail: user.email,
        action: "team.enrolment_expired",
        outcome: "success",
        origin: { ipAddress: "", userAgent: "" },
        detail: { userId: user.id, email: user.email, role: user.role, createdAt: user.created_at.toISOString() },
      },
      now,
    );
  }
  return expired.length;
}
