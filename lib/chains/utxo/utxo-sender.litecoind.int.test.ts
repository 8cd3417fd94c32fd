import * as ecc from "@bitcoinerlab/secp256k1";
import { BIP32Factory } from "bip32";
import { payments } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { deriveMasterSeed } from "@/lib/chains/addresses";
import { getUtxoParams } from "@/lib/chains/addresses/utxo-params";
import { parseAmount } from "@/lib/domain/money/amount";
import { ChainError, type SigningKey } from "../types";
import { startLitecoind, type RegtestNode } from "./testing/litecoind";
import { startTestHttpServer } from "./testing/http-server";
import { createUtxoAdapter } from "./utxo-adapter";
import { createUtxoSender, type UtxoSender } from "./utxo-sender";

const bip32 = BIP32Factory(ecc);
const regtest = getUtxoParams("litecoin", "regtest").bitcoinjs;
const root = bip32.fromSeed(deriveMasterSeed("abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"), regtest);

/** A hot wallet key: private key, public key and its `rltc1…` address, as the service would hold it. */
function hotWallet(index: number): SigningKey {
  const key = root.derivePath(`m/84'/1'/0'/1/${index}`);
  const address = payments.p2wpkh({ pubkey: key.publicKey, network: regtest }).address;
  if (!key.privateKey || !address) throw new Error("cannot derive the hot wallet key");
  return { privateKey: key.privateKey, publicKey: key.publicKey, address };
}

const amountText = z.string().transform((text, context) => {
  const minor = parseAmount(text.replace(/^-/, ""), 8);
  if (minor === null) {
    context.addIssue({ code: "custom", message: "not an amount" });
    return z.NEVER;
  }
  return text.startsWith("-") ? -minor : minor;
});

const decodedTransactionSchema = z.object({
  txid: z.string(),
  vin: z.array(z.object({ txid: z.string(), vout: z.number() })),
  vout: z.array(z.object({ n: z.number(), value: amountText, scriptPubKey: z.object({ addresses: z.array(z.string()).optional() }) })),
  vsize: z.number(),
});

let node: RegtestNode;
let sender: UtxoSender;

beforeAll(async () => {
  node = await startLitecoind();
  sender = createUtxoSender({ network: "litecoin", rpcUrl: node.rpcUrl });
});

afterAll(async () => {
  await node?.stop();
});

async function fund(wallet: SigningKey, amounts: string[]): Promise<void> {
  for (const amount of amounts) await node.rpc.call("sendtoaddress", [wallet.address, amount], z.string());
  await node.mine(1);
}

function newRecipient(): Promise<string> {
  return node.rpc.call("getnewaddress", ["", "bech32"], z.string());
}

function decode(txid: string) {
  return node.rpc.call("getrawtransaction", [txid, true], decodedTransactionSchema);
}

function mempool(): Promise<string[]> {
  return node.rpc.call("getrawmempool", [], z.array(z.string()));
}

