import type { Db } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { MAX_WEBHOOK_ATTEMPTS } from "@/lib/domain/webhook-delivery/backoff";
import { decideDeliveryAttempt, type DeliveryStatus } from "@/lib/domain/webhook-delivery/transition";
import { buildDeliveryHeaders } from "@/lib/webhooks/signing";
import { getSigningSecrets, openSigningSecrets, type SealedSigningSecrets } from "@/lib/webhooks/signing-secrets";
import { sendWebhookRequest, type SendOptions, type SendResult } from "@/lib/webhooks/send-request";
import { recordWebhookAttempt } from "@/lib/metrics/record-webhook-attempt";
import { log } from "@/lib/log";

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
  /** The merchant's signing secrets, read with the claim; null when it has none yet (one is created at send time). */
  sealedSecrets?: SealedSigningSecrets | null;
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

interface ClaimedRow extends Omit<ClaimedDelivery, "sealedSecrets"> {
  secretCiphertext: string | null;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
}

/**
 * Claims due deliveries for one attempt each, in one statement: for each merchant with due
 * deliveries, its oldest few (its allowance) through the pending-by-merchant index; merchants
 * take turns, so one with a deep backlog cannot fill every slot. Only the chosen rows are
 * locked, with SKIP LOCKED, and the lease is re-checked on the locked row: a worker claiming at
 * the same moment skips these instead of waiting for them, and no attempt is claimed twice. The
 * merchant's sealed signing secrets come back with each delivery, so sending needs no further query.
 */
export async function claimDueDeliveries(db: Db, now: Date, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const leaseUntil = new Date(now.getTime() + DELIVERY_LEASE_SECONDS * 1000);
  const busyMerchants = [...(options.merchantAllowances?.keys() ?? [])];
  const allowances = [...(options.merchantAllowances?.values() ?? [])];
  const only = options.onlyMerchantIds ?? null;
  const rows = await db.$queryRaw<ClaimedRow[]>`
    WITH due_merchants AS (
      SELECT DISTINCT merchant_id FROM webhook_deliveries
      WHERE status = 'pending' AND next_attempt_at <= ${now}
        AND (${only}::uuid[] IS NULL OR merchant_id = ANY(${only}::uuid[]))
    ),
    candidates AS (
      SELECT due.id FROM due_merchants m
      LEFT JOIN unnest(${busyMerchants}::uuid[], ${allowances}::int[]) AS busy(merchant_id, allowance) ON busy.merchant_id = m.merchant_id
      CROSS JOIN LATERAL (
        SELECT oldest.id, oldest.next_attempt_at, row_number() OVER (ORDER BY oldest.next_attempt_at, oldest.created_at) AS position
        FROM (
          SELECT id, next_attempt_at, created_at FROM webhook_deliveries
          WHERE merchant_id = m.merchant_id AND status = 'pending' AND next_attempt_at <= ${now} AND attempts < ${MAX_WEBHOOK_ATTEMPTS}
            AND (lease_until IS NULL OR lease_until <= ${now})
          ORDER BY next_attempt_at, created_at
          LIMIT COALESCE(busy.allowance, ${options.perMerchantLimit})
        ) oldest
      ) due
      ORDER BY due.position, due.next_attempt_at
      LIMIT ${options.limit}
    ),
    locked AS (
      SELECT id FROM webhook_deliveries
      WHERE id IN (SELECT id FROM candidates) AND status = 'pending' AND attempts < ${MAX_WEBHOOK_ATTEMPTS}
        AND (lease_until IS NULL OR lease_until <= ${now})
      FOR UPDATE SKIP LOCKED
    ),
    claimed AS (
      UPDATE webhook_deliveries d
      SET lease_until = ${leaseUntil}, attempts = d.attempts + 1, updated_at = ${now}
      FROM locked
      WHERE d.id = locked.id
      RETURNING d.id, d.merchant_id, d.event_id, d.event_type, d.url, d.body, d.attempts
    )
    SELECT claimed.id, claimed.merchant_id::text AS "merchantId", claimed.event_id::text AS "eventId", claimed.event_type AS "eventType",
           claimed.url, claimed.body, claimed.attempts AS attempt,
           e.secret_ciphertext AS "secretCiphertext", e.previous_secret_ciphertext AS "previousSecretCiphertext",
           e.previous_secret_expires_at AS "previousSecretExpiresAt"
    FROM claimed LEFT JOIN webhook_endpoints e ON e.merchant_id = claimed.merchant_id`;
  return rows.map(({ secretCiphertext, previousSecretCiphertext, previousSecretExpiresAt, ...delivery }) => ({
    ...delivery,
    sealedSecrets: secretCiphertext === null ? null : { secretCiphertext, previousSecretCiphertext, previousSecretExpiresAt },
  }));
}

