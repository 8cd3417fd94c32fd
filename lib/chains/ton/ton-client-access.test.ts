import http from "node:http";
import type { AddressInfo } from "node:net";
import { Address, beginCell, TupleReader } from "@ton/core";
import { describe, expect, it } from "vitest";
import { deriveEd25519DepositAddress, deriveMasterSeed } from "@/lib/chains/addresses";
import { ChainError } from "@/lib/chains/types";
import { createRpcEndpointPool } from "@/lib/chains/rpc-endpoints";
import { createTonClientAccess, createTonHttpAccess, type TonHttpClient } from "@/lib/chains/ton/ton-client-access";
import { createTonAdapter } from "@/lib/chains/ton/ton-adapter";
import { createTonSender } from "@/lib/chains/ton/ton-sender";
import { readWalletV4Seqno } from "@/lib/chains/ton/ton-messages";

const SEED = deriveMasterSeed("abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about");
const DEPOSIT = deriveEd25519DepositAddress({ network: "ton", seed: SEED, index: 0 }).address;

/** A TonClient stand-in whose every method behaves as `behaviour`; `overrides` replace single methods. */
function fakeClient(behaviour: () => Promise<never>, overrides: Partial<TonHttpClient> = {}): TonHttpClient {
  return {
    getContractState: behaviour,
    getTransactions: behaviour,
    runMethod: behaviour,
    sendFile: behaviour,
    estimateExternalMessageFee: behaviour,
    ...overrides,
  };
}

const hang = () => new Promise<never>(() => {});
const fail = async (): Promise<never> => {
  throw new Error("Request failed with status code 502");
};

describe("TON HTTP access layer with a fake TonClient", () => {
  it("a hanging API: retryable errors after the deadline", async () => {
    const access = createTonClientAccess(fakeClient(hang));
    const adapter = createTonAdapter({ access, watchedAddresses: async () => [DEPOSIT], timeoutMs: 20 });
    await expect(adapter.getTip()).rejects.toMatchObject({ name: "ChainError", retryable: true, message: expect.stringMatching(/timed out/) });
    await expect(adapter.scanTransfers({ afterHeight: 0 })).rejects.toMatchObject({ retryable: true });
    const sender = createTonSender({ access, timeoutMs: 20 });
    await expect(sender.getTransaction("ab".repeat(32), { fromAddress: DEPOSIT, consumes: { seqno: 0, validUntilMs: 1_800_000_060_000 } })).rejects.toMatchObject({ retryable: true });
  });

  it("a failing API (HTTP 502): retryable, with the cause kept", async () => {
    const adapter = createTonAdapter({ access: createTonClientAccess(fakeClient(fail)), watchedAddresses: async () => [DEPOSIT] });
    const error = await adapter.scanTransfers({ afterHeight: 0 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChainError);
    expect(error).toMatchObject({ retryable: true, cause: expect.objectContaining({ message: "Request failed with status code 502" }) });
  });

  it("maps the client's answers: states, paging arguments, fee sum, BOC upload, chain time", async () => {
    const calls: unknown[] = [];
    const walletData = beginCell().storeUint(42, 32).storeUint(698983191, 32).storeBuffer(Buffer.alloc(32, 1)).storeBit(false).endCell();
    const access = createTonClientAccess(
      fakeClient(hang, {
        getContractState: async (address) =>
          address.hash.every((byte) => byte === 0)
            ? { balance: 5n, state: "active", data: walletData.toBoc(), timestampt: 1_800_000_123 }
            : { balance: 5n, state: "uninitialized", data: null, timestampt: 1_800_000_124 },
        getTransactions: async (address, opts) => {
          calls.push(opts);
          return [];
        },
        runMethod: async () => ({ stack: new TupleReader([{ type: "int", value: 3n }]) }),
        sendFile: async (boc) => void calls.push(boc.toString("hex")),
        estimateExternalMessageFee: async () => ({ source_fees: { in_fwd_fee: 1, storage_fee: 20, gas_fee: 300, fwd_fee: 4000 } }),
      }),
    );
    const deposit = Address.parse(DEPOSIT);
    expect(await access.getChainTime()).toBe(1_800_000_123);
    expect(await access.getAccountState(deposit)).toEqual({ status: "uninit", balance: 5n, data: null, atTime: 1_800_000_124 });
    // State and the time it is true at come from one answer; a wallet's data is parsed as a cell.
    const active = await access.getAccountState(Address.parse(`0:${"0".repeat(64)}`));
    expect(active).toMatchObject({ status: "active", atTime: 1_800_000_123 });
    expect(readWalletV4Seqno(active.data!)).toBe(42);
    expect((await access.runGetMethod(deposit, "seqno", [])).readNumber()).toBe(3);
    expect(await access.estimateExternalFee(deposit, { body: beginCell().endCell(), init: null })).toBe(4321n);

    const hash = Buffer.alloc(32, 7);
    await access.getTransactions(deposit, { limit: 50, before: { lt: 123n, hash } });
    await access.getTransactions(deposit, { limit: 10 });
    const message = beginCell().storeUint(1, 8).endCell();
    await access.sendMessage(message);
    expect(calls).toEqual([
      { limit: 50, lt: "123", hash: hash.toString("base64"), archival: true },
      { limit: 10, lt: undefined, hash: undefined, archival: true },
      message.toBoc().toString("hex"),
    ]);
  });
});

describe("TON HTTP access through an endpoint pool", () => {
  /** A toncenter-shaped endpoint answering getAddressInformation, or HTTP 502 when `isDown`. */
  async function startToncenter(syncTime: number) {
    const state = { isDown: false, requests: [] as { method: string; apiKey: string | undefined; path: string }[] };
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { method: string };
        state.requests.push({ method: body.method, apiKey: request.headers["x-api-key"] as string | undefined, path: request.url ?? "" });
        if (state.isDown) return void response.writeHead(502, { "content-type": "text/html" }).end("<h1>Bad Gateway</h1>");
        const block = { "@type": "ton.blockIdExt", workchain: -1, shard: "-9223372036854775808", seqno: 1, root_hash: "", file_hash: "" };
        const result = { balance: "0", state: "uninitialized", data: "", code: "", last_transaction_id: { "@type": "internal.transactionId", lt: "0", hash: "" }, block_id: block, sync_utime: syncTime };
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true, result, id: "1", jsonrpc: "2.0" }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v2/jsonRPC`;
    const stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
    return { url, state, stop };
  }

  it("sends TonClient's requests through the pool: a 502 moves them to the next endpoint, which never sees the first provider's API key", async () => {
    const first = await startToncenter(1_700_000_001);
    const second = await startToncenter(1_700_000_002);
    try {
      const pool = createRpcEndpointPool("ton", [first.url, second.url]);
      const access = createTonHttpAccess(pool.primaryUrl, "test-key", pool.fetch);
      expect(await access.getChainTime()).toBe(1_700_000_001);
      first.state.isDown = true;
      expect(await access.getChainTime()).toBe(1_700_000_002);
      expect(first.state.requests.map((request) => request.method)).toEqual(["getAddressInformation", "getAddressInformation"]);
      expect(first.state.requests.every((request) => request.apiKey === "test-key")).toBe(true);
      expect(second.state.requests).toEqual([{ method: "getAddressInformation", apiKey: undefined, path: "/api/v2/jsonRPC" }]);
      expect(pool.health()[0]).toMatchObject({ isUp: false, lastError: "HTTP 502" });
    } finally {
      await first.stop();
      await second.stop();
    }
  });
});
