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
  ])("refuses %s", async (_name, transfer, message) => {
    const sender = createUtxoSender({ network: "litecoin", rpcUrl: `http://u:p@127.0.0.1:${node.port}`, chain: "main" });
    const before = node.bodies.length;
    await expectRefusal(sender.send(hotWallet, transfer), message);
    await expectRefusal(sender.estimateFee(hotWallet, transfer), message);
    expect(node.bodies.length).toBe(before);
  });

  it("refuses a key that does not match its address or its public key", async () => {
    const sender = createUtxoSender({ network: "litecoin", rpcUrl: `http://u:p@127.0.0.1:${node.port}`, chain: "main" });
    const other = signingKey("litecoin", "main", "m/84'/2'/0'/0/1");
    await expectRefusal(sender.send({ ...hotWallet, address: other.address }, payout({})), /not the P2WPKH address of its key/);
    await expectRefusal(sender.send({ ...hotWallet, publicKey: other.publicKey }, payout({})), /private key does not match/);
    // A litecoin key with a bitcoin-encoded address is refused as well.
    await expectRefusal(sender.send({ ...hotWallet, address: signingKey("bitcoin", "main", "m/84'/2'/0'/0/0").address }, payout({})), /not the P2WPKH address/);
  });

  it("on dogecoin, which has no segwit, wants a P2PKH hot wallet", async () => {
    const sender = createUtxoSender({ network: "dogecoin", rpcUrl: `http://u:p@127.0.0.1:${node.port}`, chain: "main" });
    await expectRefusal(sender.send(hotWallet, { currency: "DOGE", toAddress: "DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC", amountMinor: 100_000_000n }), /not the P2PKH address of its key/);
    expect(node.bodies.length).toBe(0);
  });
});