/** How one attempt ended: what the receiver did, and when. */
export interface AttemptOutcome {
  delivery: ClaimedDelivery;
  result: SendResult;
  finishedAt: Date;
}

/** Somewhere an attempt's outcome is written durably; the promise settles once it is. */
export type OutcomeWriter = (outcome: AttemptOutcome) => Promise<void>;

/**
 * Signs and sends one claimed attempt, without recording it. A failure before sending (the
 * secret could not be read) is a failed attempt too, so the delivery still moves along its
 * schedule to `dead` instead of being retried forever.
 */
export async function sendClaimedAttempt(deps: DeliveryDeps, delivery: ClaimedDelivery): Promise<SendResult> {
  try {
    const now = deps.now();
    const secrets = delivery.sealedSecrets
      ? openSigningSecrets(deps.secretBox, delivery.merchantId, delivery.sealedSecrets, now)
      : await getSigningSecrets(deps.db, deps.secretBox, delivery.merchantId, now);
    const timestamp = String(Math.floor(now.getTime() / 1000));
    return await (deps.send ?? sendWebhookRequest)(delivery.url, delivery.body, buildDeliveryHeaders(delivery, secrets, timestamp), deps.sendOptions);
  } catch (error) {
    return { isDelivered: false, error: `not sent: ${error instanceof Error ? error.message : "internal error"}`, durationMs: 0 };
  }
}

/**
 * Sends one claimed attempt and records its outcome (through `writeOutcome`, which may group it
 * with others); returns the outcome once it is recorded.
 */
export async function attemptDelivery(deps: DeliveryDeps, delivery: ClaimedDelivery, writeOutcome?: OutcomeWriter): Promise<SendResult> {
  const result = await sendClaimedAttempt(deps, delivery);
  const outcome = { delivery, result, finishedAt: deps.now() };
  await (writeOutcome ? writeOutcome(outcome) : recordAttemptOutcomes(deps.db, [outcome]));
  return result;
}

/**
 * Records an attempt's outcome, only if the row is still at that attempt: a worker that
 * outlived its lease (and whose attempt was retried elsewhere) cannot overwrite the newer one.
 */
export async function recordAttemptOutcome(db: Db, delivery: ClaimedDelivery, result: SendResult, now: Date): Promise<void> {
  await recordAttemptOutcomes(db, [{ delivery, result, finishedAt: now }]);
}

/**
 * Records many attempts' outcomes in one statement, each under the same condition as
 * recordAttemptOutcome (the row is still pending at that attempt). Returns how many were recorded.
 */
