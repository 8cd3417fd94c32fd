import type { Db } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { AppError } from "@/lib/errors";
import { vetMerchantUrl } from "@/lib/net/outbound-url";
import { generateWebhookSecret, sealWebhookSecret } from "@/lib/webhooks/signing-secrets";
import { withTransaction } from "@/lib/db/transaction";

/** How long the replaced secret keeps signing after a registration or rotation, by default. */
export const DEFAULT_SECRET_OVERLAP_HOURS = 24;

export interface WebhookEndpointView {
  url: string | null;
  created_at: string;
  updated_at: string;
  /** When the replaced secret stops signing; null when no rotation overlap is running. */
  previous_secret_expires_at: string | null;
}

interface Deps {
  db: Db;
  secretBox: SecretBox;
  now(): Date;
  allowLoopback: boolean;
}

/** Checks a merchant-supplied URL with the SSRF rule; `webhook.bad_url` when refused. */
export async function vetWebhookUrlOrThrow(url: string, allowLoopback: boolean): Promise<string> {
  return vetMerchantUrl(url, { allowLoopback, refusal: "webhook.bad_url" });
}

function toView(row: { url: string | null; createdAt: Date; updatedAt: Date; previousSecretExpiresAt: Date | null }, now: Date): WebhookEndpointView {
  const expires = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now ? row.previousSecretExpiresAt.toISOString() : null;
  return { url: row.url, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString(), previous_secret_expires_at: expires };
}

/**
 * Issues a new signing secret (shown once, returned here) and optionally a new URL. The
 * secret it replaces keeps signing, in X-Webhook-Signature-Previous, for `overlapHours`,
 * so the merchant can switch the receiver over without losing a delivery.
 */
async function issueSecret(deps: Deps, merchantId: string, url: string | undefined, overlapHours: number) {
  const now = deps.now();
  const secret = generateWebhookSecret();
  const sealed = sealWebhookSecret(deps.secretBox, merchantId, secret);
  const row = await withTransaction(deps.db, async (tx) => {
    // Serialise registrations (and the lazy secret of url_callback deliveries) per merchant.
    await tx.$queryRaw`SELECT id FROM merchants WHERE id = ${merchantId}::uuid FOR UPDATE`;
    const existing = await tx.webhookEndpoint.findUnique({ where: { merchantId } });
    if (!existing) {
      if (url === undefined) throw new AppError("webhook.no_endpoint");
      return tx.webhookEndpoint.create({ data: { merchantId, url, secretCiphertext: sealed, createdAt: now, updatedAt: now } });
    }
    const overlapEnds = new Date(now.getTime() + overlapHours * 3600_000);
    return tx.webhookEndpoint.update({
      where: { merchantId },
      data: {
        url: url ?? existing.url,
        secretCiphertext: sealed,
        previousSecretCiphertext: overlapHours > 0 ? existing.secretCiphertext : null,
        previousSecretExpiresAt: overlapHours > 0 ? overlapEnds : null,
        updatedAt: now,
      },
    });
  });
  return { ...toView(row, now), secret };
}

/** `POST /v1/webhooks`: registers (or moves) the endpoint and returns a new signing secret. */
export async function registerWebhookEndpoint(deps: Deps, merchantId: string, input: { url: string; overlapHours?: number }) {
  const url = await vetWebhookUrlOrThrow(input.url, deps.allowLoopback);
  return issueSecret(deps, merchantId, url, input.overlapHours ?? DEFAULT_SECRET_OVERLAP_HOURS);
}

/** `POST /v1/webhooks/rotate-secret`: a new secret for the same endpoint. */
export async function rotateWebhookSecret(deps: Deps, merchantId: string, input: { overlapHours?: number }) {
  const endpoint = await deps.db.webhookEndpoint.findUnique({ where: { merchantId }, select: { url: true } });
  if (!endpoint?.url) throw new AppError("webhook.no_endpoint");
  return issueSecret(deps, merchantId, undefined, input.overlapHours ?? DEFAULT_SECRET_OVERLAP_HOURS);
}

/** `POST /v1/webhooks/info`: the endpoint without its secret. */
export async function getWebhookEndpoint(deps: Pick<Deps, "db" | "now">, merchantId: string): Promise<WebhookEndpointView> {
  const row = await deps.db.webhookEndpoint.findUnique({ where: { merchantId } });
  if (!row?.url) throw new AppError("webhook.no_endpoint");
  return toView(row, deps.now());
}
