"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Alert } from "./form-controls";
import { DataTable, Panel, StatusBadge, Time } from "./page-kit";
import { RecoveryCodes } from "./recovery-codes";
import { useCabinetAction } from "./use-cabinet-action";

export interface SessionRow {
  id: string;
  ipAddress: string;
  userAgent: string;
  createdAt: string;
  lastSeenAt: string;
  isCurrent: boolean;
}

/** A browser's name from its user agent, roughly: enough to recognise one's own devices. */
function describeDevice(userAgent: string): string {
  const browser = /Edg\//.test(userAgent) ? "Edge" : /Firefox\//.test(userAgent) ? "Firefox" : /Chrom(e|ium)\//.test(userAgent) ? "Chrome" : /Safari\//.test(userAgent) ? "Safari" : "Browser";
  const system = /Android/.test(userAgent) ? "Android" : /iPhone|iPad/.test(userAgent) ? "iOS" : /Windows/.test(userAgent) ? "Windows" : /Mac OS X/.test(userAgent) ? "macOS" : /Linux/.test(userAgent) ? "Linux" : "";
  return system ? `${browser} on ${system}` : browser;
}

/** Two-factor authentication, recovery codes and the signed-in browsers of the user. */
export function AccountSecurity({ email, twoFactorSince, unusedRecoveryCodes, sessions }: { email: string; twoFactorSince: string | null; unusedRecoveryCodes: number; sessions: SessionRow[] }) {
  const { run, isPending, dialog } = useCabinetAction();
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  const regenerate = async () => {
    setError(null);
    const result = await run("two_factor.regenerate_recovery_codes", {});
    if (result && !result.ok) setError(result.message);
    if (result?.ok) setCodes((result.result as { recovery_codes: string[] }).recovery_codes);
  };
  const signOutSession = async (id: string) => {
    setError(null);
    const result = await run("session.revoke", { id });
    if (result && !result.ok) setError(result.message);
  };

  return (
    <>
      {dialog}
      {error ? (
        <div className="mb-4">
          <Alert>{error}</Alert>
        </div>
      ) : null}
      <Panel title="Two-factor authentication" id="two-factor">
        <p className="text-sm">
          <StatusBadge status="active" /> Codes from your authenticator app are asked at every sign-in and for sensitive actions
          {twoFactorSince ? (
            <>
              {" "}
              (on since <Time iso={twoFactorSince} />)
            </>
          ) : null}
          .
        </p>
        <p className="mt-3 text-sm">
          <strong>{unusedRecoveryCodes}</strong> of 10 recovery codes unused. Making new ones ends the old ones.
        </p>
        {codes ? (
          <div className="mt-3">
            <Alert tone="warn">Your new recovery codes — shown only now.</Alert>
            <RecoveryCodes codes={codes} email={email} />
          </div>
        ) : (
          <Button variant="secondary" className="mt-3" disabled={isPending} onClick={() => void regenerate()}>
            New recovery codes
          </Button>
        )}
      </Panel>
      <Panel title="Signed-in browsers" id="sessions">
        <DataTable caption="Signed-in browsers" headers={["Browser", "Address", "Signed in", "Last seen", ""]}>
          {sessions.map((session) => (
            <tr key={session.id}>
              <td>
                {describeDevice(session.userAgent)} {session.isCurrent ? <StatusBadge status="this browser" /> : null}
              </td>
              <td className="font-mono text-xs">{session.ipAddress || "—"}</td>
              <td className="whitespace-nowrap">
                <Time iso={session.createdAt} />
              </td>
              <td className="whitespace-nowrap">
                <Time iso={session.lastSeenAt} />
              </td>
              <td>
                {session.isCurrent ? null : (
                  <Button variant="secondary" className="min-h-9 px-3 py-1 text-sm" disabled={isPending} onClick={() => void signOutSession(session.id)}>
                    Sign out<span className="sr-only"> {describeDevice(session.userAgent)} signed in from {session.ipAddress}</span>
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </Panel>
    </>
  );
}
