import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createStore, movingClock, newEmail, openSessionFor, refusalCodeOf, TEST_ORIGIN, TEST_PASSWORD } from "@/lib/testing/cabinet";
import { getTestDb, makeTestDeps } from "@/lib/testing/harness";
import type { ApiDeps } from "@/lib/api/deps";
import { runUnit } from "@/lib/deps/unit-of-work";
import { resolveSession, type CabinetActor } from "./sessions";
import { checkPassword } from "@/lib/cabinet/sign-in";
import { findLiveTicket } from "./sign-in";
import { acceptInvitation, changeRole, describeInvitation, INVITATION_LIFETIME_MS, inviteMember, listTeam, removeMember, revokeInvitation } from "./team";

// The team: invitations by e-mail (one live per address, a week long, taken once), role changes,
// removals, the last-owner guard under races, and isolation between merchants.

const deps = () => makeTestDeps();

/** A merchant with its owner, signed in (a session row exists). */
async function newStore(name = "Team shop") {
  const { merchantId, ownerEmail } = await createStore(name);
  return { merchantId, name, owner: await openSessionFor(ownerEmail) };
}

/** The token of the last invitation e-mailed to an address, read off the link in the outbox. */
async function invitationToken(email: string): Promise<string> {
  const message = await getTestDb().outboundEmail.findFirstOrThrow({ where: { recipient: email }, orderBy: { createdAt: "desc" } });
  const match = message.text.match(/http:\/\/gateway\.test\/cabinet\/invite\/([A-Za-z0-9_-]+)/);
  if (!match) throw new Error(`no invitation link in: ${message.text}`);
  return match[1];
}

/** Invites, accepts and signs in a member with a role. */
async function addMember(context: ApiDeps, actor: CabinetActor, role: string): Promise<CabinetActor> {
  const email = newEmail(role);
  await runUnit(context, inviteMember, { actor: actor, origin: TEST_ORIGIN, email, role });
  await runUnit(context, acceptInvitation, { token: await invitationToken(email), password: TEST_PASSWORD, origin: TEST_ORIGIN });
  return openSessionFor(email);
}

async function promoteToOwner(context: ApiDeps, owner: CabinetActor, member: CabinetActor): Promise<CabinetActor> {
  await runUnit(context, changeRole, { actor: owner, origin: TEST_ORIGIN, userId: member.userId, role: "owner" });
  return { ...member, role: "owner" };
}

const activeOwners = (merchantId: string) => getTestDb().cabinetUser.count({ where: { merchantId, role: "owner", disabledAt: null } });

function omitUrl<T extends { url: string }>({ url: _url, ...rest }: T): Omit<T, "url"> {
  return rest;
}

