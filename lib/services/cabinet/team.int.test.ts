import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { createMerchant } from "@/lib/services/merchants/create-merchant";
import { getTestDb, getTestSecretBox, makeTestDeps } from "@/lib/testing/harness";
import type { CabinetDeps } from "./cabinet-deps";
import { openSession, resolveSession, type CabinetActor } from "./sessions";
import { checkPassword, findLiveTicket } from "./sign-in";
import { acceptInvitation, changeRole, describeInvitation, INVITATION_LIFETIME_MS, inviteMember, listTeam, removeMember, revokeInvitation } from "./team";

// The team: invitations by e-mail (one live per address, a week long, taken once), role changes,
// removals, the last-owner guard under races, and isolation between merchants.

const PASSWORD = "correct horse battery";
const origin = { ipAddress: "10.1.2.3", userAgent: "vitest" };

function clockedDeps(start = Date.now()) {
  let nowMs = start;
  const deps: CabinetDeps = { ...makeTestDeps(), now: () => new Date(nowMs) };
  return { deps, advance: (ms: number) => (nowMs += ms) };
}

const deps = (): CabinetDeps => makeTestDeps();
const newEmail = (label: string) => `${label}-${randomUUID()}@example.com`;

async function codeOf(failure: Promise<unknown>): Promise<string> {
  try {
    await failure;
  } catch (error) {
    if (isAppError(error)) return error.code;
    throw error;
  }
  throw new Error("expected a refusal");
}

/** A merchant with its owner, signed in (a session row exists). */
async function newStore(name = "Team shop") {
  const email = newEmail("owner");
  const { merchantId } = await createMerchant({ db: getTestDb(), secretBox: getTestSecretBox() }, { name, email, password: PASSWORD });
  return { merchantId, name, owner: await signIn(email) };
}

async function signIn(email: string): Promise<CabinetActor> {
  const user = await getTestDb().cabinetUser.findUniqueOrThrow({ where: { email } });
  return openSession(getTestDb(), user, origin, new Date());
}

/** The token of the last invitation e-mailed to an address, read off the link in the outbox. */
async function invitationToken(email: string): Promise<string> {
  const message = await getTestDb().outboundEmail.findFirstOrThrow({ where: { recipient: email }, orderBy: { createdAt: "desc" } });
  const match = message.text.match(/http:\/\/gateway\.test\/cabinet\/invite\/([A-Za-z0-9_-]+)/);
  if (!match) throw new Error(`no invitation link in: ${message.text}`);
  return match[1];
}

/** Invites, accepts and signs in a member with a role. */
async function addMember(context: CabinetDeps, actor: CabinetActor, role: string): Promise<CabinetActor> {
  const email = newEmail(role);
  await inviteMember(context, actor, { email, role }, origin);
  await acceptInvitation(context, { token: await invitationToken(email), password: PASSWORD }, origin);
  return signIn(email);
}

async function promoteToOwner(context: CabinetDeps, owner: CabinetActor, member: CabinetActor): Promise<CabinetActor> {
  await changeRole(context, owner, member.userId, "owner", origin);
  return { ...member, role: "owner" };
}

const activeOwners = (merchantId: string) => getTestDb().cabinetUser.count({ where: { merchantId, role: "owner", disabledAt: null } });

function omitUrl<T extends { url: string }>({ url: _url, ...rest }: T): Omit<T, "url"> {
  return rest;
}

