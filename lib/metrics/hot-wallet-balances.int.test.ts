import { PublicKey } from "@solana/web3.js";
import { Address, toNano } from "@ton/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ApiDeps } from "@/lib/api/deps";
import { findSettlementAsset, listSettlementAssets, type NetworkId } from "@/lib/catalogue";
import { hotWalletAddress } from "@/lib/chains/hot-wallet";
import { loadKeyMaterial, type KeyMaterial } from "@/lib/chains/key-material";
import { resetRealChains } from "@/lib/chains/real-chains";
import { addressChainOf } from "@/lib/chains/registry";
import { mineSandboxBlocks, randomSandboxPayerAddress, submitSandboxTransaction } from "@/lib/chains/sandbox/sandbox-chain";
import { mintTestTokens } from "@/lib/chains/solana/testing/test-mint";
import { startInProcessChains, type InProcessChains } from "@/lib/chains/testing/in-process-chains";
import { startLitecoind, type RegtestNode } from "@/lib/chains/utxo/testing/litecoind";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import { makeTestDeps } from "@/lib/testing/harness";
import { createGatewayMetrics, type GatewayMetrics } from "./registry";
import { parsePrometheusText, sampleValue, type PrometheusScrape } from "./testing/parse-prometheus-text";

// The hot wallet gauges of every family, each read through its chain's sender: litecoind -regtest
// started by this file (UTXO), litesvm (Solana), @ton/sandbox (TON), the Tron stand-in, and the
// sandbox chain of "optimism" (no other file moves that hot wallet's coins). EVM nodes are read in
// watcher-lag.int.test.ts.

let node: RegtestNode;
let chains: InProcessChains;
let deps: ApiDeps;
let keys: KeyMaterial;
/** The scrape-time clock: balances are reused for 30 s of it. */
let clock = new Date();
const advanceClock = (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000));

beforeAll(async () => {
  [node, chains] = await Promise.all([startLitecoind(), startInProcessChains()]);
  resetRealChains();
  const env = { ...chains.env, RPC_LITECOIN: node.rpcUrl };
  deps = makeTestDeps({}, env);
  await verifyChains(deps.config, deps.db);
  keys = await loadKeyMaterial(deps.db, deps.secretBox);
}, 120_000);

afterAll(async () => {
  resetRealChains();
  await node?.stop();
});

function hot(network: NetworkId): string {
  return hotWalletAddress(keys, network, addressChainOf(deps.config, network));
}

function metricsWith(chainTimeoutMs: number): GatewayMetrics {
  const metrics = createGatewayMetrics();
  metrics.useStateSource({ db: deps.db, secretBox: deps.secretBox, config: deps.config, now: () => clock }, { chainTimeoutMs, auditWaitMs: 60_000, databaseTimeoutMs: 30_000 });
  return metrics;
}

async function scrape(metrics: GatewayMetrics): Promise<PrometheusScrape> {
  return parsePrometheusText(await metrics.registry.metrics());
}

function balanceGauge(scraped: PrometheusScrape, network: NetworkId, symbol: string): number | undefined {
  return sampleValue(scraped, "gateway_hot_wallet_balance", { network, asset: `${symbol}:${network}` });
}

describe("hot wallet balances of every family", () => {
  it("are read from each chain per asset, in whole units, after known transfers in", async () => {
    const metrics = metricsWith(10_000);
    const before = await scrape(metrics);
    for (const network of ["litecoin", "solana", "ton", "tron"] as const) {
      // Every catalogue asset of a served network has a sample; nothing reached these fresh chains yet.
      const assets = listSettlementAssets().filter((asset) => asset.network === network);
      expect(assets.map((asset) => balanceGauge(before, network, asset.symbol)), network).toEqual(assets.map(() => 0));
    }
    const sandboxBefore = balanceGauge(before, "optimism", "ETH")!;
    expect(sandboxBefore).toBeGreaterThanOrEqual(0);

    await node.rpc.call("sendtoaddress", [hot("litecoin"), "1.25"], z.string());
    await node.mine(1);
    chains.solana.chain.airdrop(hot("solana"), 2_500_000_000n);
    await mintTestTokens(chains.solana.chain, chains.solana.mintAuthority, chains.solana.usdtMint, new PublicKey(hot("solana")), 12_500_000n);
    chains.ton.chain.record(await chains.ton.treasury.send({ to: Address.parse(hot("ton")), value: toNano("3"), bounce: false }));
    await chains.ton.jetton.mint(Address.parse(hot("ton")), 7_500_000n);
    chains.tron.setTrx(hot("tron"), 48_210_000n);
    chains.tron.setTokenBalance(findSettlementAsset("USDT", "tron")!.contract!, hot("tron"), 1_234_500_000n);
    const now = new Date();
    await submitSandboxTransaction(deps.db, { network: "optimism", currency: "ETH", fromAddress: randomSandboxPayerAddress("optimism"), toAddress: hot("optimism"), amountMinor: 750_000_000_000_000_000n, now });
    await mineSandboxBlocks(deps.db, "optimism", 1, now);

    // Within the balances' cache period a scrape answers what the last one read.
    advanceClock(10);
    expect(balanceGauge(await scrape(metrics), "litecoin", "LTC")).toBe(0);
    advanceClock(30);
    const after = await scrape(metrics);
    expect(balanceGauge(after, "litecoin", "LTC")).toBe(1.25);
    expect(balanceGauge(after, "solana", "SOL")).toBe(2.5);
    expect(balanceGauge(after, "solana", "USDT")).toBe(12.5);
    expect(balanceGauge(after, "solana", "USDC")).toBe(0);
    expect(balanceGauge(after, "ton", "TON")).toBe(3);
    expect(balanceGauge(after, "ton", "USDT")).toBe(7.5);
    expect(balanceGauge(after, "tron", "TRX")).toBe(48.21);
    expect(balanceGauge(after, "tron", "USDT")).toBe(1234.5);
    expect(balanceGauge(after, "optimism", "ETH")! - sandboxBefore).toBeCloseTo(0.75, 12);
    expect(after.samples.filter((sample) => sample.name === "gateway_metrics_collect_failures_total")).toEqual([]);
  });

  it("leave out a network whose node does not answer within the scrape's deadline, asking it once per asset", async () => {
    const metrics = metricsWith(1_500);
    chains.tron.isHanging = true;
    try {
      const asked = chains.tron.requests.length;
      const started = Date.now();
      const scraped = await scrape(metrics);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(balanceGauge(scraped, "tron", "TRX")).toBeUndefined();
      expect(balanceGauge(scraped, "tron", "USDT")).toBeUndefined();
      expect(balanceGauge(scraped, "solana", "SOL")).toBe(2.5);
      // One request per asset (and the tip for the watcher gauges), none repeated.
      expect(chains.tron.requests.slice(asked).sort()).toEqual(["/wallet/getaccount", "/wallet/getnowblock", "/wallet/triggerconstantcontract"]);
    } finally {
      chains.tron.isHanging = false;
    }
  });
});