describe("createUtxoSender against litecoind -regtest", () => {
  it("pays a recipient exactly; inputs = amount + change + fee; pending, then confirmed", async () => {
    const wallet = hotWallet(0);
    await fund(wallet, ["1.5", "0.7"]);
    const recipient = await newRecipient();
    const transfer = { currency: "LTC", toAddress: recipient, amountMinor: 50_000_000n };

    const estimate = await sender.estimateFee(wallet, transfer);
    const { txid } = await sender.send(wallet, transfer);
    expect(await sender.getTransaction(txid)).toEqual({ state: "pending", confirmations: 0, blockHeight: null });

    const transaction = await decode(txid);
    const inputValues = await Promise.all(transaction.vin.map(async (input) => (await decode(input.txid)).vout[input.vout].value));
    const inputTotal = inputValues.reduce((sum, value) => sum + value, 0n);
    const toRecipient = transaction.vout.filter((output) => output.scriptPubKey.addresses?.includes(recipient));
    const change = transaction.vout.filter((output) => output.scriptPubKey.addresses?.includes(wallet.address));
    expect(toRecipient.map((output) => output.value)).toEqual([50_000_000n]);
    expect(change).toHaveLength(1);
    const fee = inputTotal - 50_000_000n - change[0].value;
    expect(transaction.vout).toHaveLength(2);
    // The node computes the same fee from the same inputs, and it is the one estimated beforehand.
    const entry = await node.rpc.call("getmempoolentry", [txid], z.object({ fees: z.object({ base: amountText }) }));
    expect(entry.fees.base).toBe(fee);
    expect(estimate).toEqual({ feeMinor: fee, feeCurrency: "LTC" });
    // Never below the node's relay floor (1000 litoshi per kvB on regtest).
    expect(fee * 1000n).toBeGreaterThanOrEqual(1_000n * BigInt(transaction.vsize));

    const [blockHash] = await node.mine(1);
    const { height } = await node.rpc.call("getblockheader", [blockHash, true], z.object({ height: z.number() }));
    expect(await sender.getTransaction(txid)).toEqual({ state: "confirmed", confirmations: 1, blockHeight: height });
    await node.mine(1);
    expect(await sender.getTransaction(txid)).toEqual({ state: "confirmed", confirmations: 2, blockHeight: height });
    const received = await node.rpc.call("getreceivedbyaddress", [recipient, 1], amountText);
    expect(received).toBe(50_000_000n);
  });

  it("signs legacy P2PKH inputs too (dogecoin's kind), proven on litecoind with a legacy address", async () => {
    const key = root.derivePath("m/44'/1'/0'/1/9");
    const address = payments.p2pkh({ pubkey: key.publicKey, network: regtest }).address!;
    const wallet: SigningKey = { privateKey: key.privateKey!, publicKey: key.publicKey, address };
    const legacySender = createUtxoSender({ network: "litecoin", rpcUrl: node.rpcUrl, scriptType: "p2pkh" });
    await fund(wallet, ["0.8"]);
    const recipient = await newRecipient();
    const transfer = { currency: "LTC", toAddress: recipient, amountMinor: 30_000_000n };
    const estimate = await legacySender.estimateFee(wallet, transfer);
    const { txid } = await legacySender.send(wallet, transfer);
    expect(await mempool()).toContain(txid);
    const entry = await node.rpc.call("getmempoolentry", [txid], z.object({ fees: z.object({ base: amountText }) }));
    expect(entry.fees.base).toBe(estimate.feeMinor);
    const transaction = await decode(txid);
    expect(transaction.vout.find((output) => output.scriptPubKey.addresses?.includes(address))).toBeDefined(); // change back to the P2PKH wallet
    await node.mine(1);
    expect((await legacySender.getTransaction(txid)).state).toBe("confirmed");
    expect(await node.rpc.call("getreceivedbyaddress", [recipient, 1], amountText)).toBe(30_000_000n);
  });

  it("reports a transaction the node never saw as unknown", async () => {
    expect(await sender.getTransaction("ab".repeat(32))).toEqual({ state: "unknown", confirmations: 0, blockHeight: null });
  });

  it("runs five concurrent payouts from one wallet without spending a coin twice", async () => {
    const wallet = hotWallet(1);
    await fund(wallet, ["1", "1", "1", "1", "1", "1"]);
    const recipients = await Promise.all(Array.from({ length: 5 }, newRecipient));

    const results = await Promise.all(recipients.map((toAddress) => sender.send(wallet, { currency: "LTC", toAddress, amountMinor: 10_000_000n })));
    const txids = results.map((result) => result.txid);
    expect(new Set(txids).size).toBe(5);
    expect(await mempool()).toEqual(expect.arrayContaining(txids));
    const inputs = (await Promise.all(txids.map(decode))).flatMap((transaction) => transaction.vin.map((input) => `${input.txid}:${input.vout}`));
    expect(new Set(inputs).size).toBe(inputs.length);

    // One confirmed coin is left; the change of the five is unconfirmed and not spent.
    await expect(sender.send(wallet, { currency: "LTC", toAddress: recipients[0], amountMinor: 150_000_000n })).rejects.toMatchObject({
      name: "ChainError",
      retryable: true,
      message: expect.stringMatching(/hot wallet has 100000000 spendable/),
    });

    await node.mine(1);
    for (const txid of txids) expect(await sender.getTransaction(txid)).toMatchObject({ state: "confirmed", confirmations: 1 });
    // Confirmed change is spendable again.
    const { txid } = await sender.send(wallet, { currency: "LTC", toAddress: recipients[0], amountMinor: 150_000_000n });
    expect(await mempool()).toContain(txid);
    await node.mine(1);
  });

  it("refuses a bitcoin address and a malformed one before signing", async () => {
    const wallet = hotWallet(2);
    await fund(wallet, ["1"]);
    const bitcoinRegtest = payments.p2wpkh({ pubkey: wallet.publicKey, network: getUtxoParams("bitcoin", "regtest").bitcoinjs }).address ?? "";
    const before = await mempool();
    for (const [toAddress, message] of [
      ["bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", /not a litecoin \(regtest\) address/],
      [bitcoinRegtest, /not a litecoin \(regtest\) address/],
      ["rltc1qnotanaddress", /malformed/],
      [wallet.address.slice(0, -1) + (wallet.address.endsWith("q") ? "p" : "q"), /malformed/],
    ] as const) {
      const error = await sender.send(wallet, { currency: "LTC", toAddress, amountMinor: 10_000_000n }).then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ChainError);
      expect(error).toMatchObject({ retryable: false, message: expect.stringMatching(message) });
    }
    expect(await mempool()).toEqual(before);
  });

  it("a broadcast whose answer is lost is resent, never paid twice", async () => {
    const wallet = hotWallet(3);
    await fund(wallet, ["1", "1", "1"]);
    // A proxy in front of the node that forwards (or not) sendrawtransaction and then drops the connection.
    let mode: "forward" | "forward-then-drop" | "drop" = "forward";
    const upstream = `http://127.0.0.1:${node.rpcPort}/`;
    const proxy = await startTestHttpServer(async (body, response, request) => {
      const isBroadcast = body.includes('"sendrawtransaction"');
      if (isBroadcast && mode === "drop") return void request.socket.destroy();
      const answer = await fetch(upstream, { method: "POST", headers: { authorization: request.headers.authorization ?? "", "content-type": "application/json" }, body });
      const text = await answer.text();
      if (isBroadcast && mode === "forward-then-drop") return void request.socket.destroy();
      response.writeHead(answer.status, { "content-type": "application/json" }).end(text);
    });
    try {
      const flaky = createUtxoSender({ network: "litecoin", rpcUrl: `http://${node.user}:${node.password}@127.0.0.1:${proxy.port}` });
      const adapter = createUtxoAdapter({ network: "litecoin", rpcUrl: node.rpcUrl });
      const paymentsTo = async (address: string) => (await adapter.scanTransfers({ afterHeight: (await adapter.getTip()).height })).filter((transfer) => transfer.toAddress === address);

      // The node took it, but the answer was lost.
      const first = await newRecipient();
      mode = "forward-then-drop";
      await expect(flaky.send(wallet, { currency: "LTC", toAddress: first, amountMinor: 20_000_000n })).rejects.toMatchObject({ retryable: true, message: expect.stringMatching(/got no answer/) });
      const [sent] = await paymentsTo(first);
      mode = "forward";
      expect(await flaky.send(wallet, { currency: "LTC", toAddress: first, amountMinor: 20_000_000n })).toEqual({ txid: sent.txid });
      expect(await paymentsTo(first)).toHaveLength(1);

      // The node never got it: the retry sends the very same transaction.
      const second = await newRecipient();
      mode = "drop";
      const lost = await flaky.send(wallet, { currency: "LTC", toAddress: second, amountMinor: 30_000_000n }).then(
        () => null,
        (caught: unknown) => caught as ChainError,
      );
      expect(lost).toMatchObject({ retryable: true });
      const lostTxid = /Broadcast of ([0-9a-f]{64})/.exec(lost?.message ?? "")?.[1];
      expect(await paymentsTo(second)).toHaveLength(0);
      mode = "forward";
      expect(await flaky.send(wallet, { currency: "LTC", toAddress: second, amountMinor: 30_000_000n })).toEqual({ txid: lostTxid });
      expect(await paymentsTo(second)).toMatchObject([{ txid: lostTxid, amountMinor: 30_000_000n }]);
      await node.mine(1);
    } finally {
      await proxy.close();
    }
  });
});
