import type { ApiKey } from "@/generated/prisma/client";
import { issueApiKey, type IssuedApiKey } from "@/lib/auth/api-keys";
import { isApiKeyKind, type ApiKeyKind } from "@/lib/auth/api-key-identity";
import type { Db, Tx } from "@/lib/db/client";
import { forgetKeptApiKeys } from "@/lib/auth/api-key-cache";
import { afterCommit } from "@/lib/db/transaction";
import { unitOf, type UnitOfWork } from "@/lib/deps/unit-of-work";
import { AppError } from "@/lib/errors";
import { recordAudit } from "./audit-log";
import type { RequestOrigin } from "./cabinet-deps";
import type { CabinetActor } from "./sessions";

// The cabinet's API keys page: list, create, revoke, rotate. Who may call these is the caller's
// check (the "api_keys" permission, and a fresh code for creating and rotating).

/** A key as the cabinet lists it: never its secret, which is shown once, when issued. */
export interface ApiKeyView {
  publicId: string;
  kind: ApiKeyKind;
  createdAt: Date;
  revokedAt: Date | null;
}

export interface RotatedApiKey {
  /** The key that was rotated away, now revoked. */
  revoked: ApiKeyView;
  /** Its successor, of the same kind, with its secret (shown once). */
  issued: IssuedApiKey;
}

/** The merchant's keys, revoked ones included, newest first. */
export async function listApiKeys(db: Db | Tx, merchantId: string): Promise<ApiKeyView[]> {
  const keys = await db.apiKey.findMany({ where: { merchantId }, orderBy: [{ createdAt: "desc" }, { publicId: "asc" }] });
  return keys.map(toApiKeyView);
}

/** Who acts on the store's keys, and from where (each unit writes its own audit row). */
export interface KeyRequest {
  actor: CabinetActor;
  origin: RequestOrigin;
}

/** Issues a key of a kind (unified, payment or payout) to the actor's store; the secret is in the answer only. */
export const createApiKey: UnitOfWork<KeyRequest & { kind: string }, KeyRequest & { kind: ApiKeyKind }, IssuedApiKey> = {
  prepare: async (_deps, request) => {
    if (!isApiKeyKind(request.kind)) throw new AppError("cabinet.bad_request", "An API key's kind is unified, payment or payout.");
    return { ...request, kind: request.kind };
  },
  execute: async (tx, deps, { actor, origin, kind }) => {
    // The key answers to the user who made it: four eyes know it as theirs.
    const issued = await issueApiKey(tx, deps.secretBox, actor.merchantId, kind, `user:${actor.userId}`);
    await recordAudit(
      tx,
      { merchantId: actor.merchantId, userId: actor.userId, actorEmail: actor.email, action: "api_key.created", outcome: "success", origin, detail: { publicId: issued.publicId, kind } },
      deps.now(),
    );
    return issued;
  },
};

/**
 * Revokes a key of the actor's store: requests signed with it fail from the commit on. Revoking a
 * key that is already revoked changes nothing and answers it as it is (a repeated click).
 */
export const revokeApiKey = unitOf(async (tx, deps, { actor, origin, publicId }: KeyRequest & { publicId: string }): Promise<ApiKeyView> => {
  const now = deps.now();
  const key = await findMerchantKeyOrThrow(tx, actor.merchantId, publicId);
  afterCommit(tx, forgetKeptApiKeys);
  if (!(await takeKeyOutOfService(tx, key.id, now))) return toApiKeyView(await tx.apiKey.findUniqueOrThrow({ where: { id: key.id } }));
  await recordAudit(
    tx,
    { merchantId: actor.merchantId, userId: actor.userId, actorEmail: actor.email, action: "api_key.revoked", outcome: "success", origin, detail: { publicId: key.publicId, kind: key.kind } },
    now,
  );
  return { ...toApiKeyView(key), revokedAt: now };
});

/**
 * Replaces a live key of the actor's store by a new one of the same kind, in one transaction. The
 * old key stops at once — there is no overlap — so the integrator switches to the new secret when
 * they rotate. Of racing rotations of one key, one wins; the others find it revoked.
 */
export const rotateApiKey = unitOf(async (tx, deps, { actor, origin, publicId }: KeyRequest & { publicId: string }): Promise<RotatedApiKey> => {
  const now = deps.now();
  const key = await findMerchantKeyOrThrow(tx, actor.merchantId, publicId);
  const kind = key.kind;
  if (!isApiKeyKind(kind) || !(await takeKeyOutOfService(tx, key.id, now))) {
    throw new AppError("cabinet.not_found", "No live API key of your store has this public id: a revoked key cannot be rotated.");
  }
  // The new secret is shown to the user who rotates: from now on it is theirs.
  const issued = await issueApiKey(tx, deps.secretBox, actor.merchantId, kind, `user:${actor.userId}`);
  await recordAudit(
    tx,
    {
      merchantId: actor.merchantId,
      userId: actor.userId,
      actorEmail: actor.email,
      action: "api_key.rotated",
      outcome: "success",
      origin,
      detail: { publicId: key.publicId, newPublicId: issued.publicId, kind },
    },
    now,
  );
  afterCommit(tx, forgetKeptApiKeys);
  return { revoked: { ...toApiKeyView(key), revokedAt: now }, issued };
});

function toApiKeyView(key: ApiKey): ApiKeyView {
  return { publicId: key.publicId, kind: key.kind as ApiKeyKind, createdAt: key.createdAt, revokedAt: key.revokedAt };
}

/** A key of this merchant; another merchant's key answers exactly as an unknown one. */
async function findMerchantKeyOrThrow(tx: Tx, merchantId: string, publicId: string): Promise<ApiKey> {
  const key = await tx.apiKey.findFirst({ where: { publicId, merchantId } });
  if (!key) throw new AppError("cabinet.not_found");
  return key;
}

/**
 * Revokes a key by a conditional update: its row lock makes a concurrent revoke or rotate wait,
 * then find the key revoked. False when it already was. (lib/auth/api-keys' revokeApiKey takes no
 * transaction, hence this.)
 */
async function takeKeyOutOfService(tx: Tx, keyId: string, now: Date): Promise<boolean> {
  const { count } = await tx.apiKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: now } });
  return count === 1;
}
