import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Abi, Address } from "viem";
import { getChainAdapter } from "@/lib/chains/registry";
import { resetRealChains } from "@/lib/chains/real-chains";
import { hotWalletAddress } from "@/lib/chains/hot-wallet";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import type { ChainAdapter } from "@/lib/chains/types";
import { anvilClients, callAnvil, startAnvil, type Anvil } from "@/lib/chains/evm/testing/anvil";
import { deployTestToken } from "@/lib/chains/evm/testing/test-token";
import { startRpcProxy, type RpcProxy } from "@/lib/chains/testing/rpc-proxy";
import type { ApiDeps } from "@/lib/api/deps";
import { scanNetwork } from "@/lib/jobs/handlers/scan-networks";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import { makeTestDeps } from "@/lib/testing/harness";
import { createGatewayMetrics, type GatewayMetrics } from "./registry";
import { parsePrometheusText, sampleValue } from "./testing/parse-prometheus-text";

// Watcher lag against a real EVM node: anvil, started by this file, serves "avalanche" (no other
// file watches it) through a proxy that can stop answering, as a dead node does.

let anvil: Anvil;
let proxy: RpcProxy;
let isNodeHanging = false;
let token: { address: Address; abi: Abi };
let deps: ApiDeps;
let adapter: ChainAdapter;
let metrics: GatewayMetrics;
let env: Record<string, string>;
/** The scrape-time clock: cached tips last 5 s of it. */
let clock = new Date();
const advanceClock = (seconds: number) => (clock = new Date(clock.getTime() + seconds * 1000));

beforeAll(async () => {
  anvil = await startAnvil();
  proxy = await startRpcProxy(anvil.url, () => (isNodeHanging ? { kind: "hang" } : { kind: "forward" }));
  const clients = anvilClients(anvil.url);
  token = await deployTestToken(clients, 1_000_000_000_000n);
  resetRealChains();
  env = { RPC_AVALANCHE: proxy.url, TOKEN_AVALANCHE_USDT: token.address };
  deps = makeTestDeps({}, env);
  await verifyChains(deps.config, deps.db);
  adapter = getChainAdapter(deps.db, deps.config, "avalanche")!;

  // The hot wallet holds 1.5 AVAX and 12.5 USDT of the test token; USDC's catalogue contract does not exist on anvil.
  const hot = hotWalletAddress(await loadKeyMaterial(deps.db, deps.secretBox), "avalanche", "test") as Address;
  await clients.publicClient.waitForTransactionReceipt({ hash: await clients.walletClient.sendTransaction({ to: hot, value: 1_500_000_000_000_000_000n }) });
  await clients.publicClient.waitForTransactionReceipt({
    hash: await clients.walletClient.writeContract({ address: token.address, abi: token.abi, functionName: "transfer", args: [hot, 12_500_000n] }),
  });

  metrics = createGatewayMetrics();
  metrics.useStateSource({ db: deps.db, secretBox: deps.secretBox, config: deps.config, now: () => clock }, { chainTimeoutMs: 3_000, auditWaitMs: 60_000, databaseTimeoutMs: 30_000 });
}, 120_000);

afterAll(async () => {
  isNodeHanging = false;
  resetRealChains();
  await proxy?.stop();
  await anvil?.stop();
});

async function scrape() {
  return parsePrometheusText(await metrics.registry.metrics());
}

