import type { Db } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { MAX_WEBHOOK_ATTEMPTS } from "@/lib/domain/webhook-delivery/backoff";
import { decideDeliveryAttempt } from "@/lib/domain/webhook-delivery/transition";
import { buildDeliveryHeaders } from "@/lib/webhooks/signing";
import { getSigningSecrets } from "@/lib/webhooks/signing-secrets";
import { sendWebhookRequest, type SendOptions, type SendResult } from "@/lib/webhooks/send-request";
import { recordWebhookAttempt } from "@/lib/metrics/record-webhook-attempt";

export interface DeliveryDeps {
  db: Db;
  secretBox: SecretBox;
  now(): Date;
  send?: typeof sendWebhookRequest;
  sendOptions: SendOptions;
}

/** A delivery claimed for one attempt. `attempt` identifies the attempt (1-based). */
export interface ClaimedDelivery {
  id: string;
  merchantId: string;
  /** The recorded event (X-Webhook-Event-Id); null on deliveries older than the event log. */
  eventId: string | null;
  eventType: string;
  url: string;
  body: string;
  attempt: number;
}

/** How long a claimed attempt is reserved; after that another worker may retry it. */
export const DELIVERY_LEASE_SECONDS = 60;

export interface ClaimOptions {
  limit: number;
  /** At most this many due deliveries of one merchant per claim, so one merchant cannot fill every slot. */
  perMerchantLimit: number;
  /** Merchants with attempts already in flight, and how many more each may have now (0 = none). */
  merchantAllowances?: ReadonlyMap<string, number>;
  /** Restricts the pass to these merchants (flushing one merchant's backlog; isolated tests). */
  onlyMerchantIds?: string[];
}

/**
 * Claims due deliveries for one attempt each. The conditional UPDATE is the lock: a row whose
 * lease another worker took in between no longer matches, so no attempt is claimed twice.
 */
export async function claimDueDeliveries(db: Db, now: Date, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const leaseUntil = new Date(now.getTime() + DELIVERY_LEASE_SECONDS * 1000);
  const busyMerchants = [...(options.merchantAllowances?.keys() ?? [])];
  const allowances = [...(options.merchantAllowances?.values() ?? [])];
  const only = options.onlyMerchantIds ?? null;
  return db.$queryRaw<ClaimedDelivery[]>`
    WITH candidates AS (
      SELECT ranked.id FROM (
        SELECT id, merchant_id, row_number() OVER (PARTITION BY merchant_id ORDER BY next_attempt_at, created_at) AS position
        FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= ${now} AND attempts < ${MAX_WEBHOOK_ATTEMPTS}
          AND (lease_until IS NULL OR lease_until <= ${now})
          AND (${only}::uuid[] IS NULL OR merchant_id = ANY(${only}::uuid[]))
      ) ranked
      LEFT JOIN unnest(${busyMerchants}::uuid[], ${allowances}::int[]) AS busy(merchant_id, allowance) ON busy.merchant_id = ranked.merchant_id
      WHERE ranked.position <= COALESCE(busy.allowance, ${options.perMerchantLimit})
      LIMIT ${options.limit}
    )
    UPDATE webhook_deliveries d
    SET lease_until = ${leaseUntil}, attempts = d.attempts + 1, updated_at = ${now}
    FROM candidates c
    WHERE d.id = c.id AND d.status = 'pending' AND (d.lease_until IS NULL OR d.lease_until <= ${now})
    RETURNING d.id, d.merchant_id::text AS "merchantId", d.event_id::text AS "eventId", d.event_type AS "eventType", d.url, d.body, d.attempts AS attempt`;
}

/**
 * Sends one claimed attempt and records its outcome; returns the outcome. A failure before
 * sending (the secret could not be read) is recorded as a failed attempt too, so the delivery
 * still moves along its schedule to `dead` instead of being retried forever.
 */
