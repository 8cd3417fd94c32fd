import { describe, expect, it } from "vitest";
import { createKeyedMutex } from "./keyed-mutex";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe("createKeyedMutex", () => {
  it("runs tasks of one key one at a time, in arrival order", async () => {
    const runExclusive = createKeyedMutex();
    const events: string[] = [];
    const gate = deferred();
    const first = runExclusive("a", async () => {
      events.push("first:start");
      await gate.promise;
      events.push("first:end");
    });
    const second = runExclusive("a", async () => {
      events.push("second");
    });
    const other = runExclusive("b", async () => {
      events.push("other key");
    });
    await other;
    expect(events).toEqual(["first:start", "other key"]);
    gate.resolve();
    await Promise.all([first, second]);
    expect(events).toEqual(["first:start", "other key", "first:end", "second"]);
  });

  it("releases the key when a task fails", async () => {
    const runExclusive = createKeyedMutex();
    await expect(runExclusive("a", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(runExclusive("a", async () => "next")).resolves.toBe("next");
  });
});

describe("createKeyedMutex: failures", () => {
  it("a failing task does not block the next one", async () => {
    const runExclusive = createKeyedMutex();
    const order: string[] = [];
    const failing = runExclusive("k", async () => {
      order.push("a");
      throw new Error("boom");
    });
    const next = runExclusive("k", async () => {
      order.push("b");
      return "done";
    });
    await expect(failing).rejects.toThrow("boom");
    expect(await next).toBe("done");
    expect(order).toEqual(["a", "b"]);
  });
});
