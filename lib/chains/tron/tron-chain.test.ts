import { describe, expect, it } from "vitest";
import { createTronChain } from "@/lib/chains/tron/tron-chain";
import { createRecordedConversation, TEST_NODE_URL } from "@/lib/chains/tron/testing/tron-recorded-conversation";

describe("createTronChain", () => {
  it("builds the adapter and sender of one node and identifies mainnet as production", async () => {
    const conversation = createRecordedConversation([{ path: "/wallet/getblockbynum", body: { num: 0 }, fixture: "getblockbynum-0-mainnet.json" }]);
    const chain = createTronChain({ rpcUrl: TEST_NODE_URL, tokens: {}, fetch: conversation.fetch });
    expect([chain.adapter.network, chain.adapter.source, chain.sender?.network]).toEqual(["tron", "rpc", "tron"]);
    await expect(chain.identify()).resolves.toEqual({ isProduction: true, label: "mainnet", chain: "main" });
    conversation.assertDone();
  });
});
