import { afterEach, describe, expect, it } from "vitest";
import { explorerLinksOf } from "./registry";
import { registerRealChainFamily, resetRealChains, verifyRealChains, type ChainIdentity } from "./real-chains";
import type { ChainAdapter } from "./types";

// A node that says which chain it serves, and nothing else: explorer links depend only on that.
function fakeUtxoNode(identity: ChainIdentity) {
  registerRealChainFamily("utxo", () => ({ adapter: {} as ChainAdapter, sender: null, identify: async () => identity }));
}

const MAINNET_CONFIG = { sandbox: false, rpcEndpoints: { bitcoin: ["http://127.0.0.1:1"] }, tokenContracts: {}, tonApiKey: undefined };

describe("explorerLinksOf", () => {
  afterEach(() => resetRealChains());

  it("links a network served by a mainnet node to the catalogue's explorer", async () => {
    fakeUtxoNode({ chain: "main", isProduction: true, label: "main" });
    await verifyRealChains(MAINNET_CONFIG, async () => []);
    const links = explorerLinksOf(MAINNET_CONFIG, "bitcoin");
    expect(links.transaction("ab12")).toBe("https://mempool.space/tx/ab12");
    expect(links.address("bc1qxyz")).toBe("https://mempool.space/address/bc1qxyz");
  });

  it("links nothing on a test or regtest node, a sandbox chain, a network nothing serves, or an unknown one", async () => {
    fakeUtxoNode({ chain: "regtest", isProduction: false, label: "regtest" });
    await verifyRealChains(MAINNET_CONFIG, async () => []);
    expect(explorerLinksOf(MAINNET_CONFIG, "bitcoin").transaction("ab12")).toBeNull();
    expect(explorerLinksOf(MAINNET_CONFIG, "bitcoin").address("bcrt1qxyz")).toBeNull();
    expect(explorerLinksOf({ sandbox: true, rpcEndpoints: {} }, "ethereum").transaction("0xab")).toBeNull();
    expect(explorerLinksOf({ sandbox: false, rpcEndpoints: {} }, "ethereum").transaction("0xab")).toBeNull();
    expect(explorerLinksOf(MAINNET_CONFIG, "nowhere").transaction("ab12")).toBeNull();
    expect(explorerLinksOf(MAINNET_CONFIG, null).address("x")).toBeNull();
  });
});