describe("cabinet team", () => {
  it("an invitation dies with its inviter's right to invite: a removed or demoted owner cannot come back through a link they sent", async () => {
    const store = await newStore("Inviter shop");
    const context = deps();
    const second = await promoteToOwner(context, store.owner, await addMember(context, store.owner, "admin"));
    const [toRemove, toDemote] = [newEmail("Removed").toLowerCase(), newEmail("Demoted").toLowerCase()];
    await runUnit(context, inviteMember, { actor: second, origin: TEST_ORIGIN, email: toRemove, role: "admin" });
    const removedToken = await invitationToken(toRemove);
    expect(await describeInvitation(context, removedToken)).toMatchObject({ email: toRemove, role: "admin" });

    await runUnit(context, changeRole, { actor: store.owner, origin: TEST_ORIGIN, userId: second.userId, role: "admin" });
    expect(await refusalCodeOf(describeInvitation(context, removedToken))).toBe("cabinet.bad_invitation");
    expect(await refusalCodeOf(runUnit(context, acceptInvitation, { token: removedToken, password: TEST_PASSWORD, origin: TEST_ORIGIN }))).toBe("cabinet.bad_invitation");

    // Made owner again, the link works again; removed, it dies for good.
    await runUnit(context, changeRole, { actor: store.owner, origin: TEST_ORIGIN, userId: second.userId, role: "owner" });
    await runUnit(context, inviteMember, { actor: second, origin: TEST_ORIGIN, email: toDemote, role: "viewer" });
    const demotedToken = await invitationToken(toDemote);
    expect(await describeInvitation(context, demotedToken)).toMatchObject({ role: "viewer" });
    await runUnit(context, removeMember, { actor: store.owner, origin: TEST_ORIGIN, userId: second.userId });
    expect(await refusalCodeOf(runUnit(context, acceptInvitation, { token: demotedToken, password: TEST_PASSWORD, origin: TEST_ORIGIN }))).toBe("cabinet.bad_invitation");
    expect(await getTestDb().cabinetUser.count({ where: { email: { in: [toRemove, toDemote] } } })).toBe(0);
  });

  it("invites by e-mail, describes the link, accepts it once, and the new member signs in with the password", async () => {
    const store = await newStore("Invite shop");
    const context = deps();
    const email = newEmail("Finance").toUpperCase();
    const invitation = await runUnit(context, inviteMember, { actor: store.owner, origin: TEST_ORIGIN, email: ` ${email} `, role: "finance" });
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

    expect(await refusalCodeOf(runUnit(context, acceptInvitation, { token, password: "short", origin: TEST_ORIGIN }))).toBe("cabinet.weak_password");
    const joined = await runUnit(context, acceptInvitation, { token, password: TEST_PASSWORD, origin: TEST_ORIGIN });
    expect(joined).toMatchObject({ merchantId: store.merchantId, email: email.toLowerCase(), role: "finance" });
    expect(await refusalCodeOf(runUnit(context, acceptInvitation, { token, password: TEST_PASSWORD, origin: TEST_ORIGIN }))).toBe("cabinet.bad_invitation");
    expect(await refusalCodeOf(describeInvitation(context, token))).toBe("cabinet.bad_invitation");

    const ticket = await checkPassword(context, { email, password: TEST_PASSWORD }, { ...TEST_ORIGIN, ipAddress: "10.9.9.9" });
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
    await runUnit(context, inviteMember, { actor: store.owner, origin: TEST_ORIGIN, email, role: "viewer" });
    const token = await invitationToken(email);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => runUnit(context, acceptInvitation, { token, password: TEST_PASSWORD, origin: TEST_ORIGIN })));
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
    await runUnit(context, inviteMember, { actor: first.owner, origin: TEST_ORIGIN, email, role: "viewer" });
    const firstToken = await invitationToken(email);
    await runUnit(context, inviteMember, { actor: second.owner, origin: TEST_ORIGIN, email, role: "admin" });
    const secondToken = await invitationToken(email);
    const results = await Promise.allSettled([
      runUnit(context, acceptInvitation, { token: firstToken, password: TEST_PASSWORD, origin: TEST_ORIGIN }),
      runUnit(context, acceptInvitation, { token: secondToken, password: TEST_PASSWORD, origin: TEST_ORIGIN }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.find((result) => result.status === "rejected")).toMatchObject({ reason: { code: "cabinet.bad_invitation" } });
    expect(await getTestDb().cabinetUser.count({ where: { email } })).toBe(1);
  });

  it("refuses expired and revoked invitations, and replaces a pending one by a new invitation", async () => {
    const store = await newStore();
    const clock = movingClock();
    const lateEmail = newEmail("late");
    await runUnit(clock.deps, inviteMember, { actor: store.owner, origin: TEST_ORIGIN, email: lateEmail, role: "viewer" });
    const lateToken = await invitationToken(lateEmail);

    const revokedEmail = newEmail("revoked");
    const revoked = await runUnit(clock.deps, inviteMember, { actor: store.owner, origin: TEST_ORIGIN, email: revokedEmail, role: "admin" });
    const revokedToken = await invitationToken(revokedEmail);
    await runUnit(clock.deps, revokeInvitation, { actor: store.owner, origin: TEST_ORIGIN, invitationId: revoked.id });
    expect(await refusalCodeOf(describeInvitation(clock.deps, revokedToken))).toBe("cabinet.bad_invitation");
    expect(await refusalCodeOf(runUnit(clock.deps, acceptInvitation, { token: revokedToken, password: TEST_PASSWORD, origin: TEST_ORIGIN }))).toBe("cabinet.bad_invitation");
    expect(await refusalCodeOf(runUnit(clock.deps, revokeInvitation, { actor: store.owner, origin: TEST_ORIGIN, invitationId: revoked.id }))).toBe("cabinet.bad_invitation");

    const twiceEmail = newEmail("twice");
    const firstInvitation = await runUnit(clock.deps, inviteMember, { actor: store.owner, origin: TEST_ORIGIN, email: twiceEmail, role: "viewer" });
    const firstToken = await invitationToken(twiceEmail);
    clock.advance(1_000);
    const secondInvitation = await runUnit(clock.deps, inviteMember, { actor: store.owner, origin: TEST_ORIGIN, email: twiceEmail, role: "finance" });
    const secondToken = await invitationToken(twiceEmail);
    expect(secondToken).not.toBe(firstToken);
    expect(await refusalCodeOf(describeInvitation(clock.deps, firstToken))).toBe("cabinet.bad_invitation");
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
    expect(await refusalCodeOf(describeInvitation(clock.deps, lateToken))).toBe("cabinet.bad_invitation");
    expect(await refusalCodeOf(runUnit(clock.deps, acceptInvitation, { token: lateToken, password: TEST_PASSWORD, origin: TEST_ORIGIN }))).toBe("cabinet.bad_invitation");
    expect((await listTeam(getTestDb(), store.merchantId, clock.deps.now())).invitations.map((invitation) => invitation.email)).toEqual([twiceEmail]);
    expect(await refusalCodeOf(describeInvitation(clock.deps, ""))).toBe("cabinet.bad_invitation");
    expect(await refusalCodeOf(describeInvitation(clock.deps, "not-a-token"))).toBe("cabinet.bad_invitation");

    const audit = await getTestDb().cabinetAuditEvent.findMany({ where: { merchantId: store.merchantId, action: "team.invitation_revoked" } });
    expect(audit.map((event) => event.detail)).toEqual([{ invitationId: revoked.id, email: revokedEmail }]);
  });

  it("refuses its own members' addresses, a bad address and a role an invitation cannot carry; tells nothing of other stores", async () => {
    const store = await newStore();
    const other = await newStore();
    const context = deps();
    // Another store's user is invited as anyone: the answer says nothing; the e-mail carries no
    // link, and the link the inviter got leads nowhere, with a used link's answer.
    const invited = await runUnit(context, inviteMember, { actor: store.owner, origin: TEST_ORIGIN, email: other.owner.email, role: "viewer" });
    expect(invited).toMatchObject({ email: other.owner.email.toLowerCase(), role: "viewer", url: expect.stringContaining("/cabinet/invite/") });
    const mail = await getTestDb().outboundEmail.findFirstOrThrow({ where: { recipient: other.owner.email.toLowerCase(), merchantId: store.merchantId } });
    expect(mail.text).not.toContain("/cabinet/invite/");
    expect(mail.text).toContain("already has an account");
    const token = decodeURIComponent(invited.url.split("/cabinet/invite/")[1]);
    expect(await refusalCodeOf(runUnit(context, acceptInvitation, { token, password: TEST_PASSWORD, origin: TEST_ORIGIN }))).toBe("cabinet.bad_invitation");
    expect(await refusalCodeOf(runUnit(context, inviteMember, { actor: store.owner, origin: TEST_ORIGIN, email: store.owner.email.toUpperCase(), role: "viewer" }))).toBe("cabinet.email_taken");
    expect(await refusalCodeOf(runUnit(context, inviteMember, { actor: store.owner, origin: TEST_ORIGIN, email: "not an address", role: "viewer" }))).toBe("cabinet.bad_request");
    expect(await refusalCodeOf(runUnit(context, inviteMember, { actor: store.owner, origin: TEST_ORIGIN, email: newEmail("boss"), role: "owner" }))).toBe("cabinet.bad_request");
    expect(await refusalCodeOf(runUnit(context, inviteMember, { actor: store.owner, origin: TEST_ORIGIN, email: newEmail("who"), role: "superuser" }))).toBe("cabinet.bad_request");
    // The refused ones left nothing; the other store's address has its invitation, pending, never usable.
    expect(await getTestDb().cabinetInvitation.findMany({ where: { merchantId: store.merchantId }, select: { email: true, acceptedAt: true } })).toEqual([{ email: other.owner.email.toLowerCase(), acceptedAt: null }]);
  });

  it("changes roles; only an owner makes an owner; the last owner cannot step down", async () => {
    const store = await newStore();
    const context = deps();
    const member = await addMember(context, store.owner, "viewer");

    expect(await runUnit(context, changeRole, { actor: store.owner, origin: TEST_ORIGIN, userId: member.userId, role: "admin" })).toMatchObject({ id: member.userId, role: "admin" });
    expect(await resolveSession(getTestDb(), member.sessionId, new Date())).toMatchObject({ role: "admin" });
    expect(await refusalCodeOf(runUnit(context, changeRole, { actor: store.owner, origin: TEST_ORIGIN, userId: member.userId, role: "emperor" }))).toBe("cabinet.bad_request");
    // An admin's request that got past a caller's check is still refused: owners run the team.
    const admin = { ...member, role: "admin" as const };
    expect(await refusalCodeOf(runUnit(context, changeRole, { actor: admin, origin: TEST_ORIGIN, userId: admin.userId, role: "owner" }))).toBe("cabinet.forbidden");
    expect(await refusalCodeOf(runUnit(context, removeMember, { actor: admin, origin: TEST_ORIGIN, userId: store.owner.userId }))).toBe("cabinet.forbidden");

    expect(await refusalCodeOf(runUnit(context, changeRole, { actor: store.owner, origin: TEST_ORIGIN, userId: store.owner.userId, role: "admin" }))).toBe("cabinet.last_owner");
    expect(await refusalCodeOf(runUnit(context, removeMember, { actor: store.owner, origin: TEST_ORIGIN, userId: store.owner.userId }))).toBe("cabinet.last_owner");

    const coOwner = await promoteToOwner(context, store.owner, member);
    expect(await activeOwners(store.merchantId)).toBe(2);
    // With two owners, one may step down; then the other is the last.
    await runUnit(context, changeRole, { actor: store.owner, origin: TEST_ORIGIN, userId: store.owner.userId, role: "finance" });
    expect(await refusalCodeOf(runUnit(context, changeRole, { actor: coOwner, origin: TEST_ORIGIN, userId: coOwner.userId, role: "viewer" }))).toBe("cabinet.last_owner");
    // The demoted former owner can no longer change the team.
    expect(await refusalCodeOf(runUnit(context, changeRole, { actor: store.owner, origin: TEST_ORIGIN, userId: coOwner.userId, role: "viewer" }))).toBe("cabinet.forbidden");

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
        runUnit(context, removeMember, { actor: store.owner, origin: TEST_ORIGIN, userId: coOwner.userId }),
        runUnit(context, removeMember, { actor: coOwner, origin: TEST_ORIGIN, userId: store.owner.userId }),
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
        runUnit(context, changeRole, { actor: store.owner, origin: TEST_ORIGIN, userId: store.owner.userId, role: "admin" }),
        runUnit(context, removeMember, { actor: coOwner, origin: TEST_ORIGIN, userId: coOwner.userId }),
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
    const otherSession = await openSessionFor(member.email);
    const ticket = await checkPassword(context, { email: member.email, password: TEST_PASSWORD }, { ...TEST_ORIGIN, ipAddress: "10.7.7.7" });

    await runUnit(context, removeMember, { actor: store.owner, origin: TEST_ORIGIN, userId: member.userId });
    expect(await resolveSession(getTestDb(), member.sessionId, new Date())).toBeNull();
    expect(await resolveSession(getTestDb(), otherSession.sessionId, new Date())).toBeNull();
    expect(await resolveSession(getTestDb(), store.owner.sessionId, new Date())).not.toBeNull();
    expect(await refusalCodeOf(findLiveTicket(getTestDb(), ticket.token, ["enrol"], new Date()))).toBe("cabinet.bad_ticket");
    expect(await refusalCodeOf(checkPassword(context, { email: member.email, password: TEST_PASSWORD }, { ...TEST_ORIGIN, ipAddress: "10.7.7.8" }))).toBe("cabinet.bad_credentials");
    // Removed already: nothing left to remove or change.
    expect(await refusalCodeOf(runUnit(context, removeMember, { actor: store.owner, origin: TEST_ORIGIN, userId: member.userId }))).toBe("cabinet.not_found");
    expect(await refusalCodeOf(runUnit(context, changeRole, { actor: store.owner, origin: TEST_ORIGIN, userId: member.userId, role: "viewer" }))).toBe("cabinet.not_found");
    // A removed address stays taken (addresses are unique across stores).
    expect(await refusalCodeOf(runUnit(context, inviteMember, { actor: store.owner, origin: TEST_ORIGIN, email: member.email, role: "viewer" }))).toBe("cabinet.email_taken");

    const team = await listTeam(getTestDb(), store.merchantId, new Date());
    expect(team.members.map((entry) => [entry.email, entry.disabledAt !== null])).toEqual([
      [store.owner.email, false],
      [member.email, true],
    ]);
    const audit = await getTestDb().cabinetAuditEvent.findMany({ where: { merchantId: store.merchantId, action: "team.removed" } });
    expect(audit.map((event) => event.detail)).toEqual([{ userId: member.userId, email: member.email, role: "finance", isSelf: false }]);

    // A member (and an owner who is not the last) may leave by themselves.
    const leaver = await addMember(context, store.owner, "viewer");
    await runUnit(context, removeMember, { actor: leaver, origin: TEST_ORIGIN, userId: leaver.userId });
    expect(await resolveSession(getTestDb(), leaver.sessionId, new Date())).toBeNull();
    const coOwner = await promoteToOwner(context, store.owner, await addMember(context, store.owner, "viewer"));
    await runUnit(context, removeMember, { actor: coOwner, origin: TEST_ORIGIN, userId: coOwner.userId });
    expect(await resolveSession(getTestDb(), coOwner.sessionId, new Date())).toBeNull();
    expect(await activeOwners(store.merchantId)).toBe(1);
  });

  it("keeps each merchant to its own team", async () => {
    const mine = await newStore();
    const theirs = await newStore();
    const context = deps();
    const theirMember = await addMember(context, theirs.owner, "viewer");
    const theirInvitation = await runUnit(context, inviteMember, { actor: theirs.owner, origin: TEST_ORIGIN, email: newEmail("theirs"), role: "admin" });
    await runUnit(context, inviteMember, { actor: mine.owner, origin: TEST_ORIGIN, email: newEmail("mine"), role: "viewer" });

    expect(await refusalCodeOf(runUnit(context, changeRole, { actor: mine.owner, origin: TEST_ORIGIN, userId: theirMember.userId, role: "admin" }))).toBe("cabinet.not_found");
    expect(await refusalCodeOf(runUnit(context, changeRole, { actor: mine.owner, origin: TEST_ORIGIN, userId: theirs.owner.userId, role: "viewer" }))).toBe("cabinet.not_found");
    expect(await refusalCodeOf(runUnit(context, removeMember, { actor: mine.owner, origin: TEST_ORIGIN, userId: theirMember.userId }))).toBe("cabinet.not_found");
    expect(await refusalCodeOf(runUnit(context, removeMember, { actor: mine.owner, origin: TEST_ORIGIN, userId: theirs.owner.userId }))).toBe("cabinet.not_found");
    expect(await refusalCodeOf(runUnit(context, revokeInvitation, { actor: mine.owner, origin: TEST_ORIGIN, invitationId: theirInvitation.id }))).toBe("cabinet.not_found");
    expect(await refusalCodeOf(runUnit(context, removeMember, { actor: mine.owner, origin: TEST_ORIGIN, userId: "not-a-uuid" }))).toBe("cabinet.not_found");
    expect(await refusalCodeOf(runUnit(context, changeRole, { actor: mine.owner, origin: TEST_ORIGIN, userId: randomUUID(), role: "viewer" }))).toBe("cabinet.not_found");
    expect(await refusalCodeOf(runUnit(context, revokeInvitation, { actor: mine.owner, origin: TEST_ORIGIN, invitationId: "42" }))).toBe("cabinet.not_found");
    // An actor whose merchant id is not theirs is not on that team.
    expect(await refusalCodeOf(runUnit(context, removeMember, { actor: { ...mine.owner, merchantId: theirs.merchantId }, origin: TEST_ORIGIN, userId: theirMember.userId }))).toBe("cabinet.forbidden");

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
