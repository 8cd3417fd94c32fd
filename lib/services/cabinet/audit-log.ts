import { randomUUID } from "node:crypto";
import type { Db, Tx } from "@/lib/db/client";
import type { Prisma } from "@/generated/prisma/client";
import type { RequestOrigin } from "./cabinet-deps";

/** What the audit log records: sign-in steps, lock-outs and every sensitive action. */
export type AuditAction =
  | "sign_in.password"
  | "sign_in.code"
  | "sign_in.recovery_code"
  | "sign_in.locked"
  | "sign_out"
  | "two_factor.enrolled"
  | "two_factor.recovery_codes_regenerated"
  | "session.revoked"
  | "step_up"
  | "api_key.created"
  | "api_key.revoked"
  | "api_key.rotated"
  | "payout.created"
  | "payout.approved"
  | "payout.rejected"
  | "payout.cancelled"
  | "refund.created"
  | "personal_wallet.transfer"
  | "personal_wallet.saved"
  | "allowlist.changed"
  | "webhook.changed"
  | "webhook.secret_rotated"
  | "webhook.resent"
  | "settings.changed"
  | "payment_link.changed"
  | "payout_link.changed"
  | "static_wallet.changed"
  | "team.invited"
  | "team.invitation_revoked"
  | "team.joined"
  | "team.role_changed"
  | "team.removed";

export type AuditOutcome = "success" | "failure" | "refused";

export interface AuditEntry {
  merchantId: string | null;
  userId: string | null;
  actorEmail: string;
  action: AuditAction;
  outcome: AuditOutcome;
  origin: RequestOrigin;
  /** Identifiers and reasons only: never a secret, a code or a password. */
  detail?: Record<string, string | number | boolean | null>;
}

export async function recordAudit(db: Db | Tx, entry: AuditEntry, now: Date): Promise<void> {
  await db.cabinetAuditEvent.create({
    data: {
      id: randomUUID(),
      merchantId: entry.merchantId,
      userId: entry.userId,
      actorEmail: entry.actorEmail,
      action: entry.action,
      outcome: entry.outcome,
      ipAddress: entry.origin.ipAddress,
      userAgent: entry.origin.userAgent.slice(0, 500),
      detail: (entry.detail ?? {}) as Prisma.InputJsonValue,
      createdAt: now,
    },
  });
}
