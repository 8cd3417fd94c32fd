import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { findActiveApiKey } from "@/lib/auth/api-keys";
import type { CabinetRole } from "@/lib/domain/cabinet/permissions";
import { actionContext, addMember, movingClock, newStore } from "@/lib/testing/cabinet";
import { getTestDb, getTestSecretBox } from "@/lib/testing/harness";
import { runCabinetAction } from "../run-action";

// Team and API-key actions through the cabinet's one runner: the role's permission, the fresh
// code, the service — and a secret shown once.

/** An enrolled owner, the context its page hands the runner, and a code source that never repeats a step. */
async function enrolledOwner() {
  const clock = movingClock();
  const { merchantId, owner } = await newStore(clock, "Shop");
  return { merchantId, actor: owner.actor, context: actionContext(clock, owner), nextCode: () => clock.nextCode(owner.secret), clock };
}

/** A signed-in team member of a role (no second factor needed to act without sensitive actions). */
async function memberOf(owner: Awaited<ReturnType<typeof enrolledOwner>>, role: CabinetRole) {
  return actionContext(owner.clock, await addMember(owner.clock, owner.merchantId, role, { enrol: false }));
}

describe("team and API-key actions", () => {
  it("creates, rotates and revokes API keys only with a fresh code; the rotated-away key stops working", async () => {
    const owner = await enrolledOwner();
    expect(await runCabinetAction(owner.context, "api_key.create", { kind: "payment" })).toMatchObject({ ok: false, code: "cabinet.code_required" });
    const created = await runCabinetAction(owner.context, "api_key.create", { kind: "payment" }, await owner.nextCode());
    expect(created.ok).toBe(true);
    const key = (created as { result: { public_id: string; secret: string } }).result;
    expect(key.secret.length).toBeGreaterThan(20);
    expect(await findActiveApiKey(getTestDb(), getTestSecretBox(), key.public_id)).not.toBeNull();

    // spec (issue): rotation without a fresh code is refused, and changes nothing.
    expect(await runCabinetAction(owner.context, "api_key.rotate", { public_id: key.public_id })).toMatchObject({ ok: false, code: "cabinet.code_required" });
    expect(await runCabinetAction(owner.context, "api_key.rotate", { public_id: key.public_id }, "000000")).toMatchObject({ ok: false, code: "cabinet.bad_code" });
    expect(await findActiveApiKey(getTestDb(), getTestSecretBox(), key.public_id)).not.toBeNull();

    const code = await owner.nextCode();
    const rotated = await runCabinetAction(owner.context, "api_key.rotate", { public_id: key.public_id }, code);
    expect(rotated.ok).toBe(true);
    const successor = (rotated as { result: { public_id: string; revoked: string } }).result;
    expect(successor.revoked).toBe(key.public_id);
    expect(await findActiveApiKey(getTestDb(), getTestSecretBox(), key.public_id)).toBeNull();
    expect(await findActiveApiKey(getTestDb(), getTestSecretBox(), successor.public_id)).not.toBeNull();
    // The same code cannot authorise a second sensitive action.
    expect(await runCabinetAction(owner.context, "api_key.revoke", { public_id: successor.public_id }, code)).toMatchObject({ ok: false, code: "cabinet.bad_code" });

    const audit = await getTestDb().cabinetAuditEvent.findMany({ where: { merchantId: owner.merchantId, action: { startsWith: "api_key." } } });
    expect(audit.map((event) => `${event.action}:${event.outcome}`).sort()).toEqual(["api_key.created:refused", "api_key.created:success", "api_key.rotated:refused", "api_key.rotated:success"]);
    // No secret in the audit log.
    expect(JSON.stringify(audit)).not.toContain(key.secret);
  });

  it("lets each role do only its part", async () => {
    const owner = await enrolledOwner();
    for (const role of ["finance", "viewer"] as const) {
      const member = await memberOf(owner, role);
      expect(await runCabinetAction(member, "api_key.create", { kind: "payment" }, "123456")).toMatchObject({ ok: false, code: "cabinet.forbidden" });
      expect(await runCabinetAction(member, "team.invite", { email: "x@example.com", role: "viewer" }, "123456")).toMatchObject({ ok: false, code: "cabinet.forbidden" });
    }
    const admin = await memberOf(owner, "admin");
    expect(await runCabinetAction(admin, "team.invite", { email: "x@example.com", role: "viewer" }, "123456")).toMatchObject({ ok: false, code: "cabinet.forbidden" });
    expect(await runCabinetAction(owner.context, "no.such_action", {})).toMatchObject({ ok: false, code: "cabinet.bad_request" });
  });

  it("invites with a fresh code and returns the link once; another store's ids are not found", async () => {
    const owner = await enrolledOwner();
    const other = await enrolledOwner();
    const invited = await runCabinetAction(owner.context, "team.invite", { email: `finance-${randomUUID()}@example.com`, role: "finance" }, await owner.nextCode());
    expect(invited).toMatchObject({ ok: true, result: { role: "finance", url: expect.stringContaining("/cabinet/invite/") } });
    const invitationId = (invited as { result: { id: string } }).result.id;
    expect(await runCabinetAction(other.context, "team.revoke_invitation", { id: invitationId }, await other.nextCode())).toMatchObject({ ok: false, code: "cabinet.not_found" });
    expect(await runCabinetAction(other.context, "team.remove", { id: owner.actor.userId }, await other.nextCode())).toMatchObject({ ok: false, code: "cabinet.not_found" });
    expect(await getTestDb().cabinetInvitation.findUniqueOrThrow({ where: { id: invitationId } })).toMatchObject({ revokedAt: null });
    expect(await getTestDb().cabinetUser.findUniqueOrThrow({ where: { id: owner.actor.userId } })).toMatchObject({ disabledAt: null });
  });
});
