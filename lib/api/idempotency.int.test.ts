import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { createDb } from "@/lib/db/client";
import { callApi, getTestDb, makeMerchant, signedRequest, type TestMerchant } from "@/lib/testing/harness";
import { defineOperation, defineWork, type OperationEntry } from "./operation";
import { claimIdempotencyKey, IDEMPOTENCY_LOCK_SECONDS, renewIdempotencyClaim } from "@/lib/services/idempotency/idempotency-records";
import { hashRequestBody } from "./idempotency";

function hashOf(body: object): string {
  return hashRequestBody(Buffer.from(JSON.stringify(body)));
}

/**
 * A creating operation for the kernel's own tests: counts its executions in the database,
 * can be held open by a gate, and fails on request.
 */
const gates = new Map<string, Promise<void>>();
const createThingOp = defineOperation({
  schema: z.object({ name: z.string(), fail: z.enum(["business", "crash"]).optional() }),
  invalidBody: "payment.bad_request",
  summary: "Create a thing (test operation)",
  response: z.object({ name: z.string(), serial: z.string() }),
  errors: ["payment.unknown_currency"],
  async handle(input, context) {
    await gates.get(input.name);
    const db = context.deps.db;
    const key = `test-executions:${context.merchantId}:${input.name}`;
    await db.$executeRaw`INSERT INTO service_settings (key, value) VALUES (${key}, '1')
      ON CONFLICT (key) DO UPDATE SET value = (service_settings.value::int + 1)::text`;
    if (input.fail === "business") throw new AppError("payment.unknown_currency");
    if (input.fail === "crash") throw new Error("simulated crash");
    return { name: input.name, serial: Math.random().toString(36).slice(2) };
  },
});

/**
 * The same as one unit of work (defineWork): dispatch opens its transaction, and the answer is
 * stored in it. `fail: "answer"` makes the answer fail after the writes (a projection that throws).
 */
const createThingInTransactionOp = defineWork({
  schema: z.object({ name: z.string(), fail: z.literal("answer").optional() }),
  invalidBody: "payment.bad_request",
  summary: "Create a thing in the operation's own transaction (test operation)",
  response: z.object({ name: z.string() }),
  errors: [],
  unit: {
    prepare: async (_deps, args: { name: string; merchantId: string; fail?: "answer" }) => {
      await gates.get(args.name);
      return args;
    },
    execute: async (tx, _deps, args) => {
      const key = `test-executions:${args.merchantId}:${args.name}`;
      await tx.$executeRaw`INSERT INTO service_settings (key, value) VALUES (${key}, '1')
        ON CONFLICT (key) DO UPDATE SET value = (service_settings.value::int + 1)::text`;
      return args;
    },
  },
  args: (input, context) => ({ ...input, merchantId: context.merchantId! }),
  answer: (args) => {
    if (args.fail === "answer") throw new Error("the answer could not be made");
    return { name: args.name };
  },
});

const TABLE: OperationEntry[] = [
  { method: "POST", path: "/v1/test/thing", auth: { kind: "signed", keys: ["unified"] }, idempotent: true, envelope: "standard", operation: createThingOp },
  { method: "POST", path: "/v1/test/thing-tx", auth: { kind: "signed", keys: ["unified"] }, idempotent: true, envelope: "standard", operation: createThingInTransactionOp },
];

async function executions(merchant: TestMerchant, name: string): Promise<number> {
  const row = await getTestDb().serviceSetting.findUnique({ where: { key: `test-executions:${merchant.merchantId}:${name}` } });
  return row ? Number(row.value) : 0;
}

function send(merchant: TestMerchant, body: object, key?: string) {
  const headers: Record<string, string> = key === undefined ? {} : { "idempotency-key": key };
  return callApi(signedRequest("/v1/test/thing", JSON.stringify(body), merchant, { headers }), { table: TABLE });
}

