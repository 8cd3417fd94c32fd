import * as ecc from "@bitcoinerlab/secp256k1";
import { BIP32Factory } from "bip32";
import { payments } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NetworkId } from "@/lib/catalogue";
import { deriveMasterSeed, type AddressChain } from "@/lib/chains/addresses";
import { getUtxoParams } from "@/lib/chains/addresses/utxo-params";
import { ChainError, type OutgoingTransfer, type SigningKey } from "../types";
import { startTestHttpServer, type TestHttpServer } from "./testing/http-server";
import { createUtxoSender } from "./utxo-sender";

const bip32 = BIP32Factory(ecc);
const seed = deriveMasterSeed("abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about");

/** The P2WPKH key at `path`, as the service would hand it to the sender. */
function signingKey(network: NetworkId, chain: AddressChain, path: string): SigningKey {
  const params = getUtxoParams(network, chain);
  const node = bip32.fromSeed(seed, params.bitcoinjs).derivePath(path);
  const address = payments.p2wpkh({ pubkey: node.publicKey, network: params.bitcoinjs }).address;
  if (!node.privateKey || !address) throw new Error("cannot derive the test key");
  return { privateKey: node.privateKey, publicKey: node.publicKey, address };
}

describe("createUtxoSender refuses bad payouts before signing or asking the node", () => {
  // A node that must never be called: every request is recorded and answered with garbage.
  let node: TestHttpServer;
  beforeAll(async () => {
    node = await startTestHttpServer((_body, response) => response.end("not json"));
  });
  afterAll(async () => {
    await node.close();
  });

  const hotWallet = signingKey("litecoin", "main", "m/84'/2'/0'/0/0");
  const payout = (change: Partial<OutgoingTransfer>): OutgoingTransfer => ({
    currency: "LTC",
    toAddress: "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh",
    amountMinor: 10_000_000n,
    ...change,
  });

  async function expectRefusal(promise: Promise<unknown>, message: RegExp) {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ChainError);
    expect(error).toMatchObject({ retryable: false, message: expect.stringMatching(message) });
  }

  it.each([
    ["a bitcoin address (wrong network)", payout({ toAddress: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu" }), /not a litecoin \(main\) address/],
    ["a litecoin testnet address (wrong chain)", payout({ toAddress: signingKey("litecoin", "test", "m/84'/1'/0'/0/0").address }), /not a litecoin \(main\) address/],
    ["a malformed address", payout({ toAddress: "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wx" }), /malformed/],
    ["garbage", payout({ toAddress: "not an address" }), /malformed/],
    ["another currency", payout({ currency: "BTC" }), /only LTC/],
    ["dust", payout({ amountMinor: 5_459n }), /dust limit/],
    ["zero", payout({ amountMinor: 0n }), /dust limit/],
    ["a change address of another network", payout({ changeAddress: "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu" }), /change address is not an address of this network/],
  ])("refuses %s", async (_name, transfer, message) => {
    const sender = createUtxoSender({ network: "litecoin", rpcUrl: `http://u:p@127.0.0.1:${node.port}`, chain: "main" });
    const before = node.bodies.length;
    await expectRefusal(sender.sign(hotWallet, transfer, { inFlight: [] }), message);
    await expectRefusal(sender.estimateFee(hotWallet, transfer), message);
    expect(node.bodies.length).toBe(before);
  });

  it("refuses a key that does not match its address or its public key", async () => {
    const sender = createUtxoSender({ network: "litecoin", rpcUrl: `http://u:p@127.0.0.1:${node.port}`, chain: "main" });
    const other = signingKey("litecoin", "main", "m/84'/2'/0'/0/1");
    await expectRefusal(sender.sign({ ...hotWallet, address: other.address }, payout({}), { inFlight: [] }), /not the P2WPKH address of its key/);
    await expectRefusal(sender.sign({ ...hotWallet, publicKey: other.publicKey }, payout({}), { inFlight: [] }), /private key does not match/);
    // A litecoin key with a bitcoin-encoded address is refused as well.
    await expectRefusal(sender.sign({ ...hotWallet, address: signingKey("bitcoin", "main", "m/84'/2'/0'/0/0").address }, payout({}), { inFlight: [] }), /not the P2WPKH address/);
  });

  it("on dogecoin, which has no segwit, wants a P2PKH hot wallet", async () => {
    const sender = createUtxoSender({ network: "dogecoin", rpcUrl: `http://u:p@127.0.0.1:${node.port}`, chain: "main" });
    await expectRefusal(sender.sign(hotWallet, { currency: "DOGE", toAddress: "DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC", amountMinor: 100_000_000n }, { inFlight: [] }), /not the P2PKH address of its key/);
    expect(node.bodies.length).toBe(0);
  });
});

describe("createUtxoSender broadcast and canStillLand read the node's answers", () => {
  type Answer = { result: unknown } | { error: { code: number; message: string } } | "drop";
  // A scripted node: each method answers as the test says; "drop" closes the connection unanswered.
  let answers: Record<string, (params: unknown[]) => Answer> = {};
  let node: TestHttpServer;
  beforeAll(async () => {
    node = await startTestHttpServer((body, response, request) => {
      const parsed = JSON.parse(body) as { id: number; method: string; params: unknown[] } | { id: number; method: string; params: unknown[] }[];
      const calls = Array.isArray(parsed) ? parsed : [parsed];
      const replies = calls.map((call) => ({ call, answer: answers[call.method]?.(call.params) ?? { error: { code: -32601, message: "Method not found" } } }));
      if (replies.some((reply) => reply.answer === "drop")) return void request.socket.destroy();
      const envelopes = replies.map(({ call, answer }) =>
        "result" in (answer as object)
          ? { result: (answer as { result: unknown }).result, error: null, id: call.id }
          : { result: null, error: (answer as { error: unknown }).error, id: call.id },
      );
      const isError = !Array.isArray(parsed) && envelopes[0].error !== null;
      response.writeHead(isError ? 500 : 200, { "content-type": "application/json" }).end(JSON.stringify(Array.isArray(parsed) ? envelopes : envelopes[0]));
    });
  });
  afterAll(async () => {
    await node.close();
  });

  const txid = "ab".repeat(32);
  const signed = { txid, raw: "0200000000" };
  const sender = () => createUtxoSender({ network: "litecoin", rpcUrl: `http://u:p@127.0.0.1:${node.port}`, chain: "main" });
  const notFound = () => ({ error: { code: -5, message: "No such mempool or blockchain transaction" } });

  it.each([
    ["taken now", { result: txid }, { kind: "accepted" }],
    ["already mined (-27)", { error: { code: -27, message: "Transaction already in block chain" } }, { kind: "accepted" }],
    ["already in the mempool", { error: { code: -26, message: "txn-already-in-mempool" } }, { kind: "accepted" }],
    ["in conflict with a mempool transaction", { error: { code: -26, message: "txn-mempool-conflict" } }, { kind: "rejected", retryable: true }],
    ["spending missing inputs", { error: { code: -25, message: "bad-txns-inputs-missingorspent" } }, { kind: "rejected", retryable: true }],
    ["invalid", { error: { code: -26, message: "bad-txns-in-belowout" } }, { kind: "rejected", retryable: false }],
    // The node's state, not the transaction: the same bytes may be taken later.
    ["while the node warms up (-28)", { error: { code: -28, message: "Loading block index..." } }, { kind: "rejected", retryable: true }],
  ] as const)("a broadcast answered as %s", async (_name, answer, outcome) => {
    answers = { sendrawtransaction: () => answer, getrawtransaction: notFound, gettxout: () => ({ result: null }) };
    expect(await sender().broadcast(signed)).toMatchObject(outcome);
  });

  it("a broadcast without an answer is uncertain, unless the node then reports the transaction", async () => {
    answers = { sendrawtransaction: () => "drop", getrawtransaction: notFound, gettxout: () => ({ result: null }) };
    expect(await sender().broadcast(signed)).toMatchObject({ kind: "uncertain" });
    // The node went away altogether: still uncertain, never a refusal.
    answers = { sendrawtransaction: () => "drop", getrawtransaction: () => "drop", gettxout: () => "drop" };
    expect(await sender().broadcast(signed)).toMatchObject({ kind: "uncertain" });
    answers = { sendrawtransaction: () => "drop", getrawtransaction: () => ({ result: { txid } }) };
    expect(await sender().broadcast(signed)).toEqual({ kind: "accepted" });
  });

  it("canStillLand: true while every input is unspent or spent only in the mempool, false once a block spends one whose coin the node has", async () => {
    const spentInBlock = new Set<string>();
    const spentInMempool = new Set<string>();
    let isKnown = false;
    let fundingConfirmations = 6;
    answers = {
      // The transaction's own outputs do not exist while the node does not know it.
      gettxout: ([id, vout, includeMempool]) => {
        const outpoint = `${String(id)}:${String(vout)}`;
        const isSpent = id === txid || spentInBlock.has(outpoint) || (includeMempool === true && spentInMempool.has(outpoint));
        return { result: isSpent ? null : { value: 0.5 } };
      },
      getrawtransaction: ([id]) => (id === txid ? (isKnown ? { result: { txid } } : notFound()) : { result: { txid: id, blockhash: "cd".repeat(32) } }),
      getblockheader: () => ({ result: { height: 100, confirmations: fundingConfirmations } }),
    };
    const consumes = { outpoints: [`${"01".repeat(32)}:0`, `${"02".repeat(32)}:3`] };
    expect(await sender().canStillLand({ txid, consumes }, { address: "x" })).toBe(true);
    // A rival in the mempool may still be evicted or replaced: no proof.
    spentInMempool.add(`${"02".repeat(32)}:3`);
    expect(await sender().canStillLand({ txid, consumes }, { address: "x" })).toBe(true);
    spentInBlock.add(`${"02".repeat(32)}:3`);
    expect(await sender().canStillLand({ txid, consumes }, { address: "x" })).toBe(false);
    // A node whose chain lacks the block that made the coin (it lags) proves nothing.
    fundingConfirmations = 0;
    expect(await sender().canStillLand({ txid, consumes }, { address: "x" })).toBe(true);
    fundingConfirmations = 6;
    // Spent by this very transaction, which reached the mempool meanwhile: it has landed, it is not dead.
    isKnown = true;
    expect(await sender().canStillLand({ txid, consumes }, { address: "x" })).toBe(true);
    // Without its outpoints nothing can be told: a refusal, never a guess.
    await expect(sender().canStillLand({ txid, consumes: {} }, { address: "x" })).rejects.toBeInstanceOf(ChainError);
  });
});
