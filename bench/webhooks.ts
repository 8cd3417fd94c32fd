import { randomUUID } from "node:crypto";
import { createDb } from "@/lib/db/client";
import { migrateDatabase } from "@/lib/db/migrate";
import { createSecretBox } from "@/lib/crypto/secret-box";
import { createMerchant } from "@/lib/services/merchants/create-merchant";
import { issueWebhookSecret } from "@/lib/services/webhooks/manage-endpoint";
import { recordWebhookEvent } from "@/lib/webhooks/record-event";
import { startWebhookDispatcher } from "@/lib/jobs/webhook-dispatcher";
import { DEFAULT_DISPATCHER_OPTIONS } from "@/lib/jobs/worker";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/testing/webhook-receiver";
import { withTransaction } from "@/lib/db/transaction";

export interface DeliveryFigure {
  label: string;
  deliveries: number;
  seconds: number;
  perSecond: number;
}

/**
 * Webhook throughput of the built-in dispatcher (its default concurrency) to local receivers:
 * `merchants` merchants, each with its own receiver, `perMerchant` deliveries each. With
 * `timeoutShare` > 0 that share of the receivers never answers (the attempt times out); the
 * figure counts the deliveries to the answering receivers, timed until the last of them.
 */
export async function measureWebhookDeliveries(
  databaseUrl: string,
  options: { label: string; merchants: number; perMerchant: number; timeoutShare: number; timeoutMs: number },
): Promise<DeliveryFigure> {
  await migrateDatabase(databaseUrl);
  const db = createDb(databaseUrl, { poolSize: 10 });
  const secretBox = createSecretBox(Buffer.alloc(32, 9));
  const receivers: WebhookReceiver[] = [];
  const merchantIds: string[] = [];
  const now = () => new Date();
  const timingOut = Math.round(options.merchants * options.timeoutShare);
  for (let i = 0; i < options.merchants; i++) {
    const receiver = await startWebhookReceiver(() => (i < timingOut ? "hang" : 200));
    receivers.push(receiver);
    const merchant = await createMerchant.prepare(undefined, { name: `bench ${i}` });
    const { merchantId } = await withTransaction(db, (tx) => createMerchant.execute(tx, { secretBox }, merchant));
    await withTransaction(db, (tx) => issueWebhookSecret(tx, { secretBox, now }, { merchantId, url: receiver.url }));
    merchantIds.push(merchantId);
  }
  const healthyIds: string[] = [];
  for (const [i, merchantId] of merchantIds.entries()) {
    await withTransaction(db, async (tx) => {
      for (let n = 0; n < options.perMerchant; n++) {
        const uuid = randomUUID();
        const ids = await recordWebhookEvent(tx, { merchantId, eventType: "invoice.paid", objectId: uuid, body: { type: "payment", uuid, status: "paid" }, now: now() });
        if (i >= timingOut) healthyIds.push(...ids);
      }
    });
  }
  const started = performance.now();
  const dispatcher = startWebhookDispatcher(
    { db, secretBox, now, sendOptions: { allowLoopback: true, timeoutMs: options.timeoutMs } },
    { ...DEFAULT_DISPATCHER_OPTIONS, pollIntervalMs: 50, onlyMerchantIds: merchantIds },
  );
  for (;;) {
    const delivered = await db.webhookDelivery.count({ where: { id: { in: healthyIds }, status: "delivered" } });
    if (delivered === healthyIds.length) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await dispatcher.stop();
  await db.$disconnect();
  return { label: options.label, deliveries: healthyIds.length, seconds, perSecond: healthyIds.length / seconds };
}
