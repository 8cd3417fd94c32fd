import type { Metadata } from "next";
import Link from "next/link";
import { AccountSecurity } from "@/components/cabinet/account-security";
import { AlertSettings } from "@/components/cabinet/alert-settings";
import { ALERT_KINDS, ALERT_TERMS, listAlertKinds } from "@/lib/services/cabinet/alerts";
import { DataTable, EmptyState, PageHeader, Panel, StatusBadge, Time } from "@/components/cabinet/page-kit";
import { FOCUS_RING } from "@/components/ui/theme";
import { getApiDeps } from "@/lib/api/deps";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { roleAllows } from "@/lib/domain/cabinet/permissions";
import { listAuditEvents } from "@/lib/services/cabinet/audit-log";
import { describeAccount } from "@/lib/services/cabinet/describe-account";
import { listSessions } from "@/lib/services/cabinet/sessions";

export const metadata: Metadata = { title: "Account" };

const AUDIT_PAGE_SIZE = 25;

/** The audit row's details in words (identifiers only; never secrets). */
function describeDetail(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(", ");
}

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function AccountPage({ searchParams }: PageProps) {
  const actor = await requireActorForPage();
  const deps = getApiDeps();
  const cursor = (await searchParams).audit;
  // Owners and admins read the whole store's log; others their own events.
  const isStoreWide = roleAllows(actor.role, "settings");
  const [account, sessions, audit, alertKinds] = await Promise.all([
    describeAccount(deps.db, actor),
    listSessions(deps.db, actor, deps.now()),
    listAuditEvents(deps.db, actor.merchantId, isStoreWide ? {} : { userId: actor.userId }, { limit: AUDIT_PAGE_SIZE, cursor: typeof cursor === "string" ? cursor : undefined }),
    listAlertKinds(deps.db, actor.userId),
  ]);
  return (
    <>
      <PageHeader title="Account" description={`Signed in as ${actor.email} (${actor.role}).`} />
      <AccountSecurity
        email={actor.email}
        twoFactorSince={account.twoFactorSince?.toISOString() ?? null}
        unusedRecoveryCodes={account.unusedRecoveryCodes}
        sessions={sessions.map((session) => ({
          id: session.id,
          ipAddress: session.ipAddress,
          userAgent: session.userAgent,
          createdAt: session.createdAt.toISOString(),
          lastSeenAt: session.lastSeenAt.toISOString(),
          isCurrent: session.isCurrent,
        }))}
      />
      <Panel title="E-mail alerts" id="alerts">
        <AlertSettings
          email={actor.email}
          choices={ALERT_KINDS.map((kind) => ({
            kind,
            title: ALERT_TERMS[kind].title,
            description: ALERT_TERMS[kind].description,
            isOn: alertKinds.includes(kind),
            isAllowed: roleAllows(actor.role, ALERT_TERMS[kind].permission),
          }))}
        />
      </Panel>
      <Panel
        title={isStoreWide ? "Audit log of the store" : "Your audit log"}
        id="audit"
        actions={
          typeof cursor === "string" ? (
            <Link href="/cabinet/account#audit" className={`text-sm text-(--ui-link) underline ${FOCUS_RING}`}>
              Newest events
            </Link>
          ) : null
        }
      >
        {audit.events.length === 0 ? (
          <EmptyState title="No events yet" />
        ) : (
          <DataTable caption="Audit log" headers={["When", "Who", "What", "Outcome", "Address", "Details"]}>
            {audit.events.map((event) => (
              <tr key={event.id}>
                <td className="whitespace-nowrap">
                  <Time iso={event.at} />
                </td>
                <td className="break-all">{event.actorEmail || "—"}</td>
                <td className="font-mono text-xs">{event.action}</td>
                <td>
                  <StatusBadge status={event.outcome} />
                </td>
                <td className="font-mono text-xs">{event.ipAddress || "—"}</td>
                <td className="text-xs break-all text-(--ui-muted)">{describeDetail(event.detail)}</td>
              </tr>
            ))}
          </DataTable>
        )}
        {audit.nextCursor ? (
          <Link href={`/cabinet/account?audit=${audit.nextCursor}#audit`} className={`mt-4 inline-block text-sm text-(--ui-link) underline ${FOCUS_RING}`}>
            Older events
          </Link>
        ) : null}
      </Panel>
    </>
  );
}
