import { beforeAll, describe, expect, it } from "vitest";
import { fillAddressPools } from "@/lib/chains/address-pool";
import { deriveEd25519DepositAddress } from "@/lib/chains/addresses";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { countWalletSeedUses } from "@/lib/crypto/secret-box";
import { callApi, getTestDb, getTestSecretBox, makeMerchant, makeTestDeps, signedRequest, type TestMerchant } from "@/lib/testing/harness";

/** One network of every family the sandbox serves, with a coin to be paid in. */
const PAYMENTS = [
  { family: "utxo", payment: { amount: "25.00", currency: "USD", to_currency: "DOGE", network: "dogecoin" } },
  { family: "evm", payment: { amount: "12.00", currency: "USD", to_currency: "ETH", network: "base" } },
  { family: "tron", payment: { amount: "10.00", currency: "USD", to_currency: "USDT", network: "tron" } },
  { family: "solana", payment: { amount: "5.00", currency: "USD", to_currency: "SOL", network: "solana" } },
  { family: "ton", payment: { amount: "7.00", currency: "USD", to_currency: "TON", network: "ton" } },
] as const;
/** An hour of traffic in one-minute steps: 60 × 60 invoices, 3,600 in all, one a second. */
const MINUTES = 60;
const PER_MINUTE = 60;
const POOL_SIZE = 120;

describe("a web-only process (GATEWAY_WORKER=off) beside a worker", () => {
  // The worker made the keys and recorded their public half before the web processes serve.
  beforeAll(() => loadKeyMaterial(getTestDb(), getTestSecretBox()));

  it("serves an hour of invoices on every family without ever opening the seed, Solana and TON from the pools the worker keeps", async () => {
    let clockMs = Date.now();
    const now = () => new Date(clockMs);
    const env = { GATEWAY_ADDRESS_POOL_SIZE: String(POOL_SIZE) };
    const web = makeTestDeps({ now }, { ...env, GATEWAY_WORKER: "off" });
    const worker = makeTestDeps({ now }, env);
    // The worker's address-pool.fill, as it runs every few seconds beside the web process.
    const runWorkerFill = () => fillAddressPools(worker, { onlyNetworks: ["solana", "ton"] });
    const merchant = await makeMerchant();
    const create = (payment: unknown, key: TestMerchant) =>
      callApi(signedRequest("/v1/payment", JSON.stringify(payment), key, { timestamp: Math.floor(clockMs / 1000) }), { deps: web });

    const seedUsesAtStart = countWalletSeedUses();
    let filled = 0;
    let webOpenings = 0;
    const statuses = new Map<number, number>();
    for (let minute = 0; minute < MINUTES; minute++) {
      filled += (await runWorkerFill()).reduce((sum, fill) => sum + fill.added, 0);
      const beforeBurst = countWalletSeedUses();
      const answers = await Promise.all(Array.from({ length: PER_MINUTE }, (_, position) => create(PAYMENTS[(minute * PER_MINUTE + position) % PAYMENTS.length].payment, merchant)));
      const afterBurst = countWalletSeedUses();
      webOpenings += afterBurst.opened - beforeBurst.opened + afterBurst.refused - beforeBurst.refused;
      for (const answer of answers) statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      clockMs += 60_000;
    }

    expect(Object.fromEntries(statuses)).toEqual({ 200: MINUTES * PER_MINUTE });
    expect(webOpenings).toBe(0);
    expect(countWalletSeedUses().refused).toBe(seedUsesAtStart.refused);
    const invoices = await web.db.invoice.findMany({ where: { merchantId: merchant.merchantId }, select: { network: true, address: true, addressIndex: true } });
    expect(invoices).toHaveLength(MINUTES * PER_MINUTE);
    expect(new Set(invoices.map((invoice) => invoice.address)).size).toBe(invoices.length);
    const perNetwork = new Map<string, number>();
    for (const invoice of invoices) perNetwork.set(invoice.network!, (perNetwork.get(invoice.network!) ?? 0) + 1);
    for (const { payment } of PAYMENTS) expect(perNetwork.get(payment.network)).toBe((MINUTES * PER_MINUTE) / PAYMENTS.length);
    // More Solana and TON invoices than one pool holds: the worker's refills served them.
    expect(perNetwork.get("solana")!).toBeGreaterThan(POOL_SIZE);
    expect(filled).toBeGreaterThan(0);

    // Each pooled address is the one the sweeper derives for its index (it signs for that index).
    const seed = (await loadKeyMaterial(worker.db, worker.secretBox)).openSeed();
    for (const invoice of invoices.filter((row) => row.network === "solana" || row.network === "ton").slice(0, 40)) {
      const network = invoice.network as "solana" | "ton";
      expect(invoice.address).toBe(deriveEd25519DepositAddress({ network, seed, index: invoice.addressIndex!, chain: "main" }).address);
    }
  });
});
