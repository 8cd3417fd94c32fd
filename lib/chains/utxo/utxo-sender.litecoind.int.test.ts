import * as ecc from "@bitcoinerlab/secp256k1";
import { BIP32Factory } from "bip32";
import { payments } from "bitcoinjs-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { deriveMasterSeed } from "@/lib/chains/addresses";
import { getUtxoParams } from "@/lib/chains/addresses/utxo-params";
import { parseAmount } from "@/lib/domain/money/amount";
import { withSending, type SendingChainSender } from "../testing/with-sending";
import { ChainError, type OutgoingTransfer, type SignedTransaction, type SigningKey } from "../types";
import { startLitecoind, type RegtestNode } from "./testing/litecoind";
import { startTestHttpServer } from "./testing/http-server";
import { startRpcProxy } from "../testing/rpc-proxy";
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
let sender: SendingChainSender<UtxoSender>;

beforeAll(async () => {
  // Litecoin Core replaces mempool transactions (BIP125) only when told to.
  node = await startLitecoind(["-mempoolreplacement=1"]);
  sender = withSending(createUtxoSender({ network: "litecoin", rpcUrl: node.rpcUrl }));
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

function mempoolFee(txid: string): Promise<bigint> {
  return node.rpc.call("getmempoolentry", [txid], z.object({ fees: z.object({ base: amountText }) })).then((entry) => entry.fees.base);
}

/** A raw transaction as the node decodes it: inputs with their sequence, outputs with their values. */
function decodeRaw(raw: string) {
  return node.rpc.call(
    "decoderawtransaction",
    [raw],
    z.object({ vin: z.array(z.object({ txid: z.string(), vout: z.number(), sequence: z.number() })), vout: z.array(z.object({ n: z.number(), value: amountText })) }),
  );
}

/** The outpoints (`txid:vout`) a raw transaction spends, as the node decodes it. */
async function inputsOf(raw: string): Promise<string[]> {
  const decoded = await node.rpc.call("decoderawtransaction", [raw], z.object({ vin: z.array(z.object({ txid: z.string(), vout: z.number() })) }));
  return decoded.vin.map((input) => `${input.txid}:${input.vout}`);
}

describe("createUtxoSender against litecoind -regtest", () => {
  it("pays a recipient exactly; inputs = amount + change + fee; pending, then confirmed", async () => {
    const wallet = hotWallet(0);
    await fund(wallet, ["1.5", "0.7"]);
    const recipient = await newRecipient();
    const transfer = { currency: "LTC", toAddress: recipient, amountMinor: 50_000_000n };

    const estimate = await sender.estimateFee(wallet, transfer);
    const signed = await sender.sign(wallet, transfer, { inFlight: [] });
    const { txid } = signed;
    // Signing broadcasts nothing.
    expect(await sender.getTransaction(txid)).toEqual({ state: "unknown", confirmations: 0, blockHeight: null });
    expect(await mempool()).not.toContain(txid);
    expect(await sender.canStillLand(signed, wallet)).toBe(true);
    expect(await sender.broadcast(signed)).toEqual({ kind: "accepted" });
    expect(await sender.getTransaction(txid)).toEqual({ state: "pending", confirmations: 0, blockHeight: null });
    // The recorded inputs are the transaction's.
    expect(signed.consumes.outpoints).toEqual(await inputsOf(signed.raw));

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
    expect(await mempoolFee(txid)).toBe(fee);
    expect(estimate).toEqual({ feeMinor: fee, feeCurrency: "LTC" });
    // The fee fixed at signing is exact.
    expect(signed.feeMinor).toBe(fee);
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
    const legacySender = withSending(createUtxoSender({ network: "litecoin", rpcUrl: node.rpcUrl, scriptType: "p2pkh" }));
    await fund(wallet, ["0.8"]);
    const recipient = await newRecipient();
    const transfer = { currency: "LTC", toAddress: recipient, amountMinor: 30_000_000n };
    const estimate = await legacySender.estimateFee(wallet, transfer);
    const { txid, signed } = await legacySender.send(wallet, transfer);
    expect(await mempool()).toContain(txid);
    expect(await mempoolFee(txid)).toBe(estimate.feeMinor);
    expect(signed.feeMinor).toBe(estimate.feeMinor);
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
      isShortOfFunds: true,
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

  it("signs with the key's in-flight transactions: two of them never share an input", async () => {
    const wallet = hotWallet(4);
    await fund(wallet, ["1", "1"]);
    const [first, second, third] = await Promise.all([newRecipient(), newRecipient(), newRecipient()]);
    const payout = (toAddress: string): OutgoingTransfer => ({ currency: "LTC", toAddress, amountMinor: 30_000_000n });

    const a = await sender.sign(wallet, payout(first), { inFlight: [] });
    // Nothing is held in memory any more: signed without `a` in flight, the same coin is chosen again.
    const unaware = await sender.sign(wallet, payout(second), { inFlight: [] });
    expect(unaware.consumes.outpoints).toEqual(a.consumes.outpoints);
    // With `a` in flight, its coin is left alone.
    const b = await sender.sign(wallet, payout(second), { inFlight: [a] });
    const spentByA = new Set(a.consumes.outpoints);
    expect(b.consumes.outpoints?.length).toBeGreaterThan(0);
    expect(b.consumes.outpoints?.filter((outpoint) => spentByA.has(outpoint))).toEqual([]);
    // Both coins in flight: nothing is left — short of funds, retryable (change confirms, or a top-up comes).
    await expect(sender.sign(wallet, payout(third), { inFlight: [a, b] })).rejects.toMatchObject({
      name: "ChainError",
      retryable: true,
      isShortOfFunds: true,
      message: expect.stringMatching(/hot wallet has 0 spendable/),
    });

    // Broadcast in either order, both are taken: they do not conflict.
    expect(await sender.broadcast(b)).toEqual({ kind: "accepted" });
    expect(await sender.broadcast(a)).toEqual({ kind: "accepted" });
    expect(await mempool()).toEqual(expect.arrayContaining([a.txid, b.txid]));
    // Coins a mempool transaction spends are skipped even when the caller does not name it.
    await expect(sender.sign(wallet, payout(third), { inFlight: [] })).rejects.toMatchObject({ isShortOfFunds: true, message: expect.stringMatching(/hot wallet has 0 spendable/) });
    await node.mine(1);
    expect((await sender.getTransaction(a.txid)).state).toBe("confirmed");
    expect((await sender.getTransaction(b.txid)).state).toBe("confirmed");
    // The transaction signed without `a` in flight spends a's coin: it can never land.
    expect(await sender.canStillLand(unaware, wallet)).toBe(false);
  });

  it("canStillLand: true while every input is unspent or spent only in the mempool, false once a block spends one", async () => {
    const wallet = hotWallet(7);
    await fund(wallet, ["1"]);
    const [first, second] = await Promise.all([newRecipient(), newRecipient()]);
    const payout = (toAddress: string): OutgoingTransfer => ({ currency: "LTC", toAddress, amountMinor: 40_000_000n });
    const kept = await sender.sign(wallet, payout(first), { inFlight: [] });
    // Signed by someone who did not know of `kept` (a lost database row): the same single coin.
    const rival = await sender.sign(wallet, payout(second), { inFlight: [] });
    expect(rival.consumes.outpoints).toEqual(kept.consumes.outpoints);
    expect(rival.txid).not.toBe(kept.txid);

    expect(await sender.canStillLand(kept, wallet)).toBe(true);
    expect(await sender.canStillLand(rival, wallet)).toBe(true);
    expect(await sender.broadcast(rival)).toEqual({ kind: "accepted" });
    // Spent in the mempool only: the rival may yet be evicted or replaced, so that proves nothing.
    expect(await sender.canStillLand(kept, wallet)).toBe(true);
    // Both signal replaceability: the node weighs `kept` as a replacement, and it pays no more.
    expect(await sender.broadcast(kept)).toMatchObject({ kind: "rejected", reason: expect.stringMatching(/conflict|insufficient fee/), retryable: true });
    expect(await mempool()).not.toContain(kept.txid);
    // The one that did land is not called dead: its inputs are spent by itself.
    expect(await sender.canStillLand(rival, wallet)).toBe(true);
    await node.mine(1);
    expect(await sender.canStillLand(kept, wallet)).toBe(false);
    expect(await sender.getTransaction(kept.txid)).toEqual({ state: "unknown", confirmations: 0, blockHeight: null });
    expect(await sender.canStillLand(rival, wallet)).toBe(true);
    expect((await sender.getTransaction(rival.txid)).state).toBe("confirmed");
  });

  it("replaces a transaction stuck unmined (BIP125): same coins and payment, the raise out of the change; whichever signing is mined is the transfer's", async () => {
    const wallet = hotWallet(11);
    await fund(wallet, ["1"]);
    const recipient = await newRecipient();
    const transfer: OutgoingTransfer = { currency: "LTC", toAddress: recipient, amountMinor: 30_000_000n };
    const stuck = await sender.sign(wallet, transfer, { inFlight: [] });
    expect((await decodeRaw(stuck.raw)).vin.every((input) => input.sequence === 0xfffffffd)).toBe(true);
    expect(stuck.consumes.signedAtHeight).toBe(await node.rpc.call("getblockcount", [], z.number()));
    expect(await sender.broadcast(stuck)).toEqual({ kind: "accepted" });
    // Kept out of blocks: the miner weighs it as paying nothing.
    await node.rpc.call("prioritisetransaction", [stuck.txid, 0, -100_000_000], z.boolean());
    expect(await sender.bump!(wallet, transfer, stuck, { afterBlocks: 2 })).toBeNull(); // not waited long enough
    await node.mine(2);
    expect(await mempool()).toContain(stuck.txid);

    const replacement = (await sender.bump!(wallet, transfer, stuck, { afterBlocks: 2 }))!;
    expect(replacement.consumes).toMatchObject({ outpoints: stuck.consumes.outpoints, supersedes: [stuck.txid] });
    expect(replacement.feeMinor).toBeGreaterThan(stuck.feeMinor + stuck.feeMinor / 8n);
    const [before, after] = [await decodeRaw(stuck.raw), await decodeRaw(replacement.raw)];
    expect(after.vout[0]).toEqual(before.vout[0]); // the payment, unchanged
    expect(after.vout[1].value).toBe(before.vout[1].value - (replacement.feeMinor - stuck.feeMinor));
    expect(await sender.broadcast(replacement)).toEqual({ kind: "accepted" });
    expect(await mempool()).toContain(replacement.txid);
    expect(await mempool()).not.toContain(stuck.txid);
    expect(await mempoolFee(replacement.txid)).toBe(replacement.feeMinor);
    await node.mine(1);
    expect(await sender.getTransaction(replacement.txid, { fromAddress: wallet.address, consumes: replacement.consumes })).toMatchObject({ state: "confirmed", confirmations: 1 });
    expect(await sender.bump!(wallet, transfer, replacement, { afterBlocks: 0 })).toBeNull(); // mined: not stuck
    expect(await sender.canStillLand(replacement, wallet)).toBe(true);
    expect(await sender.canStillLand(stuck, wallet)).toBe(false);

    // The other way round: a replacement signed (and stored) but the first signing mined.
    await fund(wallet, ["1"]);
    const second = await sender.sign(wallet, transfer, { inFlight: [] });
    expect(await sender.broadcast(second)).toEqual({ kind: "accepted" });
    const unneeded = (await sender.bump!(wallet, transfer, second, { afterBlocks: 0 }))!;
    await node.mine(1);
    const followed = await sender.getTransaction(unneeded.txid, { fromAddress: wallet.address, consumes: unneeded.consumes });
    expect(followed).toMatchObject({ state: "confirmed", landedTxid: second.txid, feeMinor: second.feeMinor });
    expect(await sender.canStillLand(unneeded, wallet)).toBe(true);
  });

  it("leaves a stuck transaction as it is where the node does not replace (Litecoin Core's default)", { timeout: 60_000 }, async () => {
    const plain = await startLitecoind();
    try {
      const plainSender = withSending(createUtxoSender({ network: "litecoin", rpcUrl: plain.rpcUrl }));
      const wallet = hotWallet(12);
      await plain.rpc.call("sendtoaddress", [wallet.address, "1"], z.string());
      await plain.mine(1);
      const transfer: OutgoingTransfer = { currency: "LTC", toAddress: await plain.rpc.call("getnewaddress", ["", "bech32"], z.string()), amountMinor: 30_000_000n };
      const stuck = await plainSender.sign(wallet, transfer, { inFlight: [] });
      expect(await plainSender.broadcast(stuck)).toEqual({ kind: "accepted" });
      expect(await plainSender.bump!(wallet, transfer, stuck, { afterBlocks: 0 })).toBeNull();
      expect(await plain.rpc.call("getrawmempool", [], z.array(z.string()))).toEqual([stuck.txid]);
    } finally {
      await plain.stop();
    }
  });

  it("sends the change to the transfer's change address, none back to the sending key", async () => {
    const deposit = hotWallet(5);
    const hot = hotWallet(6);
    await fund(deposit, ["0.9"]);
    const recipient = await newRecipient();
    const transfer: OutgoingTransfer = { currency: "LTC", toAddress: recipient, amountMinor: 20_000_000n, changeAddress: hot.address };
    const estimate = await sender.estimateFee(deposit, transfer);
    const { txid, signed } = await sender.send(deposit, transfer);

    const transaction = await decode(txid);
    expect(transaction.vout.filter((output) => output.scriptPubKey.addresses?.includes(deposit.address))).toEqual([]);
    const change = transaction.vout.filter((output) => output.scriptPubKey.addresses?.includes(hot.address));
    expect(change).toHaveLength(1);
    expect(transaction.vout.filter((output) => output.scriptPubKey.addresses?.includes(recipient)).map((output) => output.value)).toEqual([20_000_000n]);
    const fee = await mempoolFee(txid);
    expect(change[0].value).toBe(90_000_000n - 20_000_000n - fee);
    expect(signed.feeMinor).toBe(fee);
    expect(estimate.feeMinor).toBe(fee);

    // Confirmed, the change is the hot wallet's to spend.
    await node.mine(1);
    const fromChange = await sender.send(hot, { currency: "LTC", toAddress: recipient, amountMinor: 10_000_000n });
    expect(fromChange.signed.consumes.outpoints).toEqual([`${txid}:${change[0].n}`]);
    expect(await mempool()).toContain(fromChange.txid);
    await node.mine(1);
  });

  it("reads the balance a payout could spend: confirmed coins that no mempool transaction spends", async () => {
    const wallet = hotWallet(8);
    await fund(wallet, ["1.5", "0.25"]);
    expect(await sender.getBalance(wallet.address, "LTC")).toBe(175_000_000n);
    // Coming in, unconfirmed: not spendable yet.
    await node.rpc.call("sendtoaddress", [wallet.address, "0.1"], z.string());
    expect(await sender.getBalance(wallet.address, "LTC")).toBe(175_000_000n);

    const { signed } = await sender.send(wallet, { currency: "LTC", toAddress: await newRecipient(), amountMinor: 50_000_000n });
    // The payout's coins are spent in the mempool, and its change is unconfirmed.
    const inputs = await Promise.all((signed.consumes.outpoints ?? []).map(async (outpoint) => {
      const [txid, vout] = outpoint.split(":");
      return (await decode(txid)).vout[Number(vout)].value;
    }));
    const spent = inputs.reduce((sum, value) => sum + value, 0n);
    expect(await sender.getBalance(wallet.address, "LTC")).toBe(175_000_000n - spent);

    await node.mine(1);
    expect(await sender.getBalance(wallet.address, "LTC")).toBe(175_000_000n + 10_000_000n - 50_000_000n - signed.feeMinor);
    expect(await sender.getBalance((await newRecipient()), "LTC")).toBe(0n);
  });

  it("refuses another coin and what is not an address of the node's chain, for good", async () => {
    const wallet = hotWallet(9);
    for (const [address, currency] of [
      [wallet.address, "BTC"],
      [`${wallet.address}),addr(${node.minerAddress}`, "LTC"],
      ["bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", "LTC"],
    ] as const) {
      const error = await sender.getBalance(address, currency).catch((caught: unknown) => caught);
      expect(error, address).toBeInstanceOf(ChainError);
      expect((error as ChainError).retryable, address).toBe(false);
    }
  });

  it("a balance read past its deadline fails retryably, and asks the node to stop the scan it started", async () => {
    const scans: unknown[] = [];
    const proxy = await startRpcProxy(node.rpcUrl, (method, params) => {
      if (method === "scantxoutset") scans.push(params[0]);
      return method === "scantxoutset" && params[0] === "start" ? { kind: "hang" } : { kind: "forward" };
    });
    const wallet = hotWallet(10);
    await fund(wallet, ["0.3"]);
    try {
      const slow = createUtxoSender({ network: "litecoin", rpcUrl: proxy.url });
      const started = Date.now();
      const error = await slow.getBalance(wallet.address, "LTC", { timeoutMs: 300 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ChainError);
      expect((error as ChainError).retryable).toBe(true);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(scans).toEqual(["start", "abort"]);
      // The next read scans again, not refused as a scan in progress.
      expect(await sender.getBalance(wallet.address, "LTC")).toBe(30_000_000n);
    } finally {
      await proxy.stop();
    }
  });

  it("a broadcast whose answer is lost is broadcast again, the same bytes: one transaction, never two", async () => {
    const wallet = hotWallet(3);
    await fund(wallet, ["1", "1", "1", "1"]);
    // A proxy in front of the node: it forwards (or not) sendrawtransaction and then drops the connection;
    // "dark" forwards the broadcast and then answers nothing at all.
    let mode: "forward" | "forward-then-drop" | "drop" | "dark" = "forward";
    const upstream = `http://127.0.0.1:${node.rpcPort}/`;
    const proxy = await startTestHttpServer(async (body, response, request) => {
      const isBroadcast = body.includes('"sendrawtransaction"');
      if ((isBroadcast && mode === "drop") || (!isBroadcast && mode === "dark")) return void request.socket.destroy();
      const answer = await fetch(upstream, { method: "POST", headers: { authorization: request.headers.authorization ?? "", "content-type": "application/json" }, body });
      const text = await answer.text();
      if (isBroadcast && (mode === "forward-then-drop" || mode === "dark")) return void request.socket.destroy();
      response.writeHead(answer.status, { "content-type": "application/json" }).end(text);
    });
    try {
      const flaky = createUtxoSender({ network: "litecoin", rpcUrl: `http://${node.user}:${node.password}@127.0.0.1:${proxy.port}` });
      const adapter = createUtxoAdapter({ network: "litecoin", rpcUrl: node.rpcUrl });
      const paymentsTo = async (address: string) => (await adapter.scanTransfers({ afterHeight: (await adapter.getTip()).height })).filter((transfer) => transfer.toAddress === address);
      const inFlight: SignedTransaction[] = [];
      const sign = async (toAddress: string, amountMinor: bigint) => {
        const signed = await flaky.sign(wallet, { currency: "LTC", toAddress, amountMinor }, { inFlight });
        inFlight.push(signed);
        return signed;
      };

      // The node took it and the answer was lost, but the sender asks the node afterwards: accepted.
      const first = await newRecipient();
      const one = await sign(first, 20_000_000n);
      mode = "forward-then-drop";
      expect(await flaky.broadcast(one)).toEqual({ kind: "accepted" });
      expect(await paymentsTo(first)).toMatchObject([{ txid: one.txid, amountMinor: 20_000_000n }]);

      // The node took it and nothing answers afterwards: uncertain. The same bytes again: one transaction.
      mode = "forward";
      const second = await newRecipient();
      const two = await sign(second, 25_000_000n);
      mode = "dark";
      expect(await flaky.broadcast(two)).toMatchObject({ kind: "uncertain" });
      expect(await paymentsTo(second)).toMatchObject([{ txid: two.txid }]);
      mode = "forward";
      expect(await flaky.broadcast(two)).toEqual({ kind: "accepted" });
      expect(await flaky.broadcast(two)).toEqual({ kind: "accepted" });
      expect(await paymentsTo(second)).toMatchObject([{ txid: two.txid, amountMinor: 25_000_000n }]);

      // The node never got it: uncertain, and it can still land.
      const third = await newRecipient();
      const lost = await sign(third, 30_000_000n);
      mode = "drop";
      expect(await flaky.broadcast(lost)).toMatchObject({ kind: "uncertain" });
      mode = "forward";
      expect(await paymentsTo(third)).toHaveLength(0);
      expect(await flaky.getTransaction(lost.txid)).toMatchObject({ state: "unknown" });
      expect(await flaky.canStillLand(lost, wallet)).toBe(true);
      // Another payout signed meanwhile, with the lost one in flight, leaves its coins alone.
      const other = await sign(await newRecipient(), 10_000_000n);
      expect(other.consumes.outpoints?.filter((outpoint) => lost.consumes.outpoints?.includes(outpoint))).toEqual([]);
      // The same bytes again: the very transaction the first broadcast signed.
      expect(await flaky.broadcast(lost)).toEqual({ kind: "accepted" });
      expect(await flaky.broadcast(other)).toEqual({ kind: "accepted" });
      expect(await paymentsTo(third)).toMatchObject([{ txid: lost.txid, amountMinor: 30_000_000n }]);

      const inputs = (await Promise.all([one, two, lost, other].map((signed) => inputsOf(signed.raw)))).flat();
      expect(new Set(inputs).size).toBe(inputs.length);
      await node.mine(1);
      for (const signed of [one, two, lost, other]) expect((await sender.getTransaction(signed.txid)).state).toBe("confirmed");
      expect(await paymentsTo(third)).toEqual([]);
      expect(await node.rpc.call("getreceivedbyaddress", [third, 1], amountText)).toBe(30_000_000n);
    } finally {
      await proxy.close();
    }
  });
});
