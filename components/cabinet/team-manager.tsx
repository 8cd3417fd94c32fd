"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Alert, Field, INPUT_CLASS } from "./form-controls";
import { DataTable, EmptyState, Panel, StatusBadge, Time } from "./page-kit";
import { useCabinetAction } from "./use-cabinet-action";

export interface TeamMemberRow {
  id: string;
  email: string;
  role: string;
  twoFactorEnabled: boolean;
  /** Not set up within the deadline: can no longer sign in; inviting the address again replaces them. */
  isEnrolmentExpired: boolean;
  createdAt: string;
  isYou: boolean;
}

export interface InvitationRow {
  id: string;
  email: string;
  role: string;
  expiresAt: string;
  invitedByEmail: string | null;
}

const ROLE_WORDS: Record<string, string> = {
  owner: "Owner — everything, including the team",
  admin: "Admin — settings, API keys and money",
  finance: "Finance — refunds, payouts and links",
  viewer: "Viewer — reads only",
};

/** The team: members with their roles, pending invitations, and inviting someone. */
export function TeamManager({ members, invitations, canManage, isOwner }: { members: TeamMemberRow[]; invitations: InvitationRow[]; canManage: boolean; isOwner: boolean }) {
  const { run, isPending, dialog } = useCabinetAction();
  const [error, setError] = useState<string | null>(null);
  const [invited, setInvited] = useState<{ email: string; url: string } | null>(null);

  const act = async (name: string, input: unknown) => {
    setError(null);
    const result = await run(name, input);
    if (result && !result.ok) setError(result.message);
    return result;
  };
  const invite = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const result = await act("team.invite", { email: String(data.get("email") ?? ""), role: String(data.get("role") ?? "") });
    if (result?.ok) {
      setInvited(result.result as { email: string; url: string });
      form.reset();
    }
  };

  return (
    <>
      {dialog}
      {error ? (
        <div className="mb-4">
          <Alert>{error}</Alert>
        </div>
      ) : null}
      <Panel title="Members" id="members">
        <DataTable caption="Team members" headers={["Email", "Role", "Two-factor", "Since", canManage ? "Actions" : ""]}>
          {members.map((member) => (
            <tr key={member.id}>
              <td className="break-all">
                {member.email} {member.isYou ? <span className="text-(--ui-muted)">(you)</span> : null}
              </td>
              <td>
                {canManage && (isOwner || member.role !== "owner") ? (
                  <select
                    aria-label={`Role of ${member.email}`}
                    value={member.role}
                    disabled={isPending}
                    onChange={(event) => void act("team.change_role", { id: member.id, role: event.target.value })}
                    className={`${INPUT_CLASS} min-h-9 w-auto py-1 text-sm`}
                  >
                    {(isOwner ? ["owner", "admin", "finance", "viewer"] : ["admin", "finance", "viewer"]).map((role) => (
                      <option key={role} value={role}>
                        {role}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span className="capitalize">{member.role}</span>
                )}
              </td>
              <td>
                {member.twoFactorEnabled ? (
                  <StatusBadge status="active" />
                ) : member.isEnrolmentExpired ? (
                  <span className="text-(--ui-muted)">not set up within 7 days: invite again</span>
                ) : (
                  <span className="text-(--ui-muted)">not yet set up</span>
                )}
              </td>
              <td className="whitespace-nowrap">
                <Time iso={member.createdAt} />
              </td>
              <td>
                {canManage && (isOwner || member.role !== "owner") ? (
                  <Button variant="secondary" size="small" disabled={isPending} onClick={() => void act("team.remove", { id: member.id })}>
                    Remove<span className="sr-only"> {member.email}</span>
                  </Button>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      </Panel>

      <Panel title="Pending invitations" id="invitations">
        {invitations.length === 0 ? (
          <EmptyState title="No pending invitations" />
        ) : (
          <DataTable caption="Pending invitations" headers={["Email", "Role", "Invited by", "Expires", canManage ? "Actions" : ""]}>
            {invitations.map((invitation) => (
              <tr key={invitation.id}>
                <td className="break-all">{invitation.email}</td>
                <td className="capitalize">{invitation.role}</td>
                <td className="break-all">{invitation.invitedByEmail ?? "—"}</td>
                <td className="whitespace-nowrap">
                  <Time iso={invitation.expiresAt} />
                </td>
                <td>
                  {canManage ? (
                    <Button variant="secondary" size="small" disabled={isPending} onClick={() => void act("team.revoke_invitation", { id: invitation.id })}>
                      Withdraw<span className="sr-only"> the invitation of {invitation.email}</span>
                    </Button>
                  ) : null}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Panel>

      {canManage ? (
        <Panel title="Invite someone" id="invite">
          {invited ? (
            <div className="mb-4 flex flex-col gap-2">
              <Alert tone="success">An invitation was sent to {invited.email}. The link works once, for 7 days; you can also hand it over yourself:</Alert>
              <code className="block rounded-lg bg-(--ui-subtle) px-3 py-2 font-mono text-xs break-all">{invited.url}</code>
              <div>
                <CopyButton value={invited.url} label="Copy link" accessibleName="Copy link to the invitation" copiedText="Copied" announcement="Invitation link copied" failure="Select the link and copy it" />
              </div>
            </div>
          ) : null}
          <form onSubmit={invite} className="grid gap-4 sm:grid-cols-[2fr_1fr_auto] sm:items-end">
            <Field id="invite-email" name="email" label="Email" type="email" required autoComplete="off" />
            <div className="flex flex-col gap-1">
              <label htmlFor="invite-role" className="text-sm font-medium">
                Role
              </label>
              <select id="invite-role" name="role" defaultValue="finance" className={INPUT_CLASS}>
                {["admin", "finance", "viewer"].map((role) => (
                  <option key={role} value={role}>
                    {ROLE_WORDS[role]}
                  </option>
                ))}
              </select>
            </div>
            <Button type="submit" disabled={isPending}>
              {isPending ? "Sending…" : "Send invitation"}
            </Button>
          </form>
        </Panel>
      ) : null}
    </>
  );
}
