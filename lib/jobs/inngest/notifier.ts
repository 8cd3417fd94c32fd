import { BATCH_CREATED_EVENT, WEBHOOK_RECORDED_EVENT } from "@/lib/jobs/inngest/events";
import { log } from "@/lib/log";
import { onBatchCreated, onDeliveriesRecorded } from "@/lib/db/work-signals";

const globalForNotifier = globalThis as unknown as { gatewayInngestNotifier?: () => void };

/**
 * With the Inngest driver, recorded deliveries are announced as an event so the delivery
 * function runs at once; should the event be lost, its cron picks the rows up within a minute.
 * Installed once per process (the listeners are process-wide), by whichever code first builds
 * the collaborators: the route handlers under Vercel, the same under `npm start`.
 */
export function installInngestNotifier(): () => void {
  globalForNotifier.gatewayInngestNotifier ??= listenForWork();
  return globalForNotifier.gatewayInngestNotifier;
}

/** Sends one event; the SDK is loaded with the first (processes of the built-in worker never load it). */
async function announce(event: { name: string; data: Record<string, unknown> }): Promise<void> {
  const { inngest } = await import("@/lib/jobs/inngest/client");
  await inngest.send(event);
}

function listenForWork(): () => void {
  const offDeliveries = onDeliveriesRecorded((deliveryIds) => {
    announce({ name: WEBHOOK_RECORDED_EVENT, data: { delivery_ids: deliveryIds } }).catch((error) =>
      log.warn("could not announce deliveries to Inngest; the cron will pick them up", { error }),
    );
  });
  const offBatches = onBatchCreated((batchId) => {
    announce({ name: BATCH_CREATED_EVENT, data: { batch_id: batchId } }).catch((error) =>
      log.warn("could not announce a batch to Inngest; the cron will pick it up", { error }),
    );
  });
  return () => {
    offDeliveries();
    offBatches();
    globalForNotifier.gatewayInngestNotifier = undefined;
  };
}
