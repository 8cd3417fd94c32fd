"use client";

import { useState } from "react";
import { Alert } from "@/components/cabinet/form-controls";
import { useCabinetAction } from "@/components/cabinet/use-cabinet-action";

/** One kind of e-mail alert as the account page offers it (plain data from the server). */
export interface AlertChoice {
  kind: string;
  title: string;
  description: string;
  isOn: boolean;
  /** False when the user's role cannot act on it: shown, not offered. */
  isAllowed: boolean;
}

/**
 * The signed-in user's e-mail alerts: each kind a switch that takes effect at once (alerts.set).
 * An alert is sent once per thing it is about, to every member who turned its kind on.
 */
export function AlertSettings({ email, choices }: { email: string; choices: AlertChoice[] }) {
  const { run, isPending } = useCabinetAction();
  const [isOn, setIsOn] = useState(() => new Map(choices.map((choice) => [choice.kind, choice.isOn])));
  const [message, setMessage] = useState<{ tone: "success" | "danger"; text: string } | null>(null);

  const toggle = async (choice: AlertChoice, next: boolean) => {
    setMessage(null);
    const result = await run("alerts.set", { kind: choice.kind, is_on: next });
    if (!result) return;
    if (!result.ok) {
      setMessage({ tone: "danger", text: result.message });
      return;
    }
    setIsOn(new Map(isOn).set(choice.kind, next));
    setMessage({ tone: "success", text: next ? `${choice.title}: e-mails go to ${email}.` : `${choice.title}: no more e-mails.` });
  };

  return (
    <div className="flex flex-col gap-3">
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-sm text-(--ui-muted)">E-mails to {email} when something waits for you. Each is sent once per payout, invoice, endpoint failure or debt.</legend>
        {choices.map((choice) => (
          <label key={choice.kind} className="flex min-h-11 items-start gap-3 text-sm">
            <input
              type="checkbox"
              className="mt-1 size-4 accent-(--ui-accent)"
              checked={isOn.get(choice.kind) ?? false}
              disabled={!choice.isAllowed || isPending}
              onChange={(event) => void toggle(choice, event.target.checked)}
            />
            <span>
              <span className="font-medium">{choice.title}</span>
              <span className="block text-(--ui-muted)">
                {choice.description}
                {choice.isAllowed ? "" : " Your role cannot act on it."}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
    </div>
  );
}
