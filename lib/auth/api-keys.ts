import { randomBytes, randomUUID } from "node:crypto";
import type { Db, Tx } from "@/lib/db/client";
import type { SecretBox } from "@/lib/crypto/secret-box";
import { queryDirect } from "@/lib/db/direct-query";
import { forgetKeptApiKeys } from "./api-key-cache";
import { isApiKeyKind, type ActiveApiKey, type ApiKeyKind } from "./api-key-identity";

/** spec: operator contract §2 — what a key may call. */

export interface IssuedApiKey {
  publicId: string;
  /** Shown once; only its ciphertext is stored. */
  secret: string;
  kind: ApiKeyKind;
}

// The associated data binds each ciphertext to its key, so secrets cannot be swapped between rows.
function secretContext(publicId: string): string {
  return `api-key:${publicId}`;
}

/** Who answers for keys the CLI makes: the operator, one person. */
export const OPERATOR = "operator";

/**
 * Creates a key for a merchant, answered for by `owner` (`user:<id>`, or the operator). Public id
 * `pk_` + 24 hex; secret `sk_` + 43 base64url (256 bits).
 */
export async function issueApiKey(db: Db | Tx, box: SecretBox, merchantId: string, kind: ApiKeyKind, owner: string = OPERATOR): Promise<IssuedApiKey> {
  const publicId = `pk_${randomBytes(12).toString("hex")}`;
  const secret = `sk_${randomBytes(32).toString("base64url")}`;
  await db.apiKey.create({
    data: { id: randomUUID(), merchantId, publicId, kind, owner, secretCiphertext: box.seal(secret, secretContext(publicId)) },
  });
  return { publicId, secret, kind };
}

/** The unrevoked key with this public id, with what request checks need; null when unknown or revoked. */
export async function findActiveApiKey(db: Db, box: SecretBox, publicId: string): Promise<ActiveApiKey | null> {
  // One round trip on every signed request: the key, its merchant's allow-list flag and entries,
  // and the terms a new invoice takes (so creating one reads no merchant row).
  const rows = await queryDirect<{
    kind: string;
    secret_ciphertext: string;
    merchant_id: string;
    allowlist_enabled: boolean;
    entries: string[];
    fee_percent_bps: number | null;
    fee_fixed_usd_minor: string | null;
    accuracy_bps: number;
  }>(
    db,
    `SELECT k.kind, k.secret_ciphertext, k.merchant_id::text AS merchant_id, m.allowlist_enabled,
            m.fee_percent_bps, m.fee_fixed_usd_minor::text AS fee_fixed_usd_minor, m.accuracy_bps,
            COALESCE((SELECT array_agg(e.cidr) FROM allowlist_entries e WHERE e.merchant_id = k.merchant_id), '{}')::text[] AS entries
     FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
     WHERE k.public_id = $1 AND k.revoked_at IS NULL`,
    [publicId],
  );
  const row = rows[0];
  if (!row || !isApiKeyKind(row.kind)) return null;
  return {
    publicId,
    kind: row.kind,
    secret: box.open(row.secret_ciphertext, secretContext(publicId)),
    merchantId: row.merchant_id,
    allowlist: { enabled: row.allowlist_enabled, entries: row.entries },
    invoiceTerms: {
      feePercentBps: row.fee_percent_bps,
      feeFixedUsdMinor: row.fee_fixed_usd_minor === null ? null : BigInt(row.fee_fixed_usd_minor),
      accuracyBps: row.accuracy_bps,
    },
  };
}

/** Revokes a key; false when no unrevoked key has this public id. */
export async function revokeApiKey(db: Db, publicId: string, now: Date): Promise<boolean> {
  const { count } = await db.apiKey.updateMany({ where: { publicId, revokedAt: null }, data: { revokedAt: now } });
  forgetKeptApiKeys();
  return count === 1;
}
