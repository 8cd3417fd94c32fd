import { randomUUID } from "node:crypto";
import { hashToken, newBearerToken } from "@/lib/auth/one-time-tokens";
import type { Db, Tx } from "@/lib/db/client";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { enrolmentCutoff, isEnrolmentExpired } from "@/lib/domain/cabinet/enrolment-deadline";
import { CABINET_ROLES, isCabinetRole, roleAllows, type CabinetRole } from "@/lib/domain/cabinet/permissions";
import { queueEmail } from "@/lib/email/outbox";
import { invitationEmail, invitationToTakenAddressEmail } from "@/lib/email/templates";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/domain/input/uuid";
import { recordAudit } from "./audit-log";
import type { CabinetDeps, RequestOrigin } from "./cabinet-deps";
import { revokeAllSessions, type CabinetActor } from "./sessions";
import { normalizeEmail } from "./sign-in";
import { insertCabinetUser, isEmailAddress, preparePassword } from "./users";

// The team of a merchant's cabinet: members, invitations by e-mail, role changes and removals.
// Who may call these is the caller's check (only owners hold the "team" permission); the rules of
// the team itself — a store keeps an owner, owners are made only by owners, one live invitation
// per address — are kept here.

/** An invitation is accepted within a week, or asked for again. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60_000;

/** Roles an invitation may carry: owners are made by promoting a member, never by invitation. */
export type InvitableRole = Exclude<CabinetRole, "owner">;
const INVITABLE_ROLES: readonly InvitableRole[] = CABINET_ROLES.filter((role): role is InvitableRole => role !== "owner");

export interface TeamMember {
  id: string;
  email: string;
  role: CabinetRole;
  twoFactorEnabled: boolean;
  /** Never enrolled within the deadline: cannot sign in any more; an owner invites the address again. */
  isEnrolmentExpired: boolean;
  createdAt: Date;
  /** Set when the member was removed: they cannot sign in, and keep their name in the audit log. */
  disabledAt: Date | null;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: InvitableRole;
  createdAt: Date;
  expiresAt: Date;
  /** Null only if the inviting user's row is gone. */
  invitedByEmail: string | null;
}

export interface TeamView {
  /** Active members first, then removed ones; oldest first within each. */
  members: TeamMember[];
  /** Invitations neither accepted, revoked nor expired; newest first. */
  invitations: PendingInvitation[];
}

/** What the accept page shows before asking for a password. */
export interface InvitationSummary {
  email: string;
  role: InvitableRole;
  merchantName: string;
  expiresAt: Date;
}

/** The user an accepted invitation created. */
export interface JoinedMember {
  userId: string;
  merchantId: string;
  email: string;
  role: InvitableRole;
}

/** Who changes the team, and from where (each unit writes its own audit row). */
export interface TeamRequest {
  actor: CabinetActor;
  origin: RequestOrigin;
}

/** An invitation checked and made up before its transaction: its token is shown once. */
interface Invitation extends TeamRequest {
  email: string;
  role: InvitableRole;
  token: string;
  id: string;
  now: Date;
  expiresAt: Date;
}