describe("watcher lag at scrape time", () => {
  it("grows by the blocks mined while the watcher does not scan, and drops once it scans", async () => {
    await scanNetwork(deps, adapter);
    advanceClock(10);
    const scanned = await scrape();
    const tip = sampleValue(scanned, "gateway_chain_tip_height", { network: "avalanche" })!;
    expect(sampleValue(scanned, "gateway_chain_node_up", { network: "avalanche" })).toBe(1);
    expect(sampleValue(scanned, "gateway_watcher_scanned_height", { network: "avalanche" })).toBe(tip);
    expect(sampleValue(scanned, "gateway_watcher_lag_blocks", { network: "avalanche" })).toBe(0);
    const lastScan = sampleValue(scanned, "gateway_watcher_last_scan_timestamp_seconds", { network: "avalanche" })!;
    expect(Math.abs(lastScan - Date.now() / 1000)).toBeLessThan(60);

    await callAnvil(anvil.url, "anvil_mine", ["0x7"]);
    // Within the cache period the scrape answers the tip it read last.
    expect(sampleValue(await scrape(), "gateway_watcher_lag_blocks", { network: "avalanche" })).toBe(0);
    advanceClock(10);
    const behind = await scrape();
    expect(sampleValue(behind, "gateway_chain_tip_height", { network: "avalanche" })).toBe(tip + 7);
    expect(sampleValue(behind, "gateway_watcher_lag_blocks", { network: "avalanche" })).toBe(7);
    expect(sampleValue(behind, "gateway_watcher_last_scan_timestamp_seconds", { network: "avalanche" })).toBe(lastScan);

    await callAnvil(anvil.url, "anvil_mine", ["0x5"]);
    advanceClock(10);
    expect(sampleValue(await scrape(), "gateway_watcher_lag_blocks", { network: "avalanche" })).toBe(12);

    await scanNetwork(deps, adapter);
    advanceClock(10);
    const caughtUp = await scrape();
    expect(sampleValue(caughtUp, "gateway_watcher_lag_blocks", { network: "avalanche" })).toBe(0);
    expect(sampleValue(caughtUp, "gateway_watcher_scanned_height", { network: "avalanche" })).toBe(tip + 12);
    expect(sampleValue(caughtUp, "gateway_watcher_last_scan_timestamp_seconds", { network: "avalanche" })).toBeGreaterThanOrEqual(lastScan);
  });
});

describe("hot wallet balances", () => {
  it("are read from the node per asset, in whole units, keyed like the ledger's assets", async () => {
    advanceClock(60);
    const scraped = await scrape();
    expect(sampleValue(scraped, "gateway_hot_wallet_balance", { network: "avalanche", asset: "AVAX:avalanche" })).toBe(1.5);
    expect(sampleValue(scraped, "gateway_hot_wallet_balance", { network: "avalanche", asset: "USDT:avalanche" })).toBe(12.5);
    expect(sampleValue(scraped, "gateway_hot_wallet_balance", { network: "avalanche", asset: "USDC:avalanche" })).toBe(0);
    // Unscoped, as in the service: every part of the state was read.
    expect(sampleValue(scraped, "gateway_webhook_queue_depth")).toBeGreaterThanOrEqual(0);
    expect(scraped.samples.filter((sample) => sample.name === "gateway_metrics_collect_failures_total")).toEqual([]);
  });
});

describe("a node that stops answering", () => {
  it("is reported down at once, without a lag, and is not asked again while its request hangs", async () => {
    advanceClock(10);
    const answering = await scrape();
    expect(sampleValue(answering, "gateway_chain_node_up", { network: "avalanche" })).toBe(1);
    const scannedHeight = sampleValue(answering, "gateway_watcher_scanned_height", { network: "avalanche" });

    isNodeHanging = true;
    advanceClock(10);
    const started = Date.now();
    const scraped = await scrape();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(sampleValue(scraped, "gateway_chain_node_up", { network: "avalanche" })).toBe(0);
    expect(sampleValue(scraped, "gateway_chain_tip_height", { network: "avalanche" })).toBeUndefined();
    expect(sampleValue(scraped, "gateway_watcher_lag_blocks", { network: "avalanche" })).toBeUndefined();
    expect(sampleValue(scraped, "gateway_watcher_scanned_height", { network: "avalanche" })).toBe(scannedHeight);
    // The sandbox chains are read as usual.
    expect(sampleValue(scraped, "gateway_chain_node_up", { network: "tron" })).toBe(1);

    // The next scrape joins the request still hanging instead of sending another.
    const asked = proxy.methods.length;
    advanceClock(6); // past the tip's cache period, within the balances'
    expect(sampleValue(await scrape(), "gateway_chain_node_up", { network: "avalanche" })).toBe(0);
    expect(proxy.methods.length).toBe(asked);
  });
});
