import { inngest } from "@/inngest/client";
import { log } from "@/lib/log";
import { WEBHOOK_RECORDED_EVENT } from "./catalogue";
import { onDeliveriesRecorded } from "./notify";

/**
 * With the Inngest driver, recorded deliveries are announced as an event so the delivery
 * function runs at once; should the event be lost, its cron picks the rows up within a minute.
 */
export function installInngestNotifier(): () => void {
  return onDeliveriesRecorded((deliveryIds) => {
    inngest.send({ name: WEBHOOK_RECORDED_EVENT, data: { delivery_ids: deliveryIds } }).catch((error) =>
      log.warn("could not announce deliveries to Inngest; the cron will pick them up", { error }),
    );
  });
}
