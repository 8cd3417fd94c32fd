"use client";

import { useState } from "react";
import { Alert } from "@/components/cabinet/form-controls";
import { useCabinetAction } from "@/components/cabinet/use-cabinet-action";
import { Button } from "@/components/ui/button";

/**
 * "Resend webhook": records the invoice's event (that of its current final status, with its
 * current body) again, as new deliveries to the endpoint and the invoice's callback URL. Receivers
 * deduplicate on uuid + status, so a repeat is harmless.
 */
export function ResendWebhook({ uuid, eventType }: { uuid: string; eventType: string }) {
  const { run, isPending, dialog } = useCabinetAction();
  const [outcome, setOutcome] = useState<{ tone: "success" | "danger"; text: string } | null>(null);
  const resend = async () => {
    setOutcome(null);
    const result = await run("invoice.resend_webhook", { uuid });
    if (!result) return;
    if (!result.ok) {
      setOutcome({ tone: "danger", text: result.message });
      return;
    }
    const count = (result.result as { deliveries: string[] }).deliveries.length;
    setOutcome({ tone: "success", text: `${eventType} recorded again: ${count === 1 ? "1 new delivery" : `${count} new deliveries`}, listed below. It goes out within seconds.` });
  };
  return (
    <div className="flex flex-col gap-3">
      {dialog}
      <div className="flex flex-wrap items-center gap-3">
        <Button variant="secondary" onClick={() => void resend()} disabled={isPending} aria-describedby="resend-webhook-hint">
          {isPending ? "Resending…" : "Resend webhook"}
        </Button>
        <p id="resend-webhook-hint" className="min-w-0 flex-1 text-sm text-(--ui-muted)">
          Sends <span className="font-mono">{eventType}</span> again, with the invoice as it is now, to your endpoint and the invoice&apos;s callback URL.
        </p>
      </div>
      {outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}
    </div>
  );
}
