"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Alert, Field } from "./form-controls";
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
        <AuthenticatorReset email={email} />
      </Panel>
      <PasswordChange email={email} />
      <Panel title="Signed-in browsers" id="sessions" actions={<SignOutEverywhere />}>
        <p className="mb-3 text-sm text-(--ui-muted)">
          If a device or a session may be in someone else&apos;s hands, sign out everywhere: every browser, this one included, is back at the sign-in page.
        </p>
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
                  <Button variant="secondary" size="small" disabled={isPending} onClick={() => void signOutSession(session.id)}>
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

/** What an action's result says about the browsers it signed out, in words. */
function endedSessionsText(count: number): string {
  if (count === 0) return "No other browser was signed in.";
  return `${count} other browser${count === 1 ? " was" : "s were"} signed out.`;
}

/**
 * The password change: the current password, the new one twice; then a fresh code. Every other
 * browser is signed out and the user is e-mailed.
 */
function PasswordChange({ email }: { email: string }) {
  const { run, isPending, dialog } = useCabinetAction();
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const [current, next, repeated] = ["current-password", "new-password", "repeat-password"].map((name) => String(data.get(name) ?? ""));
    setError(null);
    setDone(null);
    if (next !== repeated) return setError("The new password and its repetition differ.");
    const result = await run("password.change", { current_password: current, new_password: next });
    if (!result) return;
    if (!result.ok) return setError(result.message);
    form.reset();
    setDone(`Password changed. ${endedSessionsText((result.result as { ended_sessions: number }).ended_sessions)} A notice was e-mailed to ${email}.`);
  };
  return (
    <Panel title="Password" id="password">
      {dialog}
      <form onSubmit={(event) => void onSubmit(event)} className="flex max-w-md flex-col gap-4">
        <p className="text-sm text-(--ui-muted)">Changing it signs out every other browser. You confirm with a code from your authenticator app.</p>
        {error ? <Alert>{error}</Alert> : null}
        {done ? <Alert tone="success">{done}</Alert> : null}
        {/* For password managers: whose password this is. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <Field id="current-password" name="current-password" label="Current password" type="password" autoComplete="current-password" required />
        <Field id="new-password" name="new-password" label="New password" type="password" autoComplete="new-password" required minLength={8} maxLength={1024} hint="At least 8 characters." />
        <Field id="repeat-password" name="repeat-password" label="Repeat the new password" type="password" autoComplete="new-password" required minLength={8} maxLength={1024} />
        <div>
          <Button type="submit" disabled={isPending}>
            {isPending ? "Changing…" : "Change password"}
          </Button>
        </div>
      </form>
    </Panel>
  );
}

type ResetStep = { kind: "idle" } | { kind: "password" } | { kind: "key"; secret: string; qrDataUrl: string } | { kind: "done"; recoveryCodes: string[]; endedSessions: number };

/**
 * Replacing the authenticator app (a lost or new phone): the password and a fresh code (a
 * recovery code does), then the new key, then a code from the new app. The old app works until
 * that code is confirmed; then new recovery codes are shown once.
 */
function AuthenticatorReset({ email }: { email: string }) {
  const { run, isPending, dialog } = useCabinetAction();
  const [step, setStep] = useState<ResetStep>({ kind: "idle" });
  const [error, setError] = useState<string | null>(null);
  const start = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    const result = await run("two_factor.begin_reset", { password: String(new FormData(event.currentTarget).get("reset-password") ?? "") });
    if (!result) return;
    if (!result.ok) return setError(result.message);
    const key = result.result as { secret: string; qr_data_url: string };
    setStep({ kind: "key", secret: key.secret, qrDataUrl: key.qr_data_url });
  };
  const confirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    const result = await run("two_factor.confirm_reset", { code: String(new FormData(event.currentTarget).get("new-app-code") ?? "") });
    if (!result) return;
    if (!result.ok) {
      setError(result.message);
      if (result.code === "cabinet.no_pending_key") setStep({ kind: "password" });
      return;
    }
    const confirmed = result.result as { recovery_codes: string[]; ended_sessions: number };
    setStep({ kind: "done", recoveryCodes: confirmed.recovery_codes, endedSessions: confirmed.ended_sessions });
  };
  const cancel = () => {
    setError(null);
    setStep({ kind: "idle" });
  };
  return (
    <div className="mt-6 border-t border-(--ui-border) pt-4">
      {dialog}
      <h3 className="font-semibold">Replace the authenticator app</h3>
      <p className="mt-1 text-sm text-(--ui-muted)">
        Lost your phone, or moving to a new one? Sign in with a recovery code, then set up the new app here. The old app keeps working until the new one
        is confirmed.
      </p>
      {error ? (
        <div className="mt-3">
          <Alert>{error}</Alert>
        </div>
      ) : null}
      {step.kind === "idle" ? (
        <Button variant="secondary" className="mt-3" onClick={() => setStep({ kind: "password" })}>
          Replace authenticator app
        </Button>
      ) : null}
      {step.kind === "password" ? (
        <form onSubmit={(event) => void start(event)} className="mt-3 flex max-w-md flex-col gap-4">
          <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
          <Field id="reset-password" name="reset-password" label="Your password" type="password" autoComplete="current-password" required autoFocus />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={isPending}>
              {isPending ? "Checking…" : "Continue"}
            </Button>
            <Button variant="secondary" onClick={cancel}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}
      {step.kind === "key" ? (
        <div className="mt-3">
          <p className="text-sm">Scan the QR code with the new app, or type the key; then enter the code it shows.</p>
          <div className="mt-3 flex flex-col items-center gap-4 sm:flex-row sm:items-start">
            {/* The QR code is a data URL made on the server: nothing leaves for a third party. */}
            {/* eslint-disable-next-line @next/next/no-img-element */}
            <img src={step.qrDataUrl} width={180} height={180} alt="QR code of your new two-factor key" className="rounded-lg border border-(--ui-border) bg-white p-1" />
            <div className="flex w-full min-w-0 flex-col gap-2">
              <p id="new-totp-key-label" className="text-sm font-medium">
                New key
              </p>
              <code aria-labelledby="new-totp-key-label" data-testid="new-totp-key" className="block rounded-lg bg-(--ui-subtle) px-3 py-2 font-mono text-sm break-all">
                {step.secret}
              </code>
              <CopyButton value={step.secret} label="Copy key" accessibleName="Copy key for the new app" copiedText="Copied" announcement="Key copied" failure="Select the key and copy it" />
            </div>
          </div>
          <form onSubmit={(event) => void confirm(event)} className="mt-4 flex max-w-md flex-col gap-4">
            <Field id="new-app-code" name="new-app-code" label="Code from the new app" autoComplete="one-time-code" inputMode="numeric" required spellCheck={false} />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={isPending}>
                {isPending ? "Checking…" : "Confirm new app"}
              </Button>
              <Button variant="secondary" onClick={cancel}>
                Cancel
              </Button>
            </div>
          </form>
        </div>
      ) : null}
      {step.kind === "done" ? (
        <div className="mt-3">
          <Alert tone="success">
            The new authenticator app is in use; codes from the old one no longer work. {endedSessionsText(step.endedSessions)} Your new recovery codes — shown
            only now:
          </Alert>
          <RecoveryCodes codes={step.recoveryCodes} email={email} />
        </div>
      ) : null}
    </div>
  );
}

/** Ends every session of the user, this one included, after a fresh code: back to the sign-in page. */
function SignOutEverywhere() {
  const { run, isPending, dialog } = useCabinetAction();
  const [error, setError] = useState<string | null>(null);
  const signOutEverywhere = async () => {
    setError(null);
    const result = await run("session.revoke_all", {});
    if (!result) return;
    if (!result.ok) return setError(result.message);
    window.location.assign("/cabinet/sign-in");
  };
  return (
    <div className="flex flex-col items-end gap-2">
      {dialog}
      <Button variant="secondary" className="min-h-10 text-sm" disabled={isPending} onClick={() => void signOutEverywhere()}>
        {isPending ? "Signing out…" : "Sign out everywhere"}
      </Button>
      {error ? <Alert>{error}</Alert> : null}
    </div>
  );
}
