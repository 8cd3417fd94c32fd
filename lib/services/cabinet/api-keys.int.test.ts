import { describe, expect, it } from "vitest";
import { findActiveApiKey } from "@/lib/auth/api-keys";
import { auditOf as auditRowsOf, createStore, openSessionFor, refusalCodeOf, TEST_ORIGIN } from "@/lib/testing/cabinet";
import { getTestDb, getTestSecretBox, makeTestDeps } from "@/lib/testing/harness";
import { createApiKey, listApiKeys, revokeApiKey, rotateApiKey } from "./api-keys";
import { runUnit } from "@/lib/deps/unit-of-work";
import type { CabinetActor } from "./sessions";

// The cabinet's API keys: created with a secret shown once, listed without it, revoked and rotated
// (the old key stops at once) within the actor's store only, each with its audit row.

const deps = () => makeTestDeps();

/** A merchant (with the unified key createMerchant issues) and its signed-in owner. */
async function newStore(): Promise<{ merchantId: string; firstKey: string; owner: CabinetActor }> {
  const { merchantId, ownerEmail, api } = await createStore("Key shop");
  return { merchantId, firstKey: api.publicId, owner: await openSessionFor(ownerEmail) };
}

const isLive = async (publicId: string) => (await findActiveApiKey(getTestDb(), getTestSecretBox(), publicId)) !== null;

/** The store's API key audit rows, as the assertions compare them. */
const auditOf = (merchantId: string) => auditRowsOf(merchantId, { startsWith: "api_key." }, ["action", "userId", "detail"]);

