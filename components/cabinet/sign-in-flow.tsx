"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState, useTransition, type FormEvent } from "react";
import { restartSignIn, submitEnrolmentCode, submitPassword } from "@/lib/cabinet/server-actions/sign-in";
import { Button, buttonClassName } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { Alert, Field } from "./form-controls";
import { RecoveryCodes } from "./recovery-codes";

export type SignInStep =
  | { kind: "password" }
  | { kind: "code"; email: string }
  | { kind: "enrol"; email: string; secret: string; qrDataUrl: string }
  /** Enrolment confirmed, session not yet started (the page re-rendered, or was reloaded, in between). */
  | { kind: "enrolled"; email: string };

const CARD = "rounded-2xl border border-(--ui-border) bg-(--ui-surface) p-6 shadow-sm";

/** next-auth hands back the authorize error as "<code>|<message>". */
function readSignInError(error: string | null | undefined): { code: string; message: string } {
  const [code, ...rest] = (error ?? "").split("|");
  if (rest.length === 0) return { code: "cabinet.bad_code", message: "The code is wrong or was already used." };
  return { code, message: rest.join("|") };
}

/** Where to go once signed in: a cabinet page the visitor was sent away from, else the overview. */
function destination(): string {
  const wanted = new URLSearchParams(window.location.search).get("callbackUrl") ?? "";
  try {
    const url = new URL(wanted, window.location.origin);
    if (url.origin === window.location.origin && url.pathname.startsWith("/cabinet") && !url.pathname.startsWith("/cabinet/sign-in")) return url.pathname + url.search;
  } catch {
    // fall through
  }
  return "/cabinet";
}

/**
 * The two-step sign-in: e-mail and password, then a code from the authenticator app (or a recovery
 * code) — or, on the first sign-in, enrolment: scan the key, confirm it with a code, keep the
 * recovery codes.
 */
export function SignInFlow({ step }: { step: SignInStep }) {
  if (step.kind === "code") return <CodeStep email={step.email} />;
  // One element for both enrolment steps, so its state (the recovery codes) outlives the re-render
  // that follows the enrolment action.
  if (step.kind === "enrol" || step.kind === "enrolled") return <EnrolStep step={step} />;
  return <PasswordStep />;
}

function PasswordStep() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(async () => {
      const outcome = await submitPassword(String(form.get("email") ?? ""), String(form.get("password") ?? ""));
      if (!outcome.ok) return setError(outcome.message);
      router.refresh();
    });
  };
  return (
    <section aria-labelledby="sign-in-title" className={CARD}>
      <h1 id="sign-in-title" className="text-2xl font-semibold">
        Sign in
      </h1>
      <p className="mt-1 text-sm text-(--ui-muted)">Your store&apos;s payments, payouts and settings.</p>
      <form onSubmit={onSubmit} className="mt-6 flex flex-col gap-4" noValidate={false}>
        {error ? <Alert>{error}</Alert> : null}
        <Field id="email" name="email" label="Email" type="email" autoComplete="username" required autoFocus />
        <Field id="password" name="password" label="Password" type="password" autoComplete="current-password" required />
        <Button type="submit" disabled={isPending}>
          {isPending ? "Checking…" : "Sign in"}
        </Button>
      </form>
    </section>
  );
}

function StartAgain() {
  const router = useRouter();
  return (
    <button
      type="button"
      className={buttonClassName("ghost", "px-0")}
      onClick={async () => {
        await restartSignIn();
        router.refresh();
      }}
    >
      Use another account
    </button>
  );
}

function CodeStep({ email }: { email: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "");
    startTransition(async () => {
      const result = await signIn("cabinet", { code, redirect: false });
      if (result?.ok && !result.error) return window.location.assign(destination());
      const refusal = readSignInError(result?.error);
      setError(refusal.message);
      // The ticket is spent or expired: back to the password step.
      if (refusal.code === "cabinet.bad_ticket") router.refresh();
    });
  };
  return (
    <section aria-labelledby="code-title" className={CARD}>
      <h1 id="code-title" className="text-2xl font-semibold">
        Two-step verification
      </h1>
      <p className="mt-1 text-sm text-(--ui-muted)">
        Signing in as <strong className="text-(--ui-fg)">{email}</strong>.
      </p>
      <form onSubmit={onSubmit} className="mt-6 flex flex-col gap-4">
        {error ? <Alert>{error}</Alert> : null}
        <Field
          id="code"
          name="code"
          label="Code"
          autoComplete="one-time-code"
          required
          autoFocus
          spellCheck={false}
          hint="The 6-digit code from your authenticator app, or one of your recovery codes."
        />
        <Button type="submit" disabled={isPending}>
          {isPending ? "Checking…" : "Sign in"}
        </Button>
        <StartAgain />
      </form>
    </section>
  );
}

