import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { findFreePort, runCli, signedPost, startService, type RunningService } from "../testing/service";

/** Whether any process of the group still runs (zombies aside, which hold nothing). */
function isGroupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

// The operator's worst day on the embedded default: `npm start` killed with -9 and started again
// at once, over and over, on the same data directory and port. Half the kills take only the npm
// process (its node child is orphaned and must stop by itself), half the whole process group.
describe("npm start on the embedded database, killed with -9 and restarted at once", () => {
  let service: RunningService | undefined;
  afterAll(async () => {
    await service?.stop();
    if (service) fs.rmSync(service.dataDir, { recursive: true, force: true });
  });

  it("comes up every time, twenty times in a row, with its data", async () => {
    const port = await findFreePort();
    service = await startService({ port });
    const dataDir = service.dataDir;
    const merchant = runCli(service.env, ["merchant", "create", "--name", "Crash Shop"]).json;
    for (let round = 1; round <= 20; round++) {
      const invoice = await signedPost(service.baseUrl, merchant, "/v1/payment", JSON.stringify({ amount: "10", currency: "USD", to_currency: "USDT", network: "tron", order_id: `crash-${round}` }));
      expect(invoice.status, JSON.stringify(invoice.body)).toBe(200);
      const killed = service.pid;
      process.kill(round % 2 === 0 ? -killed : killed, "SIGKILL");
      service = await startService({ dataDir, port, timeoutMs: 120_000 });
      // Every invoice made before a kill is still there.
      const history = await signedPost(service.baseUrl, merchant, "/v1/payment/history", JSON.stringify({ limit: 100 }));
      expect(history.status).toBe(200);
      expect(history.body.result.items.map((item: { order_id: string }) => item.order_id).sort()).toEqual(
        Array.from({ length: round }, (_, index) => `crash-${index + 1}`).sort(),
      );
      // The orphan of a kill that took npm alone has stopped by itself.
      await expect.poll(() => isGroupAlive(killed), { timeout: 30_000 }).toBe(false);
    }
  });
});
