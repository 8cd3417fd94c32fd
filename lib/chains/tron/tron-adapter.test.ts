import { describe, expect, it } from "vitest";
import { deriveAccountXpubs, deriveDepositAddress, deriveMasterSeed } from "@/lib/chains/addresses";
import { ChainError, type ObservedTransfer } from "@/lib/chains/types";
import { createTronAdapter, TRON_GENESIS_BLOCK_IDS } from "@/lib/chains/tron/tron-adapter";
import { computeTronTxId } from "@/lib/chains/tron/tron-signer";
import { createRecordedConversation, TEST_NODE_URL, type RecordedExchange } from "@/lib/chains/tron/testing/tron-recorded-conversation";
import { bytesField, transferRawHex, varintField } from "@/lib/chains/tron/testing/protobuf-writer";

// The recorded chain (fixtures/getblockbylimitnext-*.json): blocks 78 861 101 … 78 861 104, tip 78 861 104.
const CURSOR = 78_861_100;
const TIP = 78_861_104;
const BLOCK_101 = "0000000004b3532dfc37f5b75f28b84f3f404174bad71ca7e36f4e96c8ae7ad8";
const BLOCK_103 = "0000000004b3532f0caf404808cb72c359e5424cff6d5ed92a6a09ca5b210aee";
const BLOCK_104 = "0000000004b35330885bb96bdc3c1a387925659f8b233ee890c972020d56d88d";

// Deposit addresses 1–3 of the STACK-NOTES mnemonic: what the watcher would be looking for.
const DEPOSIT_1 = "TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK";
const DEPOSIT_2 = "TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx";
const PAYER_1 = "TEvb5rhqQQhhnw23YXwvJWaJrJrZ2qZAoX";
const PAYER_2 = "TN4fd2vw6v47QaX9SbxrodWEurzid89Snd";
const PAYER_4 = "TWitHsXcv5nWoFvm7Qgey1vWAYDoct588L";

const TRANSFERS_101_102: ObservedTransfer[] = [
  {
    network: "tron",
    currency: "TRX",
    txid: "29585ba76b8e23006bc52e1026d38b4958d161d7755c9f8a85e5580a8f2a4bad",
    position: 0,
    toAddress: DEPOSIT_1,
    fromAddress: PAYER_1,
    amountMinor: 25_000_000n,
    blockHeight: 78_861_101,
    blockHash: BLOCK_101,
  },
  {
    network: "tron",
    currency: "USDT",
    txid: "c22b9d86e4152470936971ce05cd515ddfd58f299f304ee32fb45f33310e07d3",
    position: 1_000_002,
    toAddress: DEPOSIT_2,
    fromAddress: PAYER_2,
    amountMinor: 150_000_000n,
    blockHeight: 78_861_101,
    blockHash: BLOCK_101,
  },
  // Block 102 holds a reverted USDT transfer to deposit 3, a router call and an approve: none is a payment.
];
const TRANSFERS_103_104: ObservedTransfer[] = [
  {
    network: "tron",
    currency: "TRX",
    txid: "2bcf7c976b2c956a2b4352f66588385f59976a2225219d9cb8a9891b925cd9fe",
    position: 1,
    toAddress: DEPOSIT_2,
    fromAddress: PAYER_4,
    amountMinor: 1_234_567n,
    blockHeight: 78_861_103,
    blockHash: BLOCK_103,
  },
  {
    // The address word of this call is `…0041<hash>`: the token masks the prefix away, and so do we.
    network: "tron",
    currency: "USDT",
    txid: "f7340389c97fb86389ea6fddba34498011003d51b76303fd5936e6706547b05c",
    position: 1_000_000,
    toAddress: DEPOSIT_1,
    fromAddress: PAYER_4,
    amountMinor: 5_000_000n,
    blockHeight: 78_861_103,
    blockHash: BLOCK_103,
  },
];
const ALL_TRANSFERS = [...TRANSFERS_101_102, ...TRANSFERS_103_104];

const nowBlock: RecordedExchange = { path: "/wallet/getnowblock", body: {}, fixture: "getnowblock.json" };
const wholeRange: RecordedExchange = {
  path: "/wallet/getblockbylimitnext",
  body: { startNum: 78_861_101, endNum: 78_861_105 },
  fixture: "getblockbylimitnext-78861101-78861105.json",
};
const firstChunk: RecordedExchange = {
  path: "/wallet/getblockbylimitnext",
  body: { startNum: 78_861_101, endNum: 78_861_103 },
  fixture: "getblockbylimitnext-78861101-78861103.json",
};
const secondChunk: RecordedExchange = {
  path: "/wallet/getblockbylimitnext",
  body: { startNum: 78_861_103, endNum: 78_861_105 },
  fixture: "getblockbylimitnext-78861103-78861105.json",
};

function adapterFor(exchanges: RecordedExchange[], options: { blocksPerRequest?: number; timeoutMs?: number; tokens?: Record<string, string> } = {}) {
  const conversation = createRecordedConversation(exchanges);
  const adapter = createTronAdapter({ rpcUrl: TEST_NODE_URL, fetch: conversation.fetch, ...options });
  return { adapter, conversation };
}