/** The members of a merchant (removed ones included, flagged) and its pending invitations. */
export async function listTeam(db: Db | Tx, merchantId: string, now: Date): Promise<TeamView> {
  const [users, invitations] = await Promise.all([
    db.cabinetUser.findMany({ where: { merchantId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    db.cabinetInvitation.findMany({
      where: { merchantId, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    }),
  ]);
  // The inviter is looked up within the merchant: `invited_by` carries no foreign key.
  const inviterIds = [...new Set(invitations.map((invitation) => invitation.invitedBy))];
  const inviters = inviterIds.length === 0 ? [] : await db.cabinetUser.findMany({ where: { merchantId, id: { in: inviterIds } }, select: { id: true, email: true } });
  const emailOf = new Map(inviters.map((inviter) => [inviter.id, inviter.email]));
  const members = users.map((user) => toTeamMember(user, now));
  return {
    members: [...members.filter((member) => !member.disabledAt), ...members.filter((member) => member.disabledAt)],
    invitations: invitations.map((invitation) => ({
      id: invitation.id,
      email: invitation.email,
      role: invitation.role as InvitableRole,
      createdAt: invitation.createdAt,
      expiresAt: invitation.expiresAt,
      invitedByEmail: emailOf.get(invitation.invitedBy) ?? null,
    })),
  };
}

/**
 * Invites an address to the actor's store with a role (admin, finance or viewer): the invitation
 * and its e-mail (the link carries a bearer token; only its hash is stored) are written in one
 * transaction. A new invitation to an address replaces the pending one of the same store.
 * Returns the invitation with its link (shown to the inviter once; only the hash is kept).
 */
export const inviteMember: UnitOfWork<TeamRequest & { email: string; role: string }, Invitation, PendingInvitation & { url: string }> = {
  prepare: async (deps, { actor, origin, ...input }) => {
    const now = deps.now();
    const email = normalizeEmail(input.email);
    if (!isEmailAddress(email)) throw new AppError("cabinet.bad_request", `"${input.email}" is not an e-mail address.`);
    const role = input.role;
    if (!isInvitableRole(role)) throw new AppError("cabinet.bad_request", `An invitation's role is one of ${INVITABLE_ROLES.join(", ")}.`);
    return { actor, origin, email, role, token: newBearerToken(), id: randomUUID(), now, expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS) };
  },
  execute: async (tx, deps, { actor, origin, email, role, token, id, now, expiresAt }) => {
    const { merchantName } = await lockTeam(tx, actor);
    // Addresses are unique across stores. A member of this store (or a removed one) is refused:
    // the team sees its own. An address of another store is invited as any other, so the inviter
    // learns nothing of other stores; its e-mail carries no link, and accepting can never succeed.
    const found = await tx.cabinetUser.findUnique({ where: { email }, select: { merchantId: true, totpEnabledAt: true, enrolmentStartedAt: true } });
    // A member of this store who never enrolled in time is invited again: accepting replaces them.
    const existing = found?.merchantId === actor.merchantId && isEnrolmentExpired(found, now) ? null : found;
    if (existing?.merchantId === actor.merchantId) throw new AppError("cabinet.email_taken");
    // Under the team lock, so two concurrent invitations to one address leave exactly one pending.
    const { count: replaced } = await tx.cabinetInvitation.updateMany({
      where: { merchantId: actor.merchantId, email, acceptedAt: null, revokedAt: null },
      data: { revokedAt: now },
    });
    await tx.cabinetInvitation.create({
      data: { id, merchantId: actor.merchantId, email, role, tokenHash: hashToken(token), invitedBy: actor.userId, expiresAt, createdAt: now },
    });
    const message = existing
      ? invitationToTakenAddressEmail({ merchantName, inviterEmail: actor.email, role })
      : invitationEmail({ merchantName, inviterEmail: actor.email, role, expiresAt }, invitationUrl(deps.config.publicBaseUrl, token));
    await queueEmail(tx, deps.config, { merchantId: actor.merchantId, recipient: email, ...message, eraseAfterSend: true }, now);
    await recordAudit(
      tx,
      { merchantId: actor.merchantId, userId: actor.userId, actorEmail: actor.email, action: "team.invited", outcome: "success", origin, detail: { invitationId: id, email, role, replaced } },
      now,
    );
    // The link goes back to the inviter once too: the e-mail may be kept in the local mailbox
    // (no SMTP server) or get lost, and the inviter can hand it over another way.
    return { id, email, role, createdAt: now, expiresAt, invitedByEmail: actor.email, url: invitationUrl(deps.config.publicBaseUrl, token) };
  },
};

/** The accept page's link: `<public base URL>/cabinet/invite/<token>`. */
export function invitationUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/cabinet/invite/${encodeURIComponent(token)}`;
}

/** What an invitation link offers, or `cabinet.bad_invitation` when it is unknown, expired, revoked or used. */
export async function describeInvitation(deps: CabinetDeps, token: string): Promise<InvitationSummary> {
  const invitation = await findLiveInvitation(deps.db, token, deps.now());
  return { email: invitation.email, role: invitation.role as InvitableRole, merchantName: invitation.merchant.name, expiresAt: invitation.expiresAt };
}

/**
 * Accepts an invitation: the user is created with the chosen password (they enrol TOTP at their
 * first sign-in). The invitation is taken by a conditional update, so of racing accepts exactly
 * one creates the user and the others answer `cabinet.bad_invitation`.
 */
export const acceptInvitation: UnitOfWork<{ token: string; password: string; origin: RequestOrigin }, Acceptance, JoinedMember> = {
  prepare: async (deps, input) => {
    // Checked before the slow hash, so a dead link does not cost scrypt; the transaction decides.
    const found = await findLiveInvitation(deps.db, input.token, deps.now());
    const passwordHash = await preparePassword(input.password);
    return { found, passwordHash, origin: input.origin };
  },
  execute: async (tx, deps, { found, passwordHash, origin }) => {
    const now = deps.now();
    try {
      // The row lock of this update makes a concurrent accept (or revoke) wait, then find it taken.
      const { count } = await tx.cabinetInvitation.updateMany({
        where: { id: found.id, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
        data: { acceptedAt: now },
      });
      if (count !== 1) throw new AppError("cabinet.bad_invitation");
      const role = found.role as InvitableRole;
      // A user of this store at this address who never enrolled in time (the expiry job may not
      // have run yet) gives way to the new one; any other user keeps the address.
      const { count: replacedExpired } = await tx.cabinetUser.deleteMany({ where: { merchantId: found.merchantId, email: found.email, totpEnabledAt: null, enrolmentStartedAt: { lte: enrolmentCutoff(now) } } });
      const user = await insertCabinetUser(tx, { merchantId: found.merchantId, email: found.email, passwordHash, role }, now);
      await recordAudit(
        tx,
        { merchantId: user.merchantId, userId: user.id, actorEmail: user.email, action: "team.joined", outcome: "success", origin, detail: { invitationId: found.id, role, invitedBy: found.invitedBy, replacedExpired: replacedExpired > 0 } },
        now,
      );
      return { userId: user.id, merchantId: user.merchantId, email: user.email, role };
    } catch (error) {
      // The address has an account already (another store's, or one that won a race of two stores'
      // invitations: the unique index lets one user in): the same answer as a used link, so the
      // link's holder learns nothing of other stores. Either way the transaction rolls back.
      if (isUniqueViolation(error) || (error instanceof AppError && error.code === "cabinet.email_taken")) throw new AppError("cabinet.bad_invitation");
      throw error;
    }
  },
};

/** An invitation found live, and the chosen password hashed, before the accepting transaction. */
interface Acceptance {
  found: Awaited<ReturnType<typeof findLiveInvitation>>;
  passwordHash: string;
  origin: RequestOrigin;
}

/** Revokes a pending invitation of the actor's store; its link stops working at once. */
export const revokeInvitation: UnitOfWork<TeamRequest & { invitationId: string }, TeamRequest & { invitationId: string }, void> = {
  prepare: async (_deps, request) => {
    if (!isUuid(request.invitationId)) throw new AppError("cabinet.not_found");
    return request;
  },
  execute: async (tx, deps, { actor, origin, invitationId }) => {
    const now = deps.now();
    await lockTeam(tx, actor);
    const invitation = await tx.cabinetInvitation.findFirst({ where: { id: invitationId, merchantId: actor.merchantId } });
    if (!invitation) throw new AppError("cabinet.not_found");
    // An expired one may still be revoked (it tidies the list); an accepted or revoked one is final.
    const { count } = await tx.cabinetInvitation.updateMany({ where: { id: invitation.id, acceptedAt: null, revokedAt: null }, data: { revokedAt: now } });
    if (count !== 1) throw new AppError("cabinet.bad_invitation");
    await recordAudit(
      tx,
      { merchantId: actor.merchantId, userId: actor.userId, actorEmail: actor.email, action: "team.invitation_revoked", outcome: "success", origin, detail: { invitationId: invitation.id, email: invitation.email } },
      now,
    );
  },
};

/**
 * Gives a member of the actor's store another role. Making an owner, and changing an owner's
 * role, is for owners only. The last active owner cannot step down (`cabinet.last_owner`). The
 * member's sessions stay: each request reads the role afresh, so the change applies at once.
 */
export const changeRole: UnitOfWork<TeamRequest & { userId: string; role: string }, TeamRequest & { userId: string; role: CabinetRole }, TeamMember> = {
  prepare: async (_deps, { role, ...request }) => {
    if (!isCabinetRole(role)) throw new AppError("cabinet.bad_request", `A role is one of ${CABINET_ROLES.join(", ")}.`);
    if (!isUuid(request.userId)) throw new AppError("cabinet.not_found");
    return { ...request, role };
  },
  execute: async (tx, deps, { actor, origin, userId, role }) => {
    const now = deps.now();
    const { actorRole } = await lockTeam(tx, actor);
    const target = await tx.cabinetUser.findFirst({ where: { id: userId, merchantId: actor.merchantId, disabledAt: null } });
    if (!target) throw new AppError("cabinet.not_found");
    if ((role === "owner" || target.role === "owner") && actorRole !== "owner") {
      throw new AppError("cabinet.forbidden", "Only an owner makes an owner or changes an owner's role.");
    }
    if (target.role === role) return toTeamMember(target, now);
    if (target.role === "owner") await refuseLastOwner(tx, actor.merchantId);
    const updated = await tx.cabinetUser.update({ where: { id: target.id }, data: { role, updatedAt: now } });
    await recordAudit(
      tx,
      { merchantId: actor.merchantId, userId: actor.userId, actorEmail: actor.email, action: "team.role_changed", outcome: "success", origin, detail: { userId: target.id, email: target.email, from: target.role, to: role } },
      now,
    );
    return toTeamMember(updated, now);
  },
};

/**
 * Removes a member of the actor's store (possibly the actor): the user is disabled, not deleted,
 * so the audit log keeps their name; their sessions end, and their pending sign-in tickets die
 * with them (findLiveTicket refuses a disabled user). The last active owner cannot be removed.
 */
export const removeMember: UnitOfWork<TeamRequest & { userId: string }, TeamRequest & { userId: string }, void> = {
  prepare: async (_deps, request) => {
    if (!isUuid(request.userId)) throw new AppError("cabinet.not_found");
    return request;
  },
  execute: async (tx, deps, { actor, origin, userId }) => {
    const now = deps.now();
    const { actorRole } = await lockTeam(tx, actor);
    const target = await tx.cabinetUser.findFirst({ where: { id: userId, merchantId: actor.merchantId, disabledAt: null } });
    if (!target) throw new AppError("cabinet.not_found");
    if (target.role === "owner") {
      if (actorRole !== "owner") throw new AppError("cabinet.forbidden", "Only an owner removes an owner.");
      await refuseLastOwner(tx, actor.merchantId);
    }
    await tx.cabinetUser.update({ where: { id: target.id }, data: { disabledAt: now, updatedAt: now } });
    await revokeAllSessions(tx, target.id, now);
    await recordAudit(
      tx,
      {
        merchantId: actor.merchantId,
        userId: actor.userId,
        actorEmail: actor.email,
        action: "team.removed",
        outcome: "success",
        origin,
        detail: { userId: target.id, email: target.email, role: target.role, isSelf: target.id === actor.userId },
      },
      now,
    );
  },
};

function isInvitableRole(value: string): value is InvitableRole {
  return (INVITABLE_ROLES as readonly string[]).includes(value);
}

function toTeamMember(user: { id: string; email: string; role: string; totpEnabledAt: Date | null; enrolmentStartedAt: Date; createdAt: Date; disabledAt: Date | null }, now: Date): TeamMember {
  return {
    id: user.id,
    email: user.email,
    role: user.role as CabinetRole,
    twoFactorEnabled: user.totpEnabledAt !== null,
    isEnrolmentExpired: isEnrolmentExpired(user, now),
    createdAt: user.createdAt,
    disabledAt: user.disabledAt,
  };
}

/**
 * Serialises changes to one merchant's team and re-reads the actor under that lock. The merchant
 * row is locked (`FOR NO KEY UPDATE`: inserts of the merchant's other rows, which take a key-share
 * lock, are not held up), so owner counts and pending invitations are read after any concurrent
 * team change has committed: two owners removing each other leave one. An actor removed by the
 * change that went first is refused here, and the owner-only rules use the role as it is now, not
 * as the session read it a moment ago. (Which roles may call at all is the caller's check.)
 */
async function lockTeam(tx: Tx, actor: CabinetActor): Promise<{ merchantName: string; actorRole: CabinetRole }> {
  const [merchant] = await tx.$queryRaw<{ name: string }[]>`SELECT name FROM merchants WHERE id = ${actor.merchantId}::uuid FOR NO KEY UPDATE`;
  const current = await tx.cabinetUser.findFirst({ where: { id: actor.userId, merchantId: actor.merchantId, disabledAt: null }, select: { role: true } });
  if (!merchant || !current || !isCabinetRole(current.role)) throw new AppError("cabinet.forbidden", "You are no longer on this store's team.");
  return { merchantName: merchant.name, actorRole: current.role };
}

/** A store keeps at least one active owner. Called under the team lock, before an owner steps down or leaves. */
async function refuseLastOwner(tx: Tx, merchantId: string): Promise<void> {
  const owners = await tx.cabinetUser.count({ where: { merchantId, role: "owner", disabledAt: null } });
  if (owners <= 1) throw new AppError("cabinet.last_owner");
}

/**
 * An invitation that is unused, unexpired, unrevoked — and whose inviter may still invite: a
 * member removed or demoted cannot come back in through a link they sent before.
 */
async function findLiveInvitation(db: Db | Tx, token: string, now: Date) {
  const invitation = token ? await db.cabinetInvitation.findUnique({ where: { tokenHash: hashToken(token) }, include: { merchant: { select: { name: true } } } }) : null;
  if (!invitation || invitation.acceptedAt || invitation.revokedAt || invitation.expiresAt <= now) throw new AppError("cabinet.bad_invitation");
  const inviter = await db.cabinetUser.findFirst({ where: { id: invitation.invitedBy, merchantId: invitation.merchantId, disabledAt: null }, select: { role: true } });
  if (!inviter || !isCabinetRole(inviter.role) || !roleAllows(inviter.role, "team")) throw new AppError("cabinet.bad_invitation");
  return invitation;
}

/** By shape, not class (see isAppError): Prisma's unique-constraint violation. */
function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}
