import { z } from "zod";
import { createApiKey, revokeApiKey, rotateApiKey } from "@/lib/services/cabinet/api-keys";
import { changeRole, inviteMember, removeMember, revokeInvitation } from "@/lib/services/cabinet/team";
import { runUnit } from "@/lib/deps/unit-of-work";
import { defineCabinetAction, type CabinetActionEntry } from "../action-table";

const invalid = "cabinet.bad_request" as const;
const byId = { schema: z.object({ id: z.string().max(64) }), invalidBody: invalid };
const byPublicId = { schema: z.object({ public_id: z.string().max(128) }), invalidBody: invalid };

/** Team and API keys: who may sign in to the store, and what may call its API. Each unit records its own audit row, in its transaction. */
export const TEAM_ACTIONS = {
  "team.invite": defineCabinetAction({
    permission: "team",
    audit: "team.invited",
    auditedByService: true,
    input: { schema: z.object({ email: z.string().max(254), role: z.string().max(16) }), invalidBody: invalid },
    run: async ({ deps, actor, origin }, input) => {
      const invitation = await runUnit(deps, inviteMember, { actor, origin, ...input });
      return { id: invitation.id, email: invitation.email, role: invitation.role, url: invitation.url };
    },
  }),
  "team.revoke_invitation": defineCabinetAction({
    permission: "team",
    audit: "team.invitation_revoked",
    auditedByService: true,
    input: byId,
    run: async ({ deps, actor, origin }, input) => {
      await runUnit(deps, revokeInvitation, { actor, origin, invitationId: input.id });
      return { revoked: true };
    },
  }),
  "team.change_role": defineCabinetAction({
    permission: "team",
    audit: "team.role_changed",
    auditedByService: true,
    input: { schema: z.object({ id: z.string().max(64), role: z.string().max(16) }), invalidBody: invalid },
    run: async ({ deps, actor, origin }, input) => {
      const member = await runUnit(deps, changeRole, { actor, origin, userId: input.id, role: input.role });
      return { id: member.id, role: member.role };
    },
  }),
  "team.remove": defineCabinetAction({
    permission: "team",
    audit: "team.removed",
    auditedByService: true,
    input: byId,
    run: async ({ deps, actor, origin }, input) => {
      await runUnit(deps, removeMember, { actor, origin, userId: input.id });
      return { removed: true };
    },
  }),
  "api_key.create": defineCabinetAction({
    permission: "api_keys",
    audit: "api_key.created",
    auditedByService: true,
    input: { schema: z.object({ kind: z.string().max(16) }), invalidBody: invalid },
    run: async ({ deps, actor, origin }, input) => {
      const issued = await runUnit(deps, createApiKey, { actor, origin, kind: input.kind });
      return { public_id: issued.publicId, secret: issued.secret, kind: issued.kind };
    },
  }),
  "api_key.revoke": defineCabinetAction({
    permission: "api_keys",
    audit: "api_key.revoked",
    auditedByService: true,
    input: byPublicId,
    run: async ({ deps, actor, origin }, input) => {
      const revoked = await runUnit(deps, revokeApiKey, { actor, origin, publicId: input.public_id });
      return { public_id: revoked.publicId, revoked_at: revoked.revokedAt };
    },
  }),
  "api_key.rotate": defineCabinetAction({
    permission: "api_keys",
    audit: "api_key.rotated",
    auditedByService: true,
    input: byPublicId,
    run: async ({ deps, actor, origin }, input) => {
      const rotated = await runUnit(deps, rotateApiKey, { actor, origin, publicId: input.public_id });
      return { revoked: rotated.revoked.publicId, public_id: rotated.issued.publicId, secret: rotated.issued.secret, kind: rotated.revoked.kind };
    },
  }),
} satisfies Record<string, CabinetActionEntry>;