describe("the recorded deposit addresses", () => {
  it("are deposit addresses 1 and 2 of the STACK-NOTES mnemonic", () => {
    const accountXpub = deriveAccountXpubs(deriveMasterSeed("abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about")).tron;
    if (!accountXpub) throw new Error("no tron xpub");
    expect([1, 2].map((index) => deriveDepositAddress({ network: "tron", accountXpub, index }).address)).toEqual([DEPOSIT_1, DEPOSIT_2]);
  });
});

describe("createTronAdapter against recorded java-tron answers", () => {
  it("reads the tip from getnowblock", async () => {
    const { adapter, conversation } = adapterFor([nowBlock]);
    await expect(adapter.getTip()).resolves.toEqual({ height: TIP, hash: BLOCK_104 });
    conversation.assertDone();
  });

  it("reports exactly the TRX and USDT transfers of the scanned blocks (not the reverted one, not the noise)", async () => {
    const { adapter, conversation } = adapterFor([nowBlock, wholeRange]);
    expect(await adapter.scanTransfers({ afterHeight: CURSOR })).toEqual(ALL_TRANSFERS);
    conversation.assertDone();
  });

  it("reads the range in getblockbylimitnext chunks (endNum exclusive)", async () => {
    const { adapter, conversation } = adapterFor([nowBlock, firstChunk, secondChunk], { blocksPerRequest: 2 });
    expect(await adapter.scanTransfers({ afterHeight: CURSOR })).toEqual(ALL_TRANSFERS);
    conversation.assertDone();
  });

  it("after a restart mid-scan, reports the same transfers again from the same cursor and nothing twice from a later one", async () => {
    // The first process reads the first chunk, then the node fails: the scan throws, the cursor stays.
    const first = adapterFor([nowBlock, firstChunk, { ...secondChunk, fixture: undefined, status: 502, text: "<html>Bad Gateway</html>" }], {
      blocksPerRequest: 2,
    });
    const failure = await first.adapter.scanTransfers({ afterHeight: CURSOR }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ChainError);
    expect(failure).toMatchObject({ retryable: true });
    first.conversation.assertDone();

    // A new process (new adapter instance) from the same cursor sees everything, including block 101 again.
    const again = adapterFor([nowBlock, firstChunk, secondChunk], { blocksPerRequest: 2 });
    expect(await again.adapter.scanTransfers({ afterHeight: CURSOR })).toEqual(ALL_TRANSFERS);
    again.conversation.assertDone();

    // From a cursor after block 102, only later blocks: nothing of 101 or 102 comes back.
    const later = adapterFor([nowBlock, secondChunk], { blocksPerRequest: 2 });
    expect(await later.adapter.scanTransfers({ afterHeight: 78_861_102 })).toEqual(TRANSFERS_103_104);
    later.conversation.assertDone();

    // At the tip there is nothing to read and nothing to report.
    const atTip = adapterFor([nowBlock]);
    expect(await atTip.adapter.scanTransfers({ afterHeight: TIP })).toEqual([]);
    atTip.conversation.assertDone();
  });

  it("refuses to skip blocks a lagging node does not have yet", async () => {
    const { adapter, conversation } = adapterFor([nowBlock, { ...wholeRange, fixture: "getblockbylimitnext-78861101-78861103.json" }]);
    await expect(adapter.scanTransfers({ afterHeight: CURSOR })).rejects.toMatchObject({
      name: "ChainError",
      retryable: true,
      message: expect.stringContaining("block 78861103 is not available"),
    });
    conversation.assertDone();
  });

  it("scans up to the highest tip it reported, even when a later answer comes from a node behind", async () => {
    const { adapter, conversation } = adapterFor([
      { path: "/wallet/getnowblock", body: {}, fixture: "getnowblock-later.json" },
      nowBlock,
      { path: "/wallet/getblockbylimitnext", body: { startNum: 78_861_101, endNum: 78_861_121 }, fixture: "getblockbylimitnext-78861101-78861105.json" },
    ]);
    await adapter.getTip();
    await expect(adapter.scanTransfers({ afterHeight: CURSOR })).rejects.toMatchObject({ retryable: true });
    conversation.assertDone();
  });

  it("watches the token contracts it is given instead of the catalogue's", async () => {
    const { adapter, conversation } = adapterFor([nowBlock, wholeRange], { tokens: { USDT: "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf" } });
    expect(await adapter.scanTransfers({ afterHeight: CURSOR })).toEqual(ALL_TRANSFERS.filter((transfer) => transfer.currency === "TRX"));
    conversation.assertDone();
  });

  it("reads a TRX amount beyond 2^53 sun exactly from raw_data_hex", async () => {
    const amount = 9_007_199_254_740_993n; // 2^53 + 1: JSON.parse turns it into 2^53
    const rawDataHex = encodeTransferRaw("41" + "11".repeat(20), "41" + "22".repeat(20), amount);
    const txid = computeTronTxId(rawDataHex);
    const block = `{"blockID":"${BLOCK_101}","block_header":{"raw_data":{"number":78861101}},"transactions":[{"ret":[{"contractRet":"SUCCESS"}],"txID":"${txid}","raw_data":{"contract":[{"parameter":{"value":{"amount":${amount},"owner_address":"41${"11".repeat(20)}","to_address":"41${"22".repeat(20)}"},"type_url":"type.googleapis.com/protocol.TransferContract"},"type":"TransferContract"}]},"raw_data_hex":"${rawDataHex}"}]}`;
    const { adapter, conversation } = adapterFor([
      { path: "/wallet/getnowblock", body: {}, text: block },
      { path: "/wallet/getblockbylimitnext", body: { startNum: 78_861_101, endNum: 78_861_102 }, text: `{"block":[${block}]}` },
    ]);
    const [transfer] = await adapter.scanTransfers({ afterHeight: CURSOR });
    expect(transfer?.amountMinor).toBe(amount);
    conversation.assertDone();
  });

  it.each([
    ["garbage", { text: "<html><body>502 Bad Gateway</body></html>" }],
    ["an HTTP 500", { status: 500, text: '{"message":"internal error"}' }],
    ["a timeout", { hang: true }],
    ["an unexpected shape", { json: { block: [{ blockID: "not a hash" }] } }],
  ] as const)("turns %s during a scan into a retryable ChainError", async (_, answer) => {
    const { adapter, conversation } = adapterFor([nowBlock, { path: wholeRange.path, body: wholeRange.body, ...answer }], { timeoutMs: 50 });
    const error = await adapter.scanTransfers({ afterHeight: CURSOR }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChainError);
    expect(error).toMatchObject({ retryable: true });
    conversation.assertDone();
  });

  it("reads block hashes with getblockbynum, null past the tip", async () => {
    const { adapter, conversation } = adapterFor([
      { path: "/wallet/getblockbynum", body: { num: 78_861_103 }, fixture: "getblockbynum-78861103.json" },
      { path: "/wallet/getblockbynum", body: { num: 99_999_999 }, json: {} },
    ]);
    expect(await adapter.getBlockHash(78_861_103)).toBe(BLOCK_103);
    expect(await adapter.getBlockHash(99_999_999)).toBeNull();
    conversation.assertDone();
  });
});

