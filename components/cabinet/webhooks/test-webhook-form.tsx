"use client";

import { useState, type FormEvent } from "react";
import { Alert, Field } from "@/components/cabinet/form-controls";
import { useCabinetAction } from "@/components/cabinet/use-cabinet-action";
import { Button } from "@/components/ui/button";
import { SelectField } from "@/components/cabinet/settings/settings-form-kit";

/** A test event the form offers: its family and status, as the test-webhook services take them. */
export interface TestEventOption {
  value: string;
  label: string;
  family: "payment" | "wallet" | "payout";
  status: string;
}

interface TestResult {
  delivered: boolean;
  url: string;
  signed: boolean;
  status_code: number | null;
  error: string | null;
  duration_ms: number | null;
}

/**
 * Sends one test event now and says what the receiver answered. Without a URL a payment event goes
 * to the registered endpoint, signed with its real secret; with a URL, any event goes there unsigned.
 */
export function TestWebhookForm({ events, hasEndpoint }: { events: TestEventOption[]; hasEndpoint: boolean }) {
  const { run, isPending, dialog } = useCabinetAction();
  const [value, setValue] = useState(events[0]?.value ?? "");
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<TestResult | null>(null);
  const event = events.find((candidate) => candidate.value === value);

  const send = async (formEvent: FormEvent<HTMLFormElement>) => {
    formEvent.preventDefault();
    setError(null);
    setResult(null);
    if (!event) return;
    const url = String(new FormData(formEvent.currentTarget).get("url") ?? "").trim();
    const answer = await run("webhook.test", { family: event.family, status: event.status, ...(url ? { url } : {}) });
    if (!answer) return;
    if (!answer.ok) setError(answer.message);
    else setResult(answer.result as TestResult);
  };

  return (
    <>
      {dialog}
      <form onSubmit={send} className="flex max-w-2xl flex-col gap-4" aria-label="Send a test webhook" noValidate>
        <SelectField id="test-event" label="Event" value={value} onChange={setValue}>
          {(["payment", "wallet", "payout"] as const).map((family) => (
            <optgroup key={family} label={family === "payment" ? "Payments" : family === "wallet" ? "Static wallets" : "Payouts"}>
              {events
                .filter((candidate) => candidate.family === family)
                .map((candidate) => (
                  <option key={candidate.value} value={candidate.value}>
                    {candidate.label}
                  </option>
                ))}
            </optgroup>
          ))}
        </SelectField>
        <Field
          id="test-url"
          name="url"
          label="Send to URL"
          type="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={hasEndpoint ? "Empty: the registered endpoint" : "https://shop.example/webhooks/test"}
          hint={
            event?.family === "payment"
              ? hasEndpoint
                ? "Leave empty to send to the registered endpoint, signed with its secret. A URL here gets an unsigned test event."
                : "No endpoint is registered: give a URL (the test event is unsigned)."
              : "Wallet and payout test events go to a URL you give here, unsigned."
          }
        />
        {error ? <Alert>{error}</Alert> : null}
        {result ? (
          <Alert tone={result.delivered ? "success" : "warn"}>
            {result.delivered ? "Delivered" : "Not delivered"}
            {result.status_code !== null ? `: the receiver answered HTTP ${result.status_code}` : result.error ? `: ${result.error}` : ""}
            {result.duration_ms !== null ? ` in ${result.duration_ms} ms` : ""}. {result.signed ? "Signed with the endpoint's secret." : "Unsigned (test event)."}
          </Alert>
        ) : null}
        <div>
          <Button type="submit" disabled={isPending || !event}>
            {isPending ? "Sending…" : "Send test webhook"}
          </Button>
        </div>
      </form>
    </>
  );
}