describe("Idempotency-Key", () => {
  it("replays the stored response with Idempotent-Replayed: true and runs the work once", async () => {
    const merchant = await makeMerchant();
    const first = await send(merchant, { name: "a" }, "key-1");
    const second = await send(merchant, { name: "a" }, "key-1");
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await executions(merchant, "a")).toBe(1);
  });

  it("runs every call without a key", async () => {
    const merchant = await makeMerchant();
    const first = await send(merchant, { name: "b" });
    const second = await send(merchant, { name: "b" });
    expect(first.body.result.serial).not.toBe(second.body.result.serial);
    expect(await executions(merchant, "b")).toBe(2);
  });

  it("answers idempotency.bad_key 400 for an empty key or one over 255 characters", async () => {
    const merchant = await makeMerchant();
    for (const key of ["", "k".repeat(256)]) {
      const response = await send(merchant, { name: "c" }, key);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe("idempotency.bad_key");
    }
    expect((await send(merchant, { name: "c" }, "k".repeat(255))).status).toBe(200);
    expect(await executions(merchant, "c")).toBe(1);
  });

  it("lets exactly one of many concurrent identical requests run; the others get idempotency.in_progress 409", async () => {
    const merchant = await makeMerchant();
    let open!: () => void;
    gates.set("d", new Promise<void>((resolve) => (open = resolve)));
    const first = send(merchant, { name: "d" }, "same-key");
    // Let the first request claim the key before the others arrive.
    await expect.poll(() => getTestDb().idempotencyRecord.count({ where: { merchantId: merchant.merchantId } })).toBe(1);
    const others = await Promise.all(Array.from({ length: 10 }, () => send(merchant, { name: "d" }, "same-key")));
    for (const response of others) {
      expect(response.status).toBe(409);
      expect(response.body.error.code).toBe("idempotency.in_progress");
    }
    open();
    const done = await first;
    expect(done.status).toBe(200);
    const retry = await send(merchant, { name: "d" }, "same-key");
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.body).toEqual(done.body);
    expect(await executions(merchant, "d")).toBe(1);
  });

  it("is safe when identical requests race from the very start", async () => {
    const merchant = await makeMerchant();
    const responses = await Promise.all(Array.from({ length: 12 }, () => send(merchant, { name: "e" }, "race-key")));
    const succeeded = responses.filter((response) => response.status === 200);
    const rejected = responses.filter((response) => response.status === 409);
    expect(succeeded.length + rejected.length).toBe(12);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    // Every success is the one execution's answer, first or replayed.
    expect(new Set(succeeded.map((response) => response.body.result.serial)).size).toBe(1);
    expect(await executions(merchant, "e")).toBe(1);
  });

  it("stores and replays a business error", async () => {
    const merchant = await makeMerchant();
    const first = await send(merchant, { name: "f", fail: "business" }, "k-f");
    const second = await send(merchant, { name: "f", fail: "business" }, "k-f");
    expect(first.status).toBe(400);
    expect(second.status).toBe(400);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(await executions(merchant, "f")).toBe(1);
  });

  it("frees the key after an unexpected failure, so a retry runs again", async () => {
    const merchant = await makeMerchant();
    const first = await send(merchant, { name: "g", fail: "crash" }, "k-g");
    expect(first.status).toBe(500);
    expect(first.body.error.code).toBe("internal.error");
    const second = await send(merchant, { name: "g" }, "k-g");
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    expect(await executions(merchant, "g")).toBe(2);
  });

  it("scopes keys to the merchant", async () => {
    const one = await makeMerchant();
    const two = await makeMerchant();
    await send(one, { name: "h" }, "shared");
    const other = await send(two, { name: "h" }, "shared");
    expect(other.headers.get("idempotent-replayed")).toBeNull();
    expect(await executions(two, "h")).toBe(1);
  });

  it("lets a retry take over a claim whose holder crashed, once its lock has lapsed", async () => {
    const merchant = await makeMerchant();
    const past = new Date(Date.now() - (IDEMPOTENCY_LOCK_SECONDS + 5) * 1000);
    await getTestDb().idempotencyRecord.create({
      data: { merchantId: merchant.merchantId, operation: "/v1/test/thing", key: "k-i", requestHash: hashOf({ name: "i" }), claimToken: "crashed", state: "in_progress", lockedUntil: past },
    });
    const response = await send(merchant, { name: "i" }, "k-i");
    expect(response.status).toBe(200);
    expect(await executions(merchant, "i")).toBe(1);
  });

  it("answers idempotency.in_progress while a live claim is held", async () => {
    const merchant = await makeMerchant();
    await getTestDb().idempotencyRecord.create({
      data: { merchantId: merchant.merchantId, operation: "/v1/test/thing", key: "k-j", requestHash: hashOf({ name: "j" }), claimToken: "live", state: "in_progress", lockedUntil: new Date(Date.now() + 30_000) },
    });
    const response = await send(merchant, { name: "j" }, "k-j");
    expect(response.status).toBe(409);
    expect(await executions(merchant, "j")).toBe(0);
  });

  it("refuses a key reused with another body: idempotency.key_reused 422", async () => {
    const merchant = await makeMerchant();
    expect((await send(merchant, { name: "k" }, "k-k")).status).toBe(200);
    const reused = await send(merchant, { name: "other" }, "k-k");
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe("idempotency.key_reused");
  });

  it("lets only the attempt holding the claim complete it", async () => {
    const { completeIdempotencyKey } = await import("@/lib/services/idempotency/idempotency-records");
    const merchant = await makeMerchant();
    const scope = { merchantId: merchant.merchantId, operation: "/v1/test/thing", key: "k-l" };
    const first = await claimIdempotencyKey(getTestDb(), scope, "h", new Date(Date.now() - 120_000));
    const second = await claimIdempotencyKey(getTestDb(), scope, "h", new Date());
    expect(first.kind).toBe("claimed");
    expect(second.kind).toBe("claimed");
    if (first.kind !== "claimed" || second.kind !== "claimed") return;
    await completeIdempotencyKey(getTestDb(), scope, first.claimToken, { status: 200, body: "stale" });
    await completeIdempotencyKey(getTestDb(), scope, second.claimToken, { status: 200, body: "fresh" });
    const row = await getTestDb().idempotencyRecord.findUniqueOrThrow({ where: { merchantId_operation_key: scope } });
    expect(row.responseBody).toBe("fresh");
  });

  it("answers idempotency.unavailable when the store cannot be reached (the request is not run)", async () => {
    const unreachable = createDb("postgresql://postgres@127.0.0.1:1/none", { poolSize: 1 });
    await expect(
      claimIdempotencyKey(unreachable, { merchantId: "00000000-0000-4000-8000-000000000000", operation: "/v1/x", key: "k" }, "h", new Date()),
    ).rejects.toMatchObject({ code: "idempotency.unavailable", status: 503 });
    await unreachable.$disconnect();
  });

  it("stores the answer in the operation's own transaction: it commits with the writes", async () => {
    const merchant = await makeMerchant();
    const call = () => callApi(signedRequest("/v1/test/thing-tx", JSON.stringify({ name: "tx-1" }), merchant, { headers: { "idempotency-key": "tx-key-1" } }), { table: TABLE });
    const first = await call();
    expect(first.status).toBe(200);
    const record = await getTestDb().idempotencyRecord.findUniqueOrThrow({ where: { merchantId_operation_key: { merchantId: merchant.merchantId, operation: "/v1/test/thing-tx", key: "tx-key-1" } } });
    expect(record).toMatchObject({ state: "done", responseStatus: 200 });
    expect(JSON.parse(record.responseBody!)).toEqual(first.body);
    const repeat = await call();
    expect(repeat.headers.get("idempotent-replayed")).toBe("true");
    expect(await executions(merchant, "tx-1")).toBe(1);
  });

  it("rolls the writes back when another attempt took the claim over meanwhile", async () => {
    const merchant = await makeMerchant();
    let open!: () => void;
    gates.set("tx-2", new Promise<void>((resolve) => (open = resolve)));
    const pending = callApi(signedRequest("/v1/test/thing-tx", JSON.stringify({ name: "tx-2" }), merchant, { headers: { "idempotency-key": "tx-key-2" } }), { table: TABLE });
    const scope = { merchantId: merchant.merchantId, operation: "/v1/test/thing-tx", key: "tx-key-2" };
    await expect.poll(() => getTestDb().idempotencyRecord.count({ where: scope })).toBe(1);
    // The first attempt stalled past its lock and a retry took the key over.
    await getTestDb().idempotencyRecord.updateMany({ where: scope, data: { claimToken: "taken-over" } });
    open();
    const response = await pending;
    gates.delete("tx-2");
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe("idempotency.in_progress");
    expect(await executions(merchant, "tx-2")).toBe(0);
  });

  it("leaves neither the writes nor the record when the unit fails after its writes, and a retry runs it once", async () => {
    const merchant = await makeMerchant();
    const scope = { merchantId: merchant.merchantId, operation: "/v1/test/thing-tx", key: "tx-key-3" };
    const call = (body: object) => callApi(signedRequest("/v1/test/thing-tx", JSON.stringify(body), merchant, { headers: { "idempotency-key": "tx-key-3" } }), { table: TABLE });
    const failed = await call({ name: "tx-3", fail: "answer" });
    expect(failed.status).toBe(500);
    expect(await executions(merchant, "tx-3")).toBe(0);
    expect(await getTestDb().idempotencyRecord.count({ where: scope })).toBe(0);
    // The same key with the body that works: no record blocks it, and it runs once.
    const retried = await call({ name: "tx-3" });
    expect(retried.status).toBe(200);
    expect(await executions(merchant, "tx-3")).toBe(1);
    expect(await getTestDb().idempotencyRecord.findUniqueOrThrow({ where: { merchantId_operation_key: scope } })).toMatchObject({ state: "done" });
  });

  it("renews a claim while its attempt runs", async () => {
    const merchant = await makeMerchant();
    const scope = { merchantId: merchant.merchantId, operation: "/v1/test/thing", key: "renew-1" };
    const now = new Date();
    const claim = await claimIdempotencyKey(getTestDb(), scope, hashOf({ name: "r" }), now);
    if (claim.kind !== "claimed") throw new Error("expected a claim");
    const later = new Date(now.getTime() + 50_000);
    await renewIdempotencyClaim(getTestDb(), scope, claim.claimToken, later);
    const record = await getTestDb().idempotencyRecord.findUniqueOrThrow({ where: { merchantId_operation_key: scope } });
    expect(record.lockedUntil.getTime()).toBe(later.getTime() + IDEMPOTENCY_LOCK_SECONDS * 1000);
    // Another attempt's token renews nothing.
    await renewIdempotencyClaim(getTestDb(), scope, "someone-else", new Date(later.getTime() + 50_000));
    expect((await getTestDb().idempotencyRecord.findUniqueOrThrow({ where: { merchantId_operation_key: scope } })).lockedUntil).toEqual(record.lockedUntil);
  });
});