describe("cabinet team", () => {
  it("invites by e-mail, describes the link, accepts it once, and the new member signs in with the password", async () => {
    const store = await newStore("Invite shop");
    const context = deps();
    const email = newEmail("Finance").toUpperCase();
    const invitation = await inviteMember(context, store.owner, { email: ` ${email} `, role: "finance" }, origin);
    expect(invitation).toMatchObject({ email: email.toLowerCase(), role: "finance", invitedByEmail: store.owner.email });
    expect(invitation.expiresAt.getTime() - invitation.createdAt.getTime()).toBe(INVITATION_LIFETIME_MS);

    const message = await getTestDb().outboundEmail.findFirstOrThrow({ where: { recipient: email.toLowerCase() } });
    expect(message).toMatchObject({ merchantId: store.merchantId, status: "kept", eraseAfterSend: true });
    expect(message.subject).toContain("Invite shop");
    expect(message.html).toContain("/cabinet/invite/");
    const token = await invitationToken(email.toLowerCase());
    // Only the token's hash is stored.
    const stored = await getTestDb().cabinetInvitation.findUniqueOrThrow({ where: { id: invitation.id } });
    expect(stored.tokenHash).not.toBe(token);
    expect(stored.invitedBy).toBe(store.owner.userId);

    expect(await describeInvitation(context, token)).toEqual({ email: email.toLowerCase(), role: "finance", merchantName: "Invite shop", expiresAt: invitation.expiresAt });
    expect((await listTeam(getTestDb(), store.merchantId, context.now())).invitations).toEqual([omitUrl(invitation)]);

    expect(await codeOf(acceptInvitation(context, { token, password: "short" }, origin))).toBe("cabinet.weak_password");
    const joined = await acceptInvitation(context, { token, password: PASSWORD }, origin);
    expect(joined).toMatchObject({ merchantId: store.merchantId, email: email.toLowerCase(), role: "finance" });
    expect(await codeOf(acceptInvitation(context, { token, password: PASSWORD }, origin))).toBe("cabinet.bad_invitation");
    expect(await codeOf(describeInvitation(context, token))).toBe("cabinet.bad_invitation");

    const ticket = await checkPassword(context, { email, password: PASSWORD }, { ...origin, ipAddress: "10.9.9.9" });
    expect(ticket.purpose).toBe("enrol");

    const team = await listTeam(getTestDb(), store.merchantId, context.now());
    expect(team.invitations).toEqual([]);
    expect(team.members.map((member) => [member.email, member.role, member.twoFactorEnabled, member.disabledAt])).toEqual([
      [store.owner.email, "owner", false, null],
      [email.toLowerCase(), "finance", false, null],
    ]);

    const audit = await getTestDb().cabinetAuditEvent.findMany({ where: { merchantId: store.merchantId, action: { startsWith: "team." } }, orderBy: { createdAt: "asc" } });
    expect(audit.map((event) => [event.action, event.userId, event.actorEmail])).toEqual([
      ["team.invited", store.owner.userId, store.owner.email],
      ["team.joined", joined.userId, email.toLowerCase()],
    ]);
    expect(audit[0].detail).toMatchObject({ invitationId: invitation.id, role: "finance" });
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it("lets exactly one of ten racing accepts create the user", async () => {
    const store = await newStore();
    const context = deps();
    const email = newEmail("racer");
    await inviteMember(context, store.owner, { email, role: "viewer" }, origin);
    const token = await invitationToken(email);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => acceptInvitation(context, { token, password: PASSWORD }, origin)));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results) {
      if (result.status === "rejected") expect(result.reason).toMatchObject({ code: "cabinet.bad_invitation" });
    }
    expect(await getTestDb().cabinetUser.count({ where: { email } })).toBe(1);
    expect(await getTestDb().cabinetAuditEvent.count({ where: { merchantId: store.merchantId, action: "team.joined" } })).toBe(1);
  });

  it("lets one of two stores' invitations to one address in when both are accepted at once", async () => {
    const [first, second] = await Promise.all([newStore(), newStore()]);
    const context = deps();
    const email = newEmail("wanted");
    await inviteMember(context, first.owner, { email, role: "viewer" }, origin);
    const firstToken = await invitationToken(email);
    await inviteMember(context, second.owner, { email, role: "admin" }, origin);
    const secondToken = await invitationToken(email);
    const results = await Promise.allSettled([
      acceptInvitation(context, { token: firstToken, password: PASSWORD }, origin),
      acceptInvitation(context, { token: secondToken, password: PASSWORD }, origin),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.find((result) => result.status === "rejected")).toMatchObject({ reason: { code: "cabinet.email_taken" } });
    expect(await getTestDb().cabinetUser.count({ where: { email } })).toBe(1);
  });

  it("refuses expired and revoked invitations, and replaces a pending one by a new invitation", async () => {
    const store = await newStore();
    const clock = clockedDeps();
    const lateEmail = newEmail("late");
    await inviteMember(clock.deps, store.owner, { email: lateEmail, role: "viewer" }, origin);
    const lateToken = await invitationToken(lateEmail);

    const revokedEmail = newEmail("revoked");
    const revoked = await inviteMember(clock.deps, store.owner, { email: revokedEmail, role: "admin" }, origin);
    const revokedToken = await invitationToken(revokedEmail);
    await revokeInvitation(clock.deps, store.owner, revoked.id, origin);
    expect(await codeOf(describeInvitation(clock.deps, revokedToken))).toBe("cabinet.bad_invitation");
    expect(await codeOf(acceptInvitation(clock.deps, { token: revokedToken, password: PASSWORD }, origin))).toBe("cabinet.bad_invitation");
    expect(await codeOf(revokeInvitation(clock.deps, store.owner, revoked.id, origin))).toBe("cabinet.bad_invitation");

    const twiceEmail = newEmail("twice");
    const firstInvitation = await inviteMember(clock.deps, store.owner, { email: twiceEmail, role: "viewer" }, origin);
    const firstToken = await invitationToken(twiceEmail);
    clock.advance(1_000);
    const secondInvitation = await inviteMember(clock.deps, store.owner, { email: twiceEmail, role: "finance" }, origin);
    const secondToken = await invitationToken(twiceEmail);
    expect(secondToken).not.toBe(firstToken);
    expect(await codeOf(describeInvitation(clock.deps, firstToken))).toBe("cabinet.bad_invitation");
    expect(await describeInvitation(clock.deps, secondToken)).toMatchObject({ role: "finance" });
    const pending = (await listTeam(getTestDb(), store.merchantId, clock.deps.now())).invitations;
    expect(pending.map((invitation) => [invitation.email, invitation.role])).toEqual([
      [twiceEmail, "finance"],
      [lateEmail, "viewer"],
    ]);
    expect(pending.map((invitation) => invitation.id)).not.toContain(firstInvitation.id);
    expect(pending[0].id).toBe(secondInvitation.id);

    // A week after the first invitations, and a little less after the replacing one.
    clock.advance(INVITATION_LIFETIME_MS - 500);
    expect(await codeOf(describeInvitation(clock.deps, lateToken))).toBe("cabinet.bad_invitation");
    expect(await codeOf(acceptInvitation(clock.deps, { token: lateToken, password: PASSWORD }, origin))).toBe("cabinet.bad_invitation");
    expect((await listTeam(getTestDb(), store.merchantId, clock.deps.now())).invitations.map((invitation) => invitation.email)).toEqual([twiceEmail]);
    expect(await codeOf(describeInvitation(clock.deps, ""))).toBe("cabinet.bad_invitation");
    expect(await codeOf(describeInvitation(clock.deps, "not-a-token"))).toBe("cabinet.bad_invitation");

    const audit = await getTestDb().cabinetAuditEvent.findMany({ where: { merchantId: store.merchantId, action: "team.invitation_revoked" } });
    expect(audit.map((event) => event.detail)).toEqual([{ invitationId: revoked.id, email: revokedEmail }]);
  });

  it("refuses a taken address, a bad address and a role an invitation cannot carry", async () => {
    const store = await newStore();
    const other = await newStore();
    const context = deps();
    expect(await codeOf(inviteMember(context, store.owner, { email: other.owner.email, role: "viewer" }, origin))).toBe("cabinet.email_taken");
    expect(await codeOf(inviteMember(context, store.owner, { email: store.owner.email.toUpperCase(), role: "viewer" }, origin))).toBe("cabinet.email_taken");
    expect(await codeOf(inviteMember(context, store.owner, { email: "not an address", role: "viewer" }, origin))).toBe("cabinet.bad_request");
    expect(await codeOf(inviteMember(context, store.owner, { email: newEmail("boss"), role: "owner" }, origin))).toBe("cabinet.bad_request");
    expect(await codeOf(inviteMember(context, store.owner, { email: newEmail("who"), role: "superuser" }, origin))).toBe("cabinet.bad_request");
    expect(await getTestDb().cabinetInvitation.count({ where: { merchantId: store.merchantId } })).toBe(0);
  });

  it("changes roles; only an owner makes an owner; the last owner cannot step down", async () => {
    const store = await newStore();
    const context = deps();
    const member = await addMember(context, store.owner, "viewer");

    expect(await changeRole(context, store.owner, member.userId, "admin", origin)).toMatchObject({ id: member.userId, role: "admin" });
    expect(await resolveSession(getTestDb(), member.sessionId, new Date())).toMatchObject({ role: "admin" });
    expect(await codeOf(changeRole(context, store.owner, member.userId, "emperor", origin))).toBe("cabinet.bad_request");
    // An admin's request that got past a caller's check is still refused: owners run the team.
    const admin = { ...member, role: "admin" as const };
    expect(await codeOf(changeRole(context, admin, admin.userId, "owner", origin))).toBe("cabinet.forbidden");
    expect(await codeOf(removeMember(context, admin, store.owner.userId, origin))).toBe("cabinet.forbidden");

    expect(await codeOf(changeRole(context, store.owner, store.owner.userId, "admin", origin))).toBe("cabinet.last_owner");
    expect(await codeOf(removeMember(context, store.owner, store.owner.userId, origin))).toBe("cabinet.last_owner");

    const coOwner = await promoteToOwner(context, store.owner, member);
    expect(await activeOwners(store.merchantId)).toBe(2);
    // With two owners, one may step down; then the other is the last.
    await changeRole(context, store.owner, store.owner.userId, "finance", origin);
    expect(await codeOf(changeRole(context, coOwner, coOwner.userId, "viewer", origin))).toBe("cabinet.last_owner");
    // The demoted former owner can no longer change the team.
    expect(await codeOf(changeRole(context, store.owner, coOwner.userId, "viewer", origin))).toBe("cabinet.forbidden");

    const audit = await getTestDb().cabinetAuditEvent.findMany({ where: { merchantId: store.merchantId, action: "team.role_changed" } });
    expect(audit).toHaveLength(3);
    expect(audit.map((event) => event.detail)).toEqual(expect.arrayContaining([
      { userId: member.userId, email: member.email, from: "viewer", to: "admin" },
      { userId: member.userId, email: member.email, from: "admin", to: "owner" },
      { userId: store.owner.userId, email: store.owner.email, from: "owner", to: "finance" },
    ]));
  });

  it("keeps one owner when two owners remove each other, or both step down, at the same time", async () => {
    const context = deps();
    for (let round = 0; round < 3; round++) {
      const store = await newStore();
      const coOwner = await promoteToOwner(context, store.owner, await addMember(context, store.owner, "viewer"));
      const results = await Promise.allSettled([
        removeMember(context, store.owner, coOwner.userId, origin),
        removeMember(context, coOwner, store.owner.userId, origin),
      ]);
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      // The loser was removed by the winner, or (if it read first) would leave no owner.
      expect(["cabinet.forbidden", "cabinet.last_owner"]).toContain((results.find((result) => result.status === "rejected") as PromiseRejectedResult).reason.code);
      expect(await activeOwners(store.merchantId)).toBe(1);
    }
    for (let round = 0; round < 3; round++) {
      const store = await newStore();
      const coOwner = await promoteToOwner(context, store.owner, await addMember(context, store.owner, "viewer"));
      const results = await Promise.allSettled([
        changeRole(context, store.owner, store.owner.userId, "admin", origin),
        removeMember(context, coOwner, coOwner.userId, origin),
      ]);
      expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
      expect(results.find((result) => result.status === "rejected")).toMatchObject({ reason: { code: "cabinet.last_owner" } });
      expect(await activeOwners(store.merchantId)).toBe(1);
    }
  });

  it("removes a member: sessions end, tickets die, sign-in is refused, the row stays for the log", async () => {
    const store = await newStore();
    const context = deps();
    const member = await addMember(context, store.owner, "finance");
    const otherSession = await signIn(member.email);
    const ticket = await checkPassword(context, { email: member.email, password: PASSWORD }, { ...origin, ipAddress: "10.7.7.7" });

    await removeMember(context, store.owner, member.userId, origin);
    expect(await resolveSession(getTestDb(), member.sessionId, new Date())).toBeNull();
    expect(await resolveSession(getTestDb(), otherSession.sessionId, new Date())).toBeNull();
    expect(await resolveSession(getTestDb(), store.owner.sessionId, new Date())).not.toBeNull();
    expect(await codeOf(findLiveTicket(getTestDb(), ticket.token, ["enrol"], new Date()))).toBe("cabinet.bad_ticket");
    expect(await codeOf(checkPassword(context, { email: member.email, password: PASSWORD }, { ...origin, ipAddress: "10.7.7.8" }))).toBe("cabinet.bad_credentials");
    // Removed already: nothing left to remove or change.
    expect(await codeOf(removeMember(context, store.owner, member.userId, origin))).toBe("cabinet.not_found");
    expect(await codeOf(changeRole(context, store.owner, member.userId, "viewer", origin))).toBe("cabinet.not_found");
    // A removed address stays taken (addresses are unique across stores).
    expect(await codeOf(inviteMember(context, store.owner, { email: member.email, role: "viewer" }, origin))).toBe("cabinet.email_taken");

    const team = await listTeam(getTestDb(), store.merchantId, new Date());
    expect(team.members.map((entry) => [entry.email, entry.disabledAt !== null])).toEqual([
      [store.owner.email, false],
      [member.email, true],
    ]);
    const audit = await getTestDb().cabinetAuditEvent.findMany({ where: { merchantId: store.merchantId, action: "team.removed" } });
    expect(audit.map((event) => event.detail)).toEqual([{ userId: member.userId, email: member.email, role: "finance", isSelf: false }]);

    // A member (and an owner who is not the last) may leave by themselves.
    const leaver = await addMember(context, store.owner, "viewer");
    await removeMember(context, leaver, leaver.userId, origin);
    expect(await resolveSession(getTestDb(), leaver.sessionId, new Date())).toBeNull();
    const coOwner = await promoteToOwner(context, store.owner, await addMember(context, store.owner, "viewer"));
    await removeMember(context, coOwner, coOwner.userId, origin);
    expect(await resolveSession(getTestDb(), coOwner.sessionId, new Date())).toBeNull();
    expect(await activeOwners(store.merchantId)).toBe(1);
  });

  it("keeps each merchant to its own team", async () => {
    const mine = await newStore();
    const theirs = await newStore();
    const context = deps();
    const theirMember = await addMember(context, theirs.owner, "viewer");
    const theirInvitation = await inviteMember(context, theirs.owner, { email: newEmail("theirs"), role: "admin" }, origin);
    await inviteMember(context, mine.owner, { email: newEmail("mine"), role: "viewer" }, origin);

    expect(await codeOf(changeRole(context, mine.owner, theirMember.userId, "admin", origin))).toBe("cabinet.not_found");
    expect(await codeOf(changeRole(context, mine.owner, theirs.owner.userId, "viewer", origin))).toBe("cabinet.not_found");
    expect(await codeOf(removeMember(context, mine.owner, theirMember.userId, origin))).toBe("cabinet.not_found");
    expect(await codeOf(removeMember(context, mine.owner, theirs.owner.userId, origin))).toBe("cabinet.not_found");
    expect(await codeOf(revokeInvitation(context, mine.owner, theirInvitation.id, origin))).toBe("cabinet.not_found");
    expect(await codeOf(removeMember(context, mine.owner, "not-a-uuid", origin))).toBe("cabinet.not_found");
    expect(await codeOf(changeRole(context, mine.owner, randomUUID(), "viewer", origin))).toBe("cabinet.not_found");
    expect(await codeOf(revokeInvitation(context, mine.owner, "42", origin))).toBe("cabinet.not_found");
    // An actor whose merchant id is not theirs is not on that team.
    expect(await codeOf(removeMember(context, { ...mine.owner, merchantId: theirs.merchantId }, theirMember.userId, origin))).toBe("cabinet.forbidden");

    const myTeam = await listTeam(getTestDb(), mine.merchantId, new Date());
    expect(myTeam.members.map((member) => member.id)).toEqual([mine.owner.userId]);
    expect(myTeam.invitations.map((invitation) => invitation.invitedByEmail)).toEqual([mine.owner.email]);
    const theirTeam = await listTeam(getTestDb(), theirs.merchantId, new Date());
    expect(theirTeam.members.map((member) => member.id)).toEqual([theirs.owner.userId, theirMember.userId]);
    expect(theirTeam.invitations.map((invitation) => invitation.id)).toEqual([theirInvitation.id]);
    expect(await activeOwners(theirs.merchantId)).toBe(1);
    expect((await getTestDb().cabinetUser.findUniqueOrThrow({ where: { id: theirMember.userId } })).role).toBe("viewer");
  });
});
