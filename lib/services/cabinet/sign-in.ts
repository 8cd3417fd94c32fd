import { randomUUID } from "node:crypto";
import type { CabinetUser } from "@/generated/prisma/client";
import { hashPassword, needsRehash, verifyPassword } from "@/lib/auth/passwords";
import { hashToken, newBearerToken } from "@/lib/auth/one-time-tokens";
import type { Db, Tx } from "@/lib/db/client";
import type { TxDeps, UnitOfWork } from "@/lib/deps/unit-of-work";
import { isEnrolmentExpired } from "@/lib/domain/cabinet/enrolment-deadline";
import { queueEmail } from "@/lib/email/outbox";
import { accountUnderAttackEmail } from "@/lib/email/templates";
import { AppError } from "@/lib/errors";
import { recordAudit, type AuditAction } from "./audit-log";
import type { RequestOrigin } from "./cabinet-deps";
import { openSession, type CabinetActor } from "./sessions";
import { takeSecondFactor } from "./second-factor";
import { activeLockUntil, forgetAccountFailures, giveAttemptBack, KNOWN_ADDRESS_MS, takeAttempt, type AttemptSource } from "./throttle";

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

/** Who an attempt is made as, for the audit log: a user, or an e-mail that names nobody. */
export interface AttemptActor {
  merchantId: string | null;
  userId: string | null;
  email: string;
}

export const actorOf = (user: CabinetUser): AttemptActor => ({ merchantId: user.merchantId, userId: user.id, email: user.email });
/** The throttle's view of an attempt: its account, its address, and whether the account signed in from that address lately. */
export async function sourceOf(db: Db | Tx, actor: AttemptActor, origin: RequestOrigin, now: Date): Promise<AttemptSource> {
  const signedInFromHere =
    actor.userId !== null && actor.merchantId !== null && origin.ipAddress !== ""
      ? await db.cabinetAuditEvent.findFirst({
          where: {
            merchantId: actor.merchantId,
            userId: actor.userId,
            action: { in: ["sign_in.code", "sign_in.recovery_code"] },
            outcome: "success",
            ipAddress: origin.ipAddress,
            createdAt: { gte: new Date(now.getTime() - KNOWN_ADDRESS_MS) },
          },
          select: { id: true },
        })
      : null;
  return { email: actor.email, ipAddress: origin.ipAddress, isKnownAddress: signedInFromHere !== null };
}

/** One attempt (a password, a code): whose, recorded under which action, from where, when. */
export interface Attempt {
  actor: AttemptActor;
  action: AuditAction;
  origin: RequestOrigin;
  now: Date;
}

/**
 * A refusal whose records must stay (a failed attempt, a lock-out): the unit that records it
 * returns it, and its entry point throws it once the records committed — thrown inside the
 * unit, it would roll them back.
 */
export interface Refused {
  refusal: AppError;
}

export const refuse = (refusal: AppError): Refused => ({ refusal });

export function isRefused(result: unknown): result is Refused {
  return typeof result === "object" && result !== null && "refusal" in result;
}

/** An attempt counted (beginAttempt) and the answer to check: what its settling unit takes. */
export interface AdmittedAttempt {
  attempt: Attempt;
  taken: TakenAttempt;
}

/**
 * Whom an e-mail and password sign in as: the user, or an e-mail that names nobody — counted and
 * locked the same way (see passPassword).
 */
export async function findSignInAccount(db: Db, typedEmail: string): Promise<{ user: CabinetUser | null; actor: AttemptActor }> {
  // PostgreSQL text cannot hold a NUL: such an e-mail names nobody, and is kept as U+FFFD.
  const email = normalizeEmail(typedEmail).replaceAll("\u0000", "\ufffd");
  const user = email === "" ? null : await db.cabinetUser.findUnique({ where: { email } });
  return { user, actor: user ? actorOf(user) : { merchantId: null, userId: null, email } };
}

type PasswordVerdict =
  | { verdict: "unknown_user" }
  | { verdict: "wrong" }
  | { verdict: "expired"; user: CabinetUser }
  | { verdict: "right"; user: CabinetUser; rehashed: string | null };

/**
 * The first step: e-mail and password, counted (beginAttempt) before the password is checked.
 * Right → a ticket for the second step (a code, or TOTP enrolment when the user has none yet),
 * and the attempt given back. An e-mail that names nobody fails as a wrong password does, and
 * takes as long.
 */
