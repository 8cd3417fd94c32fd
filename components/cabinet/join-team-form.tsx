"use client";

import { useState, useTransition, type FormEvent } from "react";
import { joinTeam } from "@/lib/cabinet/server-actions/join-team";
import { Button, buttonClassName } from "@/components/ui/button";
import { Alert, Field } from "./form-controls";

export function JoinTeamForm({ token, email }: { token: string; email: string }) {
  const [error, setError] = useState<string | null>(null);
  const [joined, setJoined] = useState(false);
  const [isPending, startTransition] = useTransition();
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    if (password !== String(form.get("repeat") ?? "")) return setError("The two passwords differ.");
    startTransition(async () => {
      const outcome = await joinTeam(token, password);
      if (!outcome.ok) return setError(outcome.message);
      setJoined(true);
    });
  };
  if (joined) {
    return (
      <div className="mt-6 flex flex-col gap-4">
        <Alert tone="success">You have joined the team. Sign in to set up two-factor authentication.</Alert>
        <a href="/cabinet/sign-in" className={buttonClassName("primary")}>
          Go to sign-in
        </a>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} className="mt-6 flex flex-col gap-4">
      {error ? <Alert>{error}</Alert> : null}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <Field id="password" name="password" label="Password" type="password" autoComplete="new-password" minLength={8} required hint="At least 8 characters." />
      <Field id="repeat" name="repeat" label="Repeat the password" type="password" autoComplete="new-password" minLength={8} required />
      <Button type="submit" disabled={isPending}>
        {isPending ? "Joining…" : "Join the team"}
      </Button>
    </form>
  );
}