export async function attemptDelivery(deps: DeliveryDeps, delivery: ClaimedDelivery): Promise<SendResult> {
  let result: SendResult;
  try {
    const secrets = await getSigningSecrets(deps.db, deps.secretBox, delivery.merchantId, deps.now());
    const timestamp = String(Math.floor(deps.now().getTime() / 1000));
    result = await (deps.send ?? sendWebhookRequest)(delivery.url, delivery.body, buildDeliveryHeaders(delivery, secrets, timestamp), deps.sendOptions);
  } catch (error) {
    result = { isDelivered: false, error: `not sent: ${error instanceof Error ? error.message : "internal error"}`, durationMs: 0 };
  }
  await recordAttemptOutcome(deps.db, delivery, result, deps.now());
  return result;
}

/**
 * Records an attempt's outcome, only if the row is still at that attempt: a worker that
 * outlived its lease (and whose attempt was retried elsewhere) cannot overwrite the newer one.
 */
export async function recordAttemptOutcome(db: Db, delivery: ClaimedDelivery, result: SendResult, now: Date): Promise<void> {
  const decision = decideDeliveryAttempt(delivery.attempt, result.isDelivered, now);
  const recorded = await db.webhookDelivery.updateMany({
    where: { id: delivery.id, attempts: delivery.attempt, status: "pending" },
    data: {
      status: decision.status,
      nextAttemptAt: decision.nextAttemptAt,
      ...(decision.status === "delivered" ? { deliveredAt: now, lastError: "" } : { lastError: (result.error ?? "failed").slice(0, 500) }),
      leaseUntil: null,
      lastStatusCode: result.statusCode ?? null,
      updatedAt: now,
    },
  });
  // A stale worker's outcome was not recorded, so it is not counted either: each attempt counts once.
  if (recorded.count > 0) recordWebhookAttempt(decision.status);
}

/** Why a delivery reaped by `reapAbandonedLastAttempts` is dead. */
export const ABANDONED_LAST_ATTEMPT_ERROR = "the worker stopped during the last attempt; its outcome is unknown";

/**
 * Ends deliveries whose last attempt was claimed by a worker that stopped before recording it.
 * An earlier attempt in that state is simply claimed again once its lease expires, but the last
 * one never is (the claim stops at MAX_WEBHOOK_ATTEMPTS), so without this the row would stay
 * `pending` forever, hold its event past retention and keep the queue's oldest age growing.
 * The receiver may or may not have had it: `dead` keeps it in the log for a manual resend.
 */
export async function reapAbandonedLastAttempts(db: Db, now: Date, options: Pick<ClaimOptions, "onlyMerchantIds"> = {}): Promise<number> {
  const only = options.onlyMerchantIds ?? null;
  return db.$executeRaw`
    UPDATE webhook_deliveries
       SET status = 'dead', lease_until = NULL, next_attempt_at = ${now}, last_error = ${ABANDONED_LAST_ATTEMPT_ERROR}, updated_at = ${now}
     WHERE status = 'pending' AND attempts >= ${MAX_WEBHOOK_ATTEMPTS} AND lease_until <= ${now}
       AND (${only}::uuid[] IS NULL OR merchant_id = ANY(${only}::uuid[]))`;
}

/**
 * One idempotent pass of the dispatcher: claims what is due and attempts it, concurrently.
 * Used by the Inngest function and by tests; the built-in worker runs a continuous loop of
 * the same claim and attempt steps.
 */
export async function deliverDueWebhooks(deps: DeliveryDeps, options: ClaimOptions = { limit: 50, perMerchantLimit: 5 }) {
  const claimed = await claimDueDeliveries(deps.db, deps.now(), options);
  const results = await Promise.all(claimed.map((delivery) => attemptDelivery(deps, delivery)));
  return { attempted: claimed.length, delivered: results.filter((result) => result.isDelivered).length };
}

/** When the earliest pending delivery is due (for drivers that sleep until then). */
export async function findNextDeliveryDueAt(db: Db): Promise<Date | null> {
  const next = await db.webhookDelivery.findFirst({ where: { status: "pending" }, orderBy: { nextAttemptAt: "asc" }, select: { nextAttemptAt: true } });
  return next?.nextAttemptAt ?? null;
}
