import { randomUUID } from "node:crypto";
import type { CabinetUser } from "@/generated/prisma/client";
import type { Db, Tx } from "@/lib/db/client";
import type { CabinetRole } from "@/lib/domain/cabinet/permissions";
import type { RequestOrigin } from "./cabinet-deps";

/** A signed-in browser lives at most this long, and ends sooner after this much idleness. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60_000;
export const SESSION_IDLE_MS = 2 * 60 * 60_000;
/** How stale `last_seen_at` may get before a request writes it again (one write per minute, not per request). */
const LAST_SEEN_GRANULARITY_MS = 60_000;

/** Who is acting in the cabinet: every query and action is scoped by `merchantId`. */
export interface CabinetActor {
  sessionId: string;
  userId: string;
  merchantId: string;
  email: string;
  role: CabinetRole;
}

export async function openSession(tx: Db | Tx, user: Pick<CabinetUser, "id" | "merchantId" | "email" | "role">, origin: RequestOrigin, now: Date): Promise<CabinetActor> {
  const sessionId = randomUUID();
  await tx.cabinetSession.create({
    data: {
      id: sessionId,
      userId: user.id,
      ipAddress: origin.ipAddress,
      userAgent: origin.userAgent.slice(0, 500),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
    },
  });
  return { sessionId, userId: user.id, merchantId: user.merchantId, email: user.email, role: user.role as CabinetRole };
}

/**
 * The actor of a session the cookie names, or null when the session was revoked, expired, went
 * idle, or its user was removed. The role is read afresh: a demotion takes effect at once.
 */
export async function resolveSession(db: Db, sessionId: string, now: Date): Promise<CabinetActor | null> {
  const session = await db.cabinetSession.findUnique({ where: { id: sessionId }, include: { user: true } });
  if (!session || session.revokedAt || session.expiresAt <= now || session.user.disabledAt) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > SESSION_IDLE_MS) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > LAST_SEEN_GRANULARITY_MS) {
    // updateMany: a session ended (deleted) meanwhile is no error here; the next request finds it gone.
    await db.cabinetSession.updateMany({ where: { id: sessionId }, data: { lastSeenAt: now } });
  }
  const { user } = session;
  return { sessionId, userId: user.id, merchantId: user.merchantId, email: user.email, role: user.role as CabinetRole };
}

export interface SessionView {
  id: string;
  ipAddress: string;
  userAgent: string;
  createdAt: Date;
  lastSeenAt: Date;
  isCurrent: boolean;
}

/** The user's live sessions, newest first. */
export async function listSessions(db: Db, actor: CabinetActor, now: Date): Promise<SessionView[]> {
  const sessions = await db.cabinetSession.findMany({
    where: { userId: actor.userId, revokedAt: null, expiresAt: { gt: now }, lastSeenAt: { gt: new Date(now.getTime() - SESSION_IDLE_MS) } },
    orderBy: { createdAt: "desc" },
  });
  return sessions.map((session) => ({
    id: session.id,
    ipAddress: session.ipAddress,
    userAgent: session.userAgent,
    createdAt: session.createdAt,
    lastSeenAt: session.lastSeenAt,
    isCurrent: session.id === actor.sessionId,
  }));
}

/** Ends one of the user's own sessions; false when it names none of theirs. */
export async function revokeSession(db: Db | Tx, userId: string, sessionId: string, now: Date): Promise<boolean> {
  const { count } = await db.cabinetSession.updateMany({ where: { id: sessionId, userId, revokedAt: null }, data: { revokedAt: now } });
  return count === 1;
}

/** Ends every session of a user (password or 2FA reset, removal from the team). */
export async function revokeAllSessions(db: Db | Tx, userId: string, now: Date): Promise<void> {
  await db.cabinetSession.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: now } });
}

/**
 * Deletes every session of a user but `keepSessionId` (a password change, a new authenticator):
 * whoever holds another browser's cookie is out at their next request. Returns how many ended.
 */
export async function endOtherSessions(tx: Db | Tx, userId: string, keepSessionId: string): Promise<number> {
  const { count } = await tx.cabinetSession.deleteMany({ where: { userId, id: { not: keepSessionId } } });
  return count;
}

/** Deletes every session of a user, the current one included ("Sign out everywhere"). Returns how many ended. */
export async function endAllSessions(tx: Db | Tx, userId: string): Promise<number> {
  const { count } = await tx.cabinetSession.deleteMany({ where: { userId } });
  return count;
}
