import { randomUUID } from "node:crypto";
import type { CabinetUser } from "@/generated/prisma/client";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { hashToken, newBearerToken } from "@/lib/auth/one-time-tokens";
import type { Db, Tx } from "@/lib/db/client";
import { withTransaction } from "@/lib/db/transaction";
import { AppError } from "@/lib/errors";
import { recordAudit, type AuditAction } from "./audit-log";
import type { CabinetDeps, RequestOrigin } from "./cabinet-deps";
import { openSession, type CabinetActor } from "./sessions";
import { takeSecondFactor } from "./second-factor";
import { ACCOUNT_POLICY, ADDRESS_POLICY, accountKey, activeLockUntil, addressKey, clearFailures, countFailure } from "./throttle";

export type TicketPurpose = "code" | "enrol" | "enrolled";

/** How long each kind of ticket lasts: entering a code is quick; enrolment means finding a phone. */
const TICKET_LIFETIME_MS: Record<TicketPurpose, number> = { code: 5 * 60_000, enrol: 15 * 60_000, enrolled: 2 * 60_000 };

export interface IssuedTicket {
  token: string;
  purpose: TicketPurpose;
  expiresAt: Date;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The refusal for a lock, telling when it ends (minutes, rounded up). */
export function lockedError(until: Date, now: Date): AppError {
  const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
  return new AppError("cabinet.locked", `Too many failed attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`);
}

// A hash to compare against when the e-mail names nobody, so both answers take as long.
let decoyHash: Promise<string> | null = null;

/**
 * The first step: e-mail and password. Right → a ticket for the second step (a code, or TOTP
 * enrolment when the user has none yet). Wrong → counted against the account and the address.
 * A correct password does not forget earlier failures: only a completed sign-in does.
 */
export async function checkPassword(deps: CabinetDeps, input: { email: string; password: string }, origin: RequestOrigin): Promise<IssuedTicket> {
  const now = deps.now();
  const email = normalizeEmail(input.email);
  const addressLock = await activeLockUntil(deps.db, [addressKey(origin.ipAddress)], now);
  if (addressLock) {
    await recordAudit(deps.db, { merchantId: null, userId: null, actorEmail: email, action: "sign_in.locked", outcome: "refused", origin, detail: { by: "address" } }, now);
    throw lockedError(addressLock, now);
  }
  const user = email === "" ? null : await deps.db.cabinetUser.findUnique({ where: { email } });
  if (!user || user.disabledAt) {
    decoyHash ??= hashPassword(randomUUID());
    await verifyPassword(input.password, await decoyHash);
    await countFailure(deps.db, addressKey(origin.ipAddress), ADDRESS_POLICY, now);
    await recordAudit(deps.db, { merchantId: user?.merchantId ?? null, userId: user?.id ?? null, actorEmail: email, action: "sign_in.password", outcome: "failure", origin, detail: { reason: "unknown_user" } }, now);
    throw new AppError("cabinet.bad_credentials");
  }
  await refuseIfLocked(deps, user, "sign_in.password", origin, now);
  if (!(await verifyPassword(input.password, user.passwordHash))) {
    await failAttempt(deps, user, "sign_in.password", origin, now, "cabinet.bad_credentials");
  }
  const purpose: TicketPurpose = user.totpEnabledAt ? "code" : "enrol";
  const ticket = await issueTicket(deps.db, user.id, purpose, now);
  await recordAudit(deps.db, { merchantId: user.merchantId, userId: user.id, actorEmail: user.email, action: "sign_in.password", outcome: "success", origin, detail: { next: purpose } }, now);
  return ticket;
}

/**
 * The second step: a ticket and a code (TOTP or recovery) become a session. An `enrolled`
 * ticket — issued when enrolment was just confirmed with a code — needs none.
 */
export async function completeSignIn(deps: CabinetDeps, input: { ticket: string; code: string }, origin: RequestOrigin): Promise<CabinetActor> {
  const now = deps.now();
  const { ticket, user } = await findLiveTicket(deps.db, input.ticket, ["code", "enrolled"], now);
  await refuseIfLocked(deps, user, "sign_in.code", origin, now);
  let method: "totp" | "recovery_code" | "enrolment" = "enrolment";
  if (ticket.purpose === "code") {
    const passed = await takeSecondFactor(deps.db, deps.secretBox, user, input.code, now);
    if (!passed) await failAttempt(deps, user, "sign_in.code", origin, now, "cabinet.bad_code");
    method = passed!;
  }
  return withTransaction(deps.db, async (tx) => {
    await useTicket(tx, ticket.id, now);
    const actor = await openSession(tx, user, origin, now);
    await clearFailures(tx, accountKey(user.id));
    await recordAudit(
      tx,
      { merchantId: user.merchantId, userId: user.id, actorEmail: user.email, action: method === "recovery_code" ? "sign_in.recovery_code" : "sign_in.code", outcome: "success", origin, detail: { method, session: actor.sessionId } },
      now,
    );
    return actor;
  });
}

export async function issueTicket(db: Db | Tx, userId: string, purpose: TicketPurpose, now: Date): Promise<IssuedTicket> {
  const token = newBearerToken();
  const expiresAt = new Date(now.getTime() + TICKET_LIFETIME_MS[purpose]);
  await db.cabinetSignInTicket.create({ data: { id: randomUUID(), userId, tokenHash: hashToken(token), purpose, expiresAt, createdAt: now } });
  return { token, purpose, expiresAt };
}

/** A ticket that is unused, unexpired, of one of the purposes, and whose user is still on the team. */
export async function findLiveTicket(db: Db | Tx, token: string, purposes: TicketPurpose[], now: Date) {
  const ticket = token ? await db.cabinetSignInTicket.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } }) : null;
  if (!ticket || ticket.usedAt || ticket.expiresAt <= now || !purposes.includes(ticket.purpose as TicketPurpose) || ticket.user.disabledAt) {
    throw new AppError("cabinet.bad_ticket");
  }
  return { ticket, user: ticket.user };
}

