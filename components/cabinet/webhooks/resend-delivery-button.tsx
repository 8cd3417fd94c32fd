"use client";

import { useState } from "react";
import { useCabinetAction } from "@/components/cabinet/use-cabinet-action";
import { Button } from "@/components/ui/button";

/**
 * Records a payment delivery's event again (the payment's event of its current status, to the
 * endpoint and its url_callback); the new deliveries appear at the top of the log.
 */
export function ResendDeliveryButton({ deliveryId, eventType }: { deliveryId: string; eventType: string }) {
  const { run, isPending, dialog } = useCabinetAction();
  const [outcome, setOutcome] = useState<{ isOk: boolean; text: string } | null>(null);

  const resend = async () => {
    setOutcome(null);
    const result = await run("webhook.resend", { delivery_id: deliveryId });
    if (!result) return;
    if (!result.ok) setOutcome({ isOk: false, text: result.message });
    else {
      const resent = result.result as { event_type: string; deliveries: string[] };
      setOutcome({ isOk: true, text: `Queued ${resent.event_type} again (${resent.deliveries.length} deliver${resent.deliveries.length === 1 ? "y" : "ies"}).` });
    }
  };

  return (
    <div className="flex max-w-56 flex-col items-start gap-1">
      {dialog}
      <Button variant="secondary" size="small" disabled={isPending} onClick={() => void resend()}>
        {isPending ? "Resending…" : "Resend"}
        <span className="sr-only">
          {" "}
          {eventType} delivery {deliveryId}
        </span>
      </Button>
      {outcome ? (
        <p role={outcome.isOk ? "status" : "alert"} className={`text-xs ${outcome.isOk ? "text-(--ui-success)" : "text-(--ui-danger)"}`}>
          {outcome.text}
        </p>
      ) : null}
    </div>
  );
}
