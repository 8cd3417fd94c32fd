import type { Payout } from "@/generated/prisma/client";
import type { Tx } from "@/lib/db/client";
import { buildPayoutEventBody } from "@/lib/webhooks/payloads";
import { recordWebhookEvent } from "@/lib/webhooks/record-event";
import { toPayoutObject } from "@/lib/api/serialize/payout";

/**
 * spec: Events — the payout entered its current status: `payout.<internal status>` with the
 * coarse status in the body, to the registered endpoint and the payout's url_callback, in the
 * transaction of the change.
 */
export async function recordPayoutEvent(tx: Tx, payout: Payout, now: Date, known: { endpointUrl?: string | null } = {}): Promise<void> {
  // The documented event fields are a subset of the object's: the same values, picked.
  const body = buildPayoutEventBody(toPayoutObject(payout));
  await recordWebhookEvent(tx, { merchantId: payout.merchantId, eventType: `payout.${payout.status}`, objectId: payout.id, body, callbackUrl: payout.urlCallback, now, ...known });
}
