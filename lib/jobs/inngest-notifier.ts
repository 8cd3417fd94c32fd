import { BATCH_CREATED_EVENT, inngest, WEBHOOK_RECORDED_EVENT } from "@/inngest/client";
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

function listenForWork(): () => void {
  const offDeliveries = onDeliveriesRecorded((deliveryIds) => {
    inngest.send({ name: WEBHOOK_RECORDED_EVENT, data: { delivery_ids: deliveryIds } }).catch((error) =>
      log.warn("could not announce deliveries to Inngest; the cron will pick them up", { error }),
    );
  });
  const offBatches = onBatchCreated((batchId) => {
    inngest.send({ name: BATCH_CREATED_EVENT, data: { batch_id: batchId } }).catch((error) =>
      log.warn("could not announce a batch to Inngest; the cron will pick it up", { error }),
    );
  });
  return () => {
    offDeliveries();
    offBatches();
    globalForNotifier.gatewayInngestNotifier = undefined;
  };
}