function EnrolStep({ step }: { step: Extract<SignInStep, { kind: "enrol" | "enrolled" }> }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  // The key as first shown: confirming it moves the ticket on, and the page re-renders as "enrolled".
  const [enrolment] = useState(step.kind === "enrol" ? step : null);
  const [isPending, startTransition] = useTransition();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "");
    startTransition(async () => {
      const outcome = await submitEnrolmentCode(code);
      if (!outcome.ok) {
        setError(outcome.message);
        if (outcome.code === "cabinet.bad_ticket") router.refresh();
        return;
      }
      // The code just typed proved the key: the session starts now, while the codes are on screen.
      const result = await signIn("cabinet", { code: "", redirect: false });
      if (!result?.ok || result.error) return setError(readSignInError(result?.error).message);
      setRecoveryCodes(outcome.recoveryCodes);
    });
  };
  if (recoveryCodes) {
    return (
      <section aria-labelledby="recovery-title" className={CARD}>
        <h1 id="recovery-title" className="text-2xl font-semibold">
          Save your recovery codes
        </h1>
        <p className="mt-1 text-sm text-(--ui-muted)">
          Two-factor authentication is on. Each code below signs you in once if you lose your phone. They are shown only now: print them or keep
          them in a password manager.
        </p>
        <RecoveryCodes codes={recoveryCodes} email={step.email} />
        <a href={destination()} className={buttonClassName("primary", "mt-6 w-full")}>
          I have saved them — continue
        </a>
      </section>
    );
  }
  if (!enrolment) return <FinishEnrolment email={step.email} />;
  return (
    <section aria-labelledby="enrol-title" className={CARD}>
      <h1 id="enrol-title" className="text-2xl font-semibold">
        Set up two-factor authentication
      </h1>
      <p className="mt-1 text-sm text-(--ui-muted)">
        Every sign-in to <strong className="text-(--ui-fg)">{enrolment.email}</strong> will ask for a code from an authenticator app (Google
        Authenticator, 1Password, Aegis…). Scan the QR code, or type the key.
      </p>
      <div className="mt-5 flex flex-col items-center gap-4 sm:flex-row sm:items-start">
        {/* The QR code is a data URL made on the server: nothing leaves for a third party. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img src={enrolment.qrDataUrl} width={180} height={180} alt="QR code of your two-factor key" className="rounded-lg border border-(--ui-border) bg-white p-1" />
        <div className="flex w-full min-w-0 flex-col gap-2">
          <p id="totp-key-label" className="text-sm font-medium">
            Key
          </p>
          <code aria-labelledby="totp-key-label" data-testid="totp-key" className="block rounded-lg bg-(--ui-subtle) px-3 py-2 font-mono text-sm break-all">
            {enrolment.secret}
          </code>
          <CopyButton value={enrolment.secret} label="Copy key" accessibleName="Copy key" copiedText="Copied" announcement="Key copied" failure="Select the key and copy it" />
        </div>
      </div>
      <form onSubmit={onSubmit} className="mt-6 flex flex-col gap-4">
        {error ? <Alert>{error}</Alert> : null}
        <Field id="code" name="code" label="Code" autoComplete="one-time-code" inputMode="numeric" required spellCheck={false} hint="The 6-digit code the app shows now." />
        <Button type="submit" disabled={isPending}>
          {isPending ? "Checking…" : "Sign in"}
        </Button>
        <StartAgain />
      </form>
    </section>
  );
}

/** Enrolment was confirmed but the session not started (a reload in between): start it. */
function FinishEnrolment({ email }: { email: string }) {
  const [error, setError] = useState<string | null>(null);
  const [isPending, startTransition] = useTransition();
  const finish = () =>
    startTransition(async () => {
      const result = await signIn("cabinet", { code: "", redirect: false });
      if (result?.ok && !result.error) return window.location.assign(destination());
      setError(readSignInError(result?.error).message);
    });
  return (
    <section aria-labelledby="finish-title" className={CARD}>
      <h1 id="finish-title" className="text-2xl font-semibold">
        Two-factor authentication is on
      </h1>
      <p className="mt-1 text-sm text-(--ui-muted)">
        <strong className="text-(--ui-fg)">{email}</strong> is protected by your authenticator app. If you did not keep the recovery codes, make new
        ones under Account once you are in.
      </p>
      <div className="mt-6 flex flex-col gap-4">
        {error ? <Alert>{error}</Alert> : null}
        <Button type="button" onClick={finish} disabled={isPending}>
          {isPending ? "Signing in…" : "Continue to the cabinet"}
        </Button>
        <StartAgain />
      </div>
    </section>
  );
}