/** Marks a ticket used; a second use (two racing submissions) is refused. */
export async function useTicket(tx: Tx, ticketId: string, now: Date): Promise<void> {
  const { count } = await tx.cabinetSignInTicket.updateMany({ where: { id: ticketId, usedAt: null }, data: { usedAt: now } });
  if (count !== 1) throw new AppError("cabinet.bad_ticket");
}

/** Refuses (and records) an attempt on an account or from an address that is locked. */
export async function refuseIfLocked(deps: CabinetDeps, user: CabinetUser, action: AuditAction, origin: RequestOrigin, now: Date): Promise<void> {
  const lock = await activeLockUntil(deps.db, [accountKey(user.id), addressKey(origin.ipAddress)], now);
  if (!lock) return;
  await recordAudit(deps.db, { merchantId: user.merchantId, userId: user.id, actorEmail: user.email, action: "sign_in.locked", outcome: "refused", origin, detail: { attempted: action } }, now);
  throw lockedError(lock, now);
}

/**
 * Counts a wrong password or code against the account and the address, records it, and throws:
 * the lock it brought about, or the plain refusal.
 */
export async function failAttempt(
  deps: CabinetDeps,
  user: CabinetUser,
  action: AuditAction,
  origin: RequestOrigin,
  now: Date,
  code: "cabinet.bad_credentials" | "cabinet.bad_code",
): Promise<never> {
  const accountLock = await countFailure(deps.db, accountKey(user.id), ACCOUNT_POLICY, now);
  const addressLock = await countFailure(deps.db, addressKey(origin.ipAddress), ADDRESS_POLICY, now);
  const audit = { merchantId: user.merchantId, userId: user.id, actorEmail: user.email, origin };
  await recordAudit(deps.db, { ...audit, action, outcome: "failure", detail: { reason: code } }, now);
  const lock = accountLock ?? addressLock;
  if (lock) {
    await recordAudit(deps.db, { ...audit, action: "sign_in.locked", outcome: "failure", detail: { by: accountLock ? "account" : "address" } }, now);
    throw lockedError(lock, now);
  }
  throw new AppError(code);
}

/** Which step a ticket leads to (for the sign-in page to render), or null when it leads nowhere any more. */
export async function describeTicket(db: Db, token: string, now: Date): Promise<{ purpose: TicketPurpose; email: string } | null> {
  try {
    const { ticket, user } = await findLiveTicket(db, token, ["code", "enrol", "enrolled"], now);
    return { purpose: ticket.purpose as TicketPurpose, email: user.email };
  } catch {
    return null;
  }
}