describe("cabinet API keys", () => {
  it("creates a key whose secret is shown once and authenticates; lists keys without secrets", async () => {
    const store = await newStore();
    const created = await runUnit(deps(), createApiKey, { actor: store.owner, origin: TEST_ORIGIN, kind: "payout" });
    expect(created.publicId).toMatch(/^pk_[0-9a-f]{24}$/);
    expect(created.secret).toMatch(/^sk_/);
    expect(await findActiveApiKey(getTestDb(), getTestSecretBox(), created.publicId)).toMatchObject({ kind: "payout", secret: created.secret, merchantId: store.merchantId });

    const listed = await listApiKeys(getTestDb(), store.merchantId);
    expect(listed.map((key) => [key.publicId, key.kind, key.revokedAt])).toEqual(
      expect.arrayContaining([
        [created.publicId, "payout", null],
        [store.firstKey, "unified", null],
      ]),
    );
    expect(listed).toHaveLength(2);
    expect(Object.keys(listed[0]).sort()).toEqual(["createdAt", "kind", "publicId", "revokedAt"]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    expect(await refusalCodeOf(runUnit(deps(), createApiKey, { actor: store.owner, origin: TEST_ORIGIN, kind: "admin" }))).toBe("cabinet.bad_request");
    expect(await auditOf(store.merchantId)).toEqual([{ action: "api_key.created", userId: store.owner.userId, detail: { publicId: created.publicId, kind: "payout" } }]);
    expect(JSON.stringify(await auditOf(store.merchantId))).not.toContain(created.secret);
  });

  it("rotates a key: the old one fails at once, the new one of the same kind works", async () => {
    const store = await newStore();
    const payment = await runUnit(deps(), createApiKey, { actor: store.owner, origin: TEST_ORIGIN, kind: "payment" });
    const rotated = await runUnit(deps(), rotateApiKey, { actor: store.owner, origin: TEST_ORIGIN, publicId: payment.publicId });
    expect(rotated.revoked).toMatchObject({ publicId: payment.publicId, kind: "payment" });
    expect(rotated.revoked.revokedAt).toBeInstanceOf(Date);
    expect(rotated.issued.kind).toBe("payment");
    expect(rotated.issued.publicId).not.toBe(payment.publicId);
    expect(await isLive(payment.publicId)).toBe(false);
    expect(await findActiveApiKey(getTestDb(), getTestSecretBox(), rotated.issued.publicId)).toMatchObject({ kind: "payment", secret: rotated.issued.secret, merchantId: store.merchantId });

    // A rotated-away key is revoked: it cannot be rotated again.
    expect(await refusalCodeOf(runUnit(deps(), rotateApiKey, { actor: store.owner, origin: TEST_ORIGIN, publicId: payment.publicId }))).toBe("cabinet.not_found");
    const listed = await listApiKeys(getTestDb(), store.merchantId);
    expect(listed.find((key) => key.publicId === payment.publicId)?.revokedAt).toBeInstanceOf(Date);
    expect(listed.find((key) => key.publicId === rotated.issued.publicId)?.revokedAt).toBeNull();

    expect(await auditOf(store.merchantId)).toEqual(
      expect.arrayContaining([{ action: "api_key.rotated", userId: store.owner.userId, detail: { publicId: payment.publicId, newPublicId: rotated.issued.publicId, kind: "payment" } }]),
    );
  });

  it("lets one of racing rotations of a key win", async () => {
    const store = await newStore();
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => runUnit(deps(), rotateApiKey, { actor: store.owner, origin: TEST_ORIGIN, publicId: store.firstKey })));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results) {
      if (result.status === "rejected") expect(result.reason).toMatchObject({ code: "cabinet.not_found" });
    }
    const live = (await listApiKeys(getTestDb(), store.merchantId)).filter((key) => key.revokedAt === null);
    expect(live).toHaveLength(1);
    expect(live[0].kind).toBe("unified");
    expect((await auditOf(store.merchantId)).filter((event) => event.action === "api_key.rotated")).toHaveLength(1);
  });

  it("revokes a key at once; revoking it again changes nothing", async () => {
    const store = await newStore();
    expect(await isLive(store.firstKey)).toBe(true);
    const revoked = await runUnit(deps(), revokeApiKey, { actor: store.owner, origin: TEST_ORIGIN, publicId: store.firstKey });
    expect(revoked).toMatchObject({ publicId: store.firstKey, kind: "unified" });
    expect(revoked.revokedAt).toBeInstanceOf(Date);
    expect(await isLive(store.firstKey)).toBe(false);

    const again = await runUnit(deps(), revokeApiKey, { actor: store.owner, origin: TEST_ORIGIN, publicId: store.firstKey });
    expect(again.revokedAt?.getTime()).toBe(revoked.revokedAt!.getTime());
    expect(await auditOf(store.merchantId)).toEqual([{ action: "api_key.revoked", userId: store.owner.userId, detail: { publicId: store.firstKey, kind: "unified" } }]);
  });

  it("keeps each merchant to its own keys", async () => {
    const mine = await newStore();
    const theirs = await newStore();
    expect(await refusalCodeOf(runUnit(deps(), revokeApiKey, { actor: mine.owner, origin: TEST_ORIGIN, publicId: theirs.firstKey }))).toBe("cabinet.not_found");
    expect(await refusalCodeOf(runUnit(deps(), rotateApiKey, { actor: mine.owner, origin: TEST_ORIGIN, publicId: theirs.firstKey }))).toBe("cabinet.not_found");
    expect(await refusalCodeOf(runUnit(deps(), revokeApiKey, { actor: mine.owner, origin: TEST_ORIGIN, publicId: "pk_unknown" }))).toBe("cabinet.not_found");
    expect(await isLive(theirs.firstKey)).toBe(true);

    const created = await runUnit(deps(), createApiKey, { actor: mine.owner, origin: TEST_ORIGIN, kind: "unified" });
    expect((await listApiKeys(getTestDb(), mine.merchantId)).map((key) => key.publicId).sort()).toEqual([mine.firstKey, created.publicId].sort());
    expect((await listApiKeys(getTestDb(), theirs.merchantId)).map((key) => key.publicId)).toEqual([theirs.firstKey]);
    expect(await auditOf(theirs.merchantId)).toEqual([]);
  });
});