export const passPassword: UnitOfWork<AdmittedAttempt & { user: CabinetUser | null; password: string }, AdmittedAttempt & PasswordVerdict, IssuedTicket | Refused> = {
  prepare: async (_deps, { user, password, ...admitted }) => {
    if (!user || user.disabledAt) {
      decoyHash ??= hashPassword(randomUUID());
      await verifyPassword(password, await decoyHash);
      return { ...admitted, verdict: "unknown_user" };
    }
    if (!(await verifyPassword(password, user.passwordHash))) return { ...admitted, verdict: "wrong" };
    if (isEnrolmentExpired(user, admitted.attempt.now)) return { ...admitted, verdict: "expired", user };
    // Hashed with weaker parameters than today's: the right password is at hand to hash it anew.
    return { ...admitted, verdict: "right", user, rehashed: needsRehash(user.passwordHash) ? await hashPassword(password) : null };
  },
  execute: async (tx, deps, plan) => {
    const { attempt, taken } = plan;
    const { origin, now } = attempt;
    if (plan.verdict === "unknown_user") return recordFailedAttempt(tx, deps, attempt, "cabinet.bad_credentials", taken, "unknown_user");
    if (plan.verdict === "wrong") return recordFailedAttempt(tx, deps, attempt, "cabinet.bad_credentials", taken);
    const { user } = plan;
    if (plan.verdict === "expired") {
      // Told only to whoever knows the password: a wrong one answers as for anyone else.
      await giveAttemptBack(tx, taken.source, now);
      await recordAudit(tx, { merchantId: user.merchantId, userId: user.id, actorEmail: user.email, action: "sign_in.password", outcome: "refused", origin, detail: { reason: "cabinet.enrolment_expired" } }, now);
      return refuse(new AppError("cabinet.enrolment_expired"));
    }
    const purpose: TicketPurpose = user.totpEnabledAt ? "code" : "enrol";
    if (plan.rehashed) await tx.cabinetUser.updateMany({ where: { id: user.id, passwordHash: user.passwordHash }, data: { passwordHash: plan.rehashed } });
    // A right password gives its attempt back, but does not forget earlier failures: only a completed sign-in does.
    await giveAttemptBack(tx, taken.source, now);
    const ticket = await issueTicket(tx, user.id, purpose, now);
    await recordAudit(tx, { merchantId: user.merchantId, userId: user.id, actorEmail: user.email, action: "sign_in.password", outcome: "success", origin, detail: { next: purpose } }, now);
    return ticket;
  },
};

/** The second step's ticket and code, and — for a `code` ticket — the attempt counted for the code. */
export interface SessionRequest {
  attempt: Attempt;
  ticket: { id: string; purpose: string };
  user: CabinetUser;
  code: string;
  /** Null for an `enrolled` ticket, which takes no code. */
  taken: TakenAttempt | null;
}

/**
 * The second step: a ticket and a code (TOTP or recovery) become a session. An `enrolled`
 * ticket — issued when enrolment was just confirmed with a code — needs none, but is refused
 * (and that recorded) while the account or the address is locked.
 */
export const openSessionWithCode: UnitOfWork<SessionRequest, SessionRequest & { lock: Date | null }, CabinetActor | Refused> = {
  prepare: async (deps, request) => {
    const { attempt, taken } = request;
    const lock = taken ? null : await activeLockUntil(deps.db, await sourceOf(deps.db, attempt.actor, attempt.origin, attempt.now), attempt.now);
    return { ...request, lock };
  },
  execute: async (tx, deps, { attempt, ticket, user, code, taken, lock }) => {
    const { origin, now } = attempt;
    if (lock) {
      await recordLockedOut(tx, attempt, null);
      return refuse(lockedError(lock, now));
    }
    let method: "totp" | "recovery_code" | "enrolment" = "enrolment";
    if (taken) {
      const passed = await takeSecondFactor(tx, deps.secretBox, user, code, now);
      if (!passed) return recordFailedAttempt(tx, deps, attempt, "cabinet.bad_code", taken);
      method = passed;
    }
    await useTicket(tx, ticket.id, now);
    const actor = await openSession(tx, user, origin, now);
    if (taken) await giveAttemptBack(tx, taken.source, now);
    await forgetAccountFailures(tx, user.email, origin.ipAddress);
    await recordAudit(
      tx,
      { merchantId: user.merchantId, userId: user.id, actorEmail: user.email, action: method === "recovery_code" ? "sign_in.recovery_code" : "sign_in.code", outcome: "success", origin, detail: { method, session: actor.sessionId } },
      now,
    );
    return actor;
  },
};

export async function issueTicket(db: Db | Tx, userId: string, purpose: TicketPurpose, now: Date): Promise<IssuedTicket> {
  const token = newBearerToken();
  const expiresAt = new Date(now.getTime() + TICKET_LIFETIME_MS[purpose]);
  await db.cabinetSignInTicket.create({ data: { id: randomUUID(), userId, tokenHash: hashToken(token), purpose, expiresAt, createdAt: now } });
  return { token, purpose, expiresAt };
}

