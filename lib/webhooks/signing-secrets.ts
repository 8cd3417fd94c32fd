import { randomBytes } from "node:crypto";
import type { Db, Tx } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";

export interface SigningSecrets {
  current: string;
  /** The secret before the last rotation, while its overlap lasts. */
  previous?: string;
}

function context(merchantId: string): string {
  return `webhook-secret:${merchantId}`;
}

/** A new endpoint signing secret: `whsec_` + 256 random bits, base64url. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

export function sealWebhookSecret(box: SecretBox, merchantId: string, secret: string): string {
  return box.seal(secret, context(merchantId));
}

/** A merchant's signing secrets as stored, sealed (read alongside a claim of its deliveries). */
export interface SealedSigningSecrets {
  secretCiphertext: string;
  previousSecretCiphertext: string | null;
  previousSecretExpiresAt: Date | null;
}

/** Opens sealed signing secrets; the previous secret only while its overlap lasts at `now`. */
export function openSigningSecrets(box: SecretBox, merchantId: string, sealed: SealedSigningSecrets, now: Date): SigningSecrets {
  const secrets: SigningSecrets = { current: box.open(sealed.secretCiphertext, context(merchantId)) };
  if (sealed.previousSecretCiphertext && sealed.previousSecretExpiresAt && sealed.previousSecretExpiresAt > now) {
    secrets.previous = box.open(sealed.previousSecretCiphertext, context(merchantId));
  }
  return secrets;
}

/**
 * The secrets that sign a merchant's deliveries. A merchant who never registered an endpoint
 * (url_callback only) gets a secret created here, kept until registration replaces it.
 */
export async function getSigningSecrets(db: Db | Tx, box: SecretBox, merchantId: string, now: Date): Promise<SigningSecrets> {
  let row = await db.webhookEndpoint.findUnique({ where: { merchantId } });
  if (!row) {
    // skipDuplicates: a concurrent registration or delivery may create the row first; theirs wins.
    await db.webhookEndpoint.createMany({
      data: [{ merchantId, secretCiphertext: sealWebhookSecret(box, merchantId, generateWebhookSecret()) }],
      skipDuplicates: true,
    });
    row = await db.webhookEndpoint.findUniqueOrThrow({ where: { merchantId } });
  }
  return openSigningSecrets(box, merchantId, row, now);
}

export const MAX_SECRET_OVERLAP_HOURS = 168;