describe("identify", () => {
  it("says a node with the mainnet genesis block is production", async () => {
    const { adapter, conversation } = adapterFor([{ path: "/wallet/getblockbynum", body: { num: 0 }, fixture: "getblockbynum-0-mainnet.json" }]);
    await expect(adapter.identify()).resolves.toEqual({ isProduction: true, label: "mainnet" });
    conversation.assertDone();
  });

  it.each([
    ["nile", TRON_GENESIS_BLOCK_IDS.nile, "nile testnet"],
    ["shasta", TRON_GENESIS_BLOCK_IDS.shasta, "shasta testnet"],
    ["a private chain", "000000000000000075da3fe749503edb5d6121d96d450b980294a03648934988", "private chain (genesis 000000000000000075da3fe749503edb5d6121d96d450b980294a03648934988)"],
  ])("says %s is not production", async (_, genesisId, label) => {
    // The genesis header has no number: proto3 JSON leaves zeros out.
    const genesis = { blockID: genesisId, block_header: { raw_data: { parentHash: "e58f33f9baf9305dc6f82b9f1934ea8f0ade2defb951258d50167028c780351f" } } };
    const { adapter, conversation } = adapterFor([{ path: "/wallet/getblockbynum", body: { num: 0 }, json: genesis }]);
    await expect(adapter.identify()).resolves.toEqual({ isProduction: false, label });
    conversation.assertDone();
  });

  it("falls back to getnodeinfo's p2p version on a node without the genesis block (lite full node)", async () => {
    const { adapter, conversation } = adapterFor([
      { path: "/wallet/getblockbynum", body: { num: 0 }, json: {} },
      { path: "/wallet/getnodeinfo", body: {}, fixture: "getnodeinfo-nile.json" },
    ]);
    await expect(adapter.identify()).resolves.toEqual({ isProduction: false, label: "nile testnet" });
    conversation.assertDone();
  });

  it("takes p2p version 11111 for mainnet", async () => {
    const { adapter, conversation } = adapterFor([
      { path: "/wallet/getblockbynum", body: { num: 0 }, json: {} },
      { path: "/wallet/getnodeinfo", body: {}, json: { configNodeInfo: { p2pVersion: "11111" } } },
    ]);
    await expect(adapter.identify()).resolves.toEqual({ isProduction: true, label: "mainnet" });
    conversation.assertDone();
  });
});

/** A `Transaction.raw` holding one TransferContract, encoded by hand (for amounts TronWeb cannot take exactly). */
function encodeTransferRaw(ownerHex: string, toHex: string, amount: bigint): string {
  return transferRawHex(bytesField(1, ownerHex) + bytesField(2, toHex) + varintField(3, amount));
}
