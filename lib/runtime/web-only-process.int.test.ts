import path from "node:path";
import { describe, expect, it } from "vitest";
import { fillAddressPools } from "@/lib/chains/address-pool";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { getTestDb, getTestSecretBox, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { spawnTestWorker } from "@/lib/testing/spawn-worker";

const PAYMENTS = [
  { amount: "25.00", currency: "USD", to_currency: "DOGE", network: "dogecoin" },
  { amount: "12.00", currency: "USD", to_currency: "ETH", network: "base" },
  { amount: "10.00", currency: "USD", to_currency: "USDT", network: "tron" },
  { amount: "5.00", currency: "USD", to_currency: "SOL", network: "solana" },
  { amount: "7.00", currency: "USD", to_currency: "TON", network: "ton" },
];

describe("a process started with GATEWAY_WORKER=off", () => {
  it("boots, serves invoices on every family, and refuses the seed when something reaches for it", { timeout: 90_000 }, async () => {
    // What the worker does first: the keys, then the Solana and TON pools.
    await loadKeyMaterial(getTestDb(), getTestSecretBox());
    await fillAddressPools(makeTestDeps(), { onlyNetworks: ["solana", "ton"] });
    const merchant = await makeMerchant();
    const web = spawnTestWorker(path.join(import.meta.dirname, "testing/web-only-process.ts"), {
      GATEWAY_WORKER: "off",
      WEB_PAYMENTS: JSON.stringify([...PAYMENTS, ...PAYMENTS]),
      MERCHANT_PUBLIC_ID: merchant.publicId,
      MERCHANT_SECRET: merchant.secret,
    });
    const { code, stdout, stderr } = await web.exited;
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    const report = JSON.parse(stdout.trim().split("\n").at(-1)!);
    expect(report).toEqual({
      statuses: Array.from({ length: 2 * PAYMENTS.length }, () => 200),
      usesBeforeAttempt: { opened: 0, refused: 0 },
      attempt: "WalletSeedRefusedError",
      usesAfterAttempt: { opened: 0, refused: 1 },
    });
    const invoices = await getTestDb().invoice.findMany({ where: { merchantId: merchant.merchantId }, select: { network: true } });
    expect(invoices.map((invoice) => invoice.network).sort()).toEqual([...PAYMENTS, ...PAYMENTS].map((payment) => payment.network).sort());
  });

  it("refuses to start when given the seed's key, which only processes with the worker may hold", { timeout: 60_000 }, async () => {
    const merchant = await makeMerchant();
    const web = spawnTestWorker(path.join(import.meta.dirname, "testing/web-only-process.ts"), {
      GATEWAY_WORKER: "off",
      GATEWAY_SEED_KEY: "6a".repeat(32),
      WEB_PAYMENTS: JSON.stringify([]),
      MERCHANT_PUBLIC_ID: merchant.publicId,
      MERCHANT_SECRET: merchant.secret,
    });
    const { code, stdout, stderr } = await web.exited;
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/GATEWAY_SEED_KEY is set on a process without the worker/);
  });
});
