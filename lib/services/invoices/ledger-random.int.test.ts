import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { listMerchantBalances } from "@/lib/ledger/balances";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { callSigned, getTestDb, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { spawnTestWorker } from "@/lib/testing/spawn-worker";

// A random sequence of payments, top-ups, expiries and reorganisations on sandbox chains, while
// two separate worker processes run the watchers, the expiry and the maturity jobs against the
// same database. The extended ledger audit must come out clean after every step.

/** Sandbox networks no real-node suite uses: the workers' watchers touch nothing else. */
const NETWORKS = ["tron", "bsc", "polygon"] as const;
const HOLD_SECONDS = "1";

describe("the ledger under random traffic and two workers", () => {
  it("stays balanced, recomputable and on the right side of zero after every step", async () => {
    const env = { GATEWAY_MATURITY_HOLD_SECONDS: HOLD_SECONDS };
    const deps = makeTestDeps({}, env);
    const merchant = await makeMerchant();
    const workerScript = path.join(import.meta.dirname, "../../jobs/testing/watcher-worker.ts");
    const stopFile = path.join(os.tmpdir(), `gateway-ledger-random-${process.pid}-${Date.now()}`);
    const workers = [0, 1].map(() => spawnTestWorker(workerScript, { ...env, WORKER_NETWORKS: NETWORKS.join(","), WORKER_SECONDS: "90", WORKER_STOP_FILE: stopFile }));
    await Promise.all(workers.map((worker) => worker.printed('"ready"')));
    const call = (operation: string, body: object) => callSigned(operation, body, merchant, { deps });

    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T,>(items: readonly T[]) => items[Math.floor(random() * items.length)];
    const steps: string[] = [];
    const step = async (name: string, action: () => Promise<unknown>) => {
      await action();
      steps.push(name);
      expect(await auditLedger(getTestDb()), `audit after ${steps.join(" → ")}`).toEqual(CLEAN_LEDGER_AUDIT);
    };

    try {
      for (let round = 0; round < 12; round++) {
        const network = pick(NETWORKS);
        const currency = network === "tron" ? pick(["USDT", "TRX"]) : "USDT";
        const created = await call("/v1/payment", { amount: String(20 + Math.floor(random() * 200)), currency: "USD", to_currency: currency, network });
        expect(created.status).toBe(200);
        const invoice = created.body.result;
        const due = parseAmount(invoice.payer_amount, 6)!;
        const share = pick([40n, 100n, 120n, 0n]);
        const deposit = async (minor: bigint) => {
          const response = await call("/v1/sandbox/deposit", { network, currency, address: invoice.address, amount: formatAmount(minor, 6) });
          expect(response.status).toBe(200);
          return response.body.result.txid as string;
        };
        let txid: string | null = null;
        if (share > 0n) await step(`pay ${share}% on ${network}`, async () => (txid = await deposit((due * share) / 100n)));
        if (random() < 0.7) await step("confirm", () => call("/v1/sandbox/mine", { network, blocks: 25 }));
        if (random() < 0.3) await step("expire", () => call("/v1/sandbox/expire", { uuid: invoice.uuid }));
        if (random() < 0.3) await step("top up", () => deposit(1_500_000n));
        if (txid && random() < 0.4) {
          // A reorganisation: the block holding the payment is replaced by one without it.
          await step("reorg", async () => {
            const transaction = await getTestDb().sandboxTransaction.findUnique({ where: { txid: txid! } });
            if (transaction?.blockHeight === null || !transaction) return;
            await getTestDb().sandboxTransaction.delete({ where: { txid: txid! } });
            await getTestDb().sandboxBlock.update({ where: { network_height: { network, height: transaction.blockHeight } }, data: { hash: `${Date.now().toString(16)}${"ab".repeat(28)}`.slice(0, 64) } });
          });
        }
        await step("mine", () => call("/v1/sandbox/mine", { network, blocks: 30 }));
      }
    } finally {
      fs.writeFileSync(stopFile, "stop");
      const outcomes = await Promise.all(workers.map((worker) => worker.exited));
      for (const outcome of outcomes) expect(outcome.code, outcome.stderr).toBe(0);
      for (const outcome of outcomes) {
        const report = JSON.parse(outcome.stdout.trim().split("\n").at(-1)!) as { passes: number; errors: string[] };
        expect(report.passes).toBeGreaterThan(0);
        expect(report.errors).toEqual([]);
      }
      fs.rmSync(stopFile, { force: true });
    }
    // The sequence exercised every kind of step.
    for (const kind of ["confirm", "expire", "top up", "reorg"]) expect(steps, kind).toContain(kind);
    // Whatever the interleaving, the merchant's books are on the right side of zero.
    const balances = await listMerchantBalances(getTestDb(), merchant.merchantId);
    expect(balances.every((row) => (row.bucket === "debt" ? row.balance < 0n : row.balance > 0n))).toBe(true);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  }, 120_000);
});
