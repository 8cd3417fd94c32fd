import { describe, expect, it } from "vitest";
import { makeFundedMerchant } from "@/lib/testing/funding";
import { callSigned } from "@/lib/testing/harness";
import { spawnPayoutWorker } from "@/lib/testing/spawn-worker";
import { runCli, startCli } from "./testing/cli-process";

const TRON_ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";

describe("batch watch", () => {
  it("follows a payout batch while a worker processes it, then prints its counts", { timeout: 300_000 }, async () => {
    const { merchant } = await makeFundedMerchant("100.00");
    const element = (index: number) => ({ amount: "2", currency: "USDT", network: "tron", address: TRON_ADDRESS, order_id: `cli-batch-${index}` });
    const created = await callSigned("/v1/payout/batch", { payouts: [element(1), element(2), element(3), { ...element(4), address: "not an address" }] }, merchant);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const batchId: string = created.body.result.batch_id;

    const watch = startCli(["batch", "watch", batchId, "--interval", "200", "--json"]);
    const unknown = runCli(["batch", "watch", "00000000-0000-4000-8000-000000000000", "--json"]);
    // The watcher has found the batch, still pending, before any worker runs.
    await watch.printedOnStderr(`Watching payout batch ${batchId}: 0/4 processed`);
    const worker = spawnPayoutWorker("tron", {});
    try {
      const watched = await watch.exited;
      expect(watched.status, watched.stderr).toBe(0);
      expect(watched.stdout.trimEnd().split("\n")).toHaveLength(1);
      expect(watched.json).toEqual({
        batch_id: batchId,
        merchant_id: merchant.merchantId,
        kind: "payout",
        status: "completed",
        is_complete: true,
        total: 4,
        succeeded: 3,
        failed: 1,
        failures: [{ idx: 3, order_id: "cli-batch-4", error: expect.any(String) }],
      });
      const info = await callSigned("/v1/batch/info", { batch_id: batchId }, merchant);
      expect([info.body.result.succeeded, info.body.result.failed]).toEqual([3, 1]);

      const [again, missing] = await Promise.all([runCli(["batch", "watch", batchId]), unknown]);
      expect(again.status, again.stderr).toBe(0);
      expect(again.stdout).toContain(`payout batch ${batchId}: complete`);
      expect(again.stdout).toContain("total 4, succeeded 3, failed 1");
      expect(again.stdout).toMatch(/ELEMENT\s+ORDER\s+ERROR\n-+\s+-+\s+-+\n\s+3\s+cli-batch-4\s+\S/);
      expect(missing.status).toBe(1);
      expect(missing.json.error.code).toBe("cli.not_found");
    } finally {
      const exited = await Promise.race([worker.exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 60_000))]);
      if (exited === null) worker.child.kill();
    }
  });
});
