import type { Db, Tx } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { vetMerchantUrl } from "@/lib/net/outbound-url";
import { generateWebhookSecret, sealWebhookSecret } from "@/lib/webhooks/signing-secrets";
import { unitOf, type TxDeps, type UnitOfWork } from "@/lib/deps/unit-of-work";

/** How long the replaced secret keeps signing after a registration or rotation, by default. */
export const DEFAULT_SECRET_OVERLAP_HOURS = 24;

export interface WebhookEndpointView {
  url: string | null;
  created_at: string;
  updated_at: string;
  /** When the replaced secret stops signing; null when no rotation overlap is running. */
  previous_secret_expires_at: string | null;
}

/** Checks a merchant-supplied URL with the SSRF rule; `webhook.bad_url` when refused. */
export async function vetWebhookUrlOrThrow(url: string, allowLoopback: boolean): Promise<string> {
  return vetMerchantUrl(url, { allowLoopback, refusal: "webhook.bad_url" });
}

function toView(row: { url: string | null; createdAt: Date; updatedAt: Date; previousSecretExpiresAt: Date | null }, now: Date): WebhookEndpointView {
  const expires = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now ? row.previousSecretExpiresAt.toISOString() : null;
  return { url: row.url, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString(), previous_secret_expires_at: expires };
}

export interface SecretIssue {
  merchantId: string;
  /** A new URL (vetted), or none to keep the endpoint's. */
  url?: string;
  overlapHours?: number;
}

/**
 * Issues a new signing secret (shown once, returned here) and optionally a new URL. The
 * secret it replaces keeps signing, in X-Webhook-Signature-Previous, for `overlapHours`,
 * so the merchant can switch the receiver over without losing a delivery.
 */
export async function issueWebhookSecret(tx: Tx, deps: Pick<TxDeps, "secretBox" | "now">, { merchantId, url, overlapHours = DEFAULT_SECRET_OVERLAP_HOURS }: SecretIssue) {
  const now = deps.now();
  const secret = generateWebhookSecret();
  const sealed = sealWebhookSecret(deps.secretBox, merchantId, secret);
  // Serialise registrations (and the lazy secret of url_callback deliveries) per merchant.
  await tx.$queryRaw`SELECT id FROM merchants WHERE id = ${merchantId}::uuid FOR UPDATE`;
  const existing = await tx.webhookEndpoint.findUnique({ where: { merchantId } });
  if (!existing?.url && url === undefined) throw new AppError("webhook.no_endpoint");
  const overlapEnds = new Date(now.getTime() + overlapHours * 3600_000);
  const row = !existing
    ? await tx.webhookEndpoint.create({ data: { merchantId, url: url!, secretCiphertext: sealed, createdAt: now, updatedAt: now } })
    : await tx.webhookEndpoint.update({
        where: { merchantId },
        data: {
          url: url ?? existing.url,
          secretCiphertext: sealed,
          previousSecretCiphertext: overlapHours > 0 ? existing.secretCiphertext : null,
          previousSecretExpiresAt: overlapHours > 0 ? overlapEnds : null,
          updatedAt: now,
        },
      });
  return { ...toView(row, now), secret };
}

/** `POST /v1/webhooks`: registers (or moves) the endpoint and returns a new signing secret; the URL is vetted before. */
export const registerWebhookEndpoint: UnitOfWork<SecretIssue & { url: string }, SecretIssue, Awaited<ReturnType<typeof issueWebhookSecret>>> = {
  prepare: async (deps, issue) => ({ ...issue, url: await vetWebhookUrlOrThrow(issue.url, deps.sendOptions.allowLoopback) }),
  execute: issueWebhookSecret,
};

/** `POST /v1/webhooks/rotate-secret`: a new secret for the registered endpoint (`webhook.no_endpoint` without one). */
export const rotateWebhookSecret = unitOf((tx, deps, issue: Omit<SecretIssue, "url">) => issueWebhookSecret(tx, deps, issue));

/** `POST /v1/webhooks/info`: the endpoint without its secret. */
export async function getWebhookEndpoint(deps: { db: Db; now(): Date }, merchantId: string): Promise<WebhookEndpointView> {
  const row = await deps.db.webhookEndpoint.findUnique({ where: { merchantId } });
  if (!row?.url) throw new AppError("webhook.no_endpoint");
  return toView(row, deps.now());
}