export async function recordAttemptOutcomes(db: Db, outcomes: readonly AttemptOutcome[]): Promise<number> {
  if (outcomes.length === 0) return 0;
  const rows = outcomes.map(({ delivery, result, finishedAt }) => {
    const decision = decideDeliveryAttempt(delivery.attempt, result.isDelivered, finishedAt);
    return {
      id: delivery.id,
      attempt: delivery.attempt,
      status: decision.status,
      nextAttemptAt: decision.nextAttemptAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      lastError: decision.status === "delivered" ? "" : (result.error ?? "failed").slice(0, 500),
      statusCode: result.statusCode ?? null,
    };
  });
  const recorded = await db.$queryRaw<{ status: DeliveryStatus }[]>`
    UPDATE webhook_deliveries d
    SET status = o.status, next_attempt_at = o.next_attempt_at, last_error = o.last_error, last_status_code = o.status_code,
        delivered_at = CASE WHEN o.status = 'delivered' THEN o.finished_at ELSE d.delivered_at END,
        lease_until = NULL, updated_at = o.finished_at
    FROM unnest(
      ${rows.map((row) => row.id)}::uuid[], ${rows.map((row) => row.attempt)}::int[], ${rows.map((row) => row.status)}::text[],
      ${rows.map((row) => row.nextAttemptAt)}::timestamptz[], ${rows.map((row) => row.finishedAt)}::timestamptz[],
      ${rows.map((row) => row.lastError)}::text[], ${rows.map((row) => row.statusCode)}::int[]
    ) AS o(id, attempt, status, next_attempt_at, finished_at, last_error, status_code)
    WHERE d.id = o.id AND d.attempts = o.attempt AND d.status = 'pending'
    RETURNING o.status`;
  // A stale worker's outcome was not recorded, so it is not counted either: each attempt counts once.
  for (const row of recorded) recordWebhookAttempt(row.status);
  return recorded.length;
}

/**
 * Gives back claimed attempts that were never sent (the dispatcher stopped, or one waited too
 * long for a slot): the lease ends and the attempt number is returned, so the next claim sends
 * that same attempt. Only rows still leased to that attempt change; returns how many did.
 */
export async function releaseUnsentClaims(db: Db, deliveries: readonly ClaimedDelivery[], now: Date): Promise<number> {
  if (deliveries.length === 0) return 0;
  return db.$executeRaw`
    UPDATE webhook_deliveries d
    SET lease_until = NULL, attempts = d.attempts - 1, updated_at = ${now}
    FROM unnest(${deliveries.map((delivery) => delivery.id)}::uuid[], ${deliveries.map((delivery) => delivery.attempt)}::int[]) AS c(id, attempt)
    WHERE d.id = c.id AND d.attempts = c.attempt AND d.status = 'pending' AND d.lease_until > ${now}`;
}

/** Outcomes written by one statement at most. */
const MAX_OUTCOMES_PER_WRITE = 500;

/**
 * Writes outcomes as attempts finish, several to a statement: the first waits only for the
 * current turn of the event loop, and those that finish while a write is in flight go together
 * in the next one. The database then sees a few writes per round trip instead of one per
 * attempt, and no outcome waits for a timer. A failed write is tried once more (a deadlock
 * with another worker, a dropped connection); if that fails too, its attempts stay leased and
 * are sent again once the lease expires.
 */
export function createOutcomeWriter(db: Db): OutcomeWriter {
  let waiting: { outcome: AttemptOutcome; resolve(): void; reject(error: unknown): void }[] = [];
  let isWriting = false;
  const writeWaiting = async () => {
    while (waiting.length > 0) {
      const batch = waiting.slice(0, MAX_OUTCOMES_PER_WRITE);
      waiting = waiting.slice(batch.length);
      const outcomes = batch.map((entry) => entry.outcome);
      try {
        await recordAttemptOutcomes(db, outcomes).catch((error) => {
          log.warn("webhook outcomes were not recorded; trying once more", { error });
          return recordAttemptOutcomes(db, outcomes);
        });
        batch.forEach((entry) => entry.resolve());
      } catch (error) {
        batch.forEach((entry) => entry.reject(error));
      }
    }
    isWriting = false;
  };
  return (outcome) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ outcome, resolve, reject });
      if (isWriting) return;
      isWriting = true;
      setImmediate(() => void writeWaiting());
    });
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
  const writeOutcome = createOutcomeWriter(deps.db);
  const results = await Promise.all(claimed.map((delivery) => attemptDelivery(deps, delivery, writeOutcome)));
  return { attempted: claimed.length, delivered: results.filter((result) => result.isDelivered).length };
}

/** When the earliest pending delivery is due (for drivers that sleep until then). */
export async function findNextDeliveryDueAt(db: Db): Promise<Date | null> {
  const next = await db.webhookDelivery.findFirst({ where: { status: "pending" }, orderBy: { nextAttemptAt: "asc" }, select: { nextAttemptAt: true } });
  return next?.nextAttemptAt ?? null;
}
