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
  | "two_factor.reset_started"
  | "two_factor.reset"
  | "password.changed"
  | "session.revoked"
  | "session.revoked_all"
  | "step_up"
  | "api_key.created"
  | "api_key.revoked"
  | "api_key.rotated"
  | "payout.created"
  | "payout.approved"
  | "payout.rejected"
  | "payout.cancelled"
  | "refund.created"
  | "invoice.created"
  | "payment.resolved"
  | "personal_wallet.transfer"
  | "personal_wallet.saved"
  | "personal_wallet.removed"
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
  | "team.removed"
  | "team.enrolment_expired"
  | "team.reset_by_operator";

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

export interface AuditEventView {
  id: string;
  at: Date;
  actorEmail: string;
  action: string;
  outcome: string;
  ipAddress: string;
  userAgent: string;
  detail: Record<string, unknown>;
}

/**
 * A store's audit log, newest first, a page at a time (cursor: the last event's id). `userId`
 * narrows it to one person's events.
 */
export async function listAuditEvents(
  db: Db,
  merchantId: string,
  filter: { userId?: string },
  page: { limit: number; cursor?: string },
): Promise<{ events: AuditEventView[]; nextCursor: string | null }> {
  const isCursor = page.cursor !== undefined && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(page.cursor);
  const after = isCursor ? await db.cabinetAuditEvent.findFirst({ where: { id: page.cursor!, merchantId }, select: { createdAt: true, id: true } }) : null;
  const rows = await db.cabinetAuditEvent.findMany({
    where: {
      merchantId,
      ...(filter.userId ? { userId: filter.userId } : {}),
      ...(after ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] } : {}),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: page.limit + 1,
  });
  const events = rows.slice(0, page.limit).map((row) => ({
    id: row.id,
    at: row.createdAt,
    actorEmail: row.actorEmail,
    action: row.action,
    outcome: row.outcome,
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    detail: (row.detail ?? {}) as Record<string, unknown>,
  }));
  return { events, nextCursor: rows.length > page.limit ? events[events.length - 1].id : null };
}
