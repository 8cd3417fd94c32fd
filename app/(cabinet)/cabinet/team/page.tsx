import type { Metadata } from "next";
import { PageHeader } from "@/components/cabinet/page-kit";
import { TeamManager } from "@/components/cabinet/team-manager";
import { getApiDeps } from "@/lib/api/deps";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { roleAllows } from "@/lib/domain/cabinet/permissions";
import { listTeam } from "@/lib/services/cabinet/team";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage() {
  const actor = await requireActorForPage();
  const deps = getApiDeps();
  const team = await listTeam(deps.db, actor.merchantId, deps.now());
  const canManage = roleAllows(actor.role, "team");
  return (
    <>
      <PageHeader
        title="Team"
        description="Who signs in to this store and what each may do. Every change asks for a fresh code. A manual payout is approved by someone other than its creator."
      />
      <TeamManager
        canManage={canManage}
        isOwner={actor.role === "owner"}
        members={team.members
          .filter((member) => !member.disabledAt)
          .map((member) => ({
            id: member.id,
            email: member.email,
            role: member.role,
            twoFactorEnabled: member.twoFactorEnabled,
            isEnrolmentExpired: member.isEnrolmentExpired,
            createdAt: member.createdAt.toISOString(),
            isYou: member.id === actor.userId,
          }))}
        invitations={team.invitations.map((invitation) => ({
          id: invitation.id,
          email: invitation.email,
          role: invitation.role,
          expiresAt: invitation.expiresAt.toISOString(),
          invitedByEmail: invitation.invitedByEmail,
        }))}
      />
    </>
  );
}