/**
 * A ticket that is unused, unexpired, of one of the purposes, whose user is still on the team and
 * still in the state the ticket was made for: an `enrol` ticket dies when its user has enrolled
 * (by another ticket), so it can never show a key that is in use.
 */
export async function findLiveTicket(db: Db | Tx, token: string, purposes: TicketPurpose[], now: Date) {
  const ticket = token ? await db.cabinetSignInTicket.findUnique({ where: { tokenHash: hashToken(token) }, include: { user: true } }) : null;
  if (!ticket || ticket.usedAt || ticket.expiresAt <= now || !purposes.includes(ticket.purpose as TicketPurpose) || ticket.user.disabledAt) {
    throw new AppError("cabinet.bad_ticket");
  }
  const isEnrolled = ticket.user.totpEnabledAt !== null;
  if (isEnrolled !== (ticket.purpose !== "enrol")) throw new AppError("cabinet.bad_ticket");
  // A ticket taken just before the deadline does not stretch it.
  if (isEnrolmentExpired(ticket.user, now)) throw new AppError("cabinet.enrolment_expired");
  return { ticket, user: ticket.user };
}

/** Marks a ticket used; a second use (two racing submissions) is refused. */
export async function useTicket(tx: Tx, ticketId: string, now: Date): Promise<void> {
  const { count } = await tx.cabinetSignInTicket.updateMany({ where: { id: ticketId, usedAt: null }, data: { usedAt: now } });
  if (count !== 1) throw new AppError("cabinet.bad_ticket");
}

/** What an admitted attempt brings about should it turn out wrong. */
export interface TakenAttempt {
  lockIfWrong: Date | null;
  /** The account's fifth failure of the day, from any address (a known one too): its user is told. */
  alertsUserIfWrong: boolean;
  /** The keys it was counted against: a right answer gives it back to the same ones. */
  source: AttemptSource;
}

/**
 * Admits an attempt, counted and committed before its password or code is checked, or refuses
 * it — and records that — while the account or the address is locked. The attempt's settling
 * unit gives it back when right, or records it failed (recordFailedAttempt).
 */
export const beginAttempt: UnitOfWork<Attempt, Attempt & { source: AttemptSource }, TakenAttempt | Refused> = {
  prepare: async (deps, attempt) => ({ ...attempt, source: await sourceOf(deps.db, attempt.actor, attempt.origin, attempt.now) }),
  execute: async (tx, _deps, { source, ...attempt }) => {
    const admission = await takeAttempt(tx, source, attempt.now);
    if (admission.admitted) return { lockIfWrong: admission.lockIfWrong, alertsUserIfWrong: admission.alertsUserIfWrong, source };
    await recordLockedOut(tx, attempt, admission.lockedBy);
    return refuse(lockedError(admission.lockedUntil, attempt.now));
  },
};

async function recordLockedOut(tx: Tx, { actor, action, origin, now }: Attempt, by: string | null): Promise<void> {
  await recordAudit(
    tx,
    { merchantId: actor.merchantId, userId: actor.userId, actorEmail: actor.email, action: "sign_in.locked", outcome: "refused", origin, detail: { attempted: action, by } },
    now,
  );
}

/**
 * Records a wrong password or code (already counted when it was admitted) and returns the
 * refusal to throw once that committed: the lock this attempt brought about, or the plain one.
 */
export async function recordFailedAttempt(
  tx: Tx,
  deps: Pick<TxDeps, "config">,
  { actor, action, origin, now }: Attempt,
  code: "cabinet.bad_credentials" | "cabinet.bad_code" | "cabinet.wrong_password",
  taken: TakenAttempt,
  reason: string = code,
): Promise<Refused> {
  const audit = { merchantId: actor.merchantId, userId: actor.userId, actorEmail: actor.email, origin };
  await recordAudit(tx, { ...audit, action, outcome: "failure", detail: { reason } }, now);
  if (taken.alertsUserIfWrong && actor.userId !== null) {
    // Once per day of attempts at most (the alert's window): its user learns what is going on, even
    // when the guesses come from an address the user signed in from (a NAT, an office) and so slow nothing down.
    await queueEmail(tx, deps.config, { merchantId: actor.merchantId, recipient: actor.email, ...accountUnderAttackEmail({ email: actor.email, at: now }) }, now);
  }
  const lockIfWrong = taken.lockIfWrong;
  if (lockIfWrong) {
    await recordAudit(tx, { ...audit, action: "sign_in.locked", outcome: "failure", detail: { after: action } }, now);
    return refuse(lockedError(lockIfWrong, now));
  }
  return refuse(new AppError(code));
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
