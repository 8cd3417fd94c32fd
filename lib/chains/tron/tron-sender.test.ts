import * as ecc from "@bitcoinerlab/secp256k1";
import { BIP32Factory } from "bip32";
import { utils } from "tronweb";
import { describe, expect, it } from "vitest";
import { deriveMasterSeed } from "@/lib/chains/addresses";
import { ChainError, type OutgoingTransfer, type SigningKey } from "@/lib/chains/types";
import { bytesToHex } from "@/lib/chains/tron/tron-encoding";
import { TronApiError } from "@/lib/chains/tron/tron-http";
import { createRecordedConversation, readFixtureJson, TEST_NODE_URL, type RecordedExchange } from "@/lib/chains/tron/testing/tron-recorded-conversation";
import { createTronSender } from "@/lib/chains/tron/tron-sender";
import { BroadcastUncertainError, withSending } from "@/lib/chains/testing/with-sending";
import { computeTronTxId } from "@/lib/chains/tron/tron-signer";
import { bytesField, transferRawHex, varintField } from "@/lib/chains/tron/testing/protobuf-writer";

const MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

function keyAt(index: number): SigningKey {
  const node = BIP32Factory(ecc).fromSeed(Buffer.from(deriveMasterSeed(MNEMONIC))).derivePath(`m/44'/195'/0'/0/${index}`);
  if (!node.privateKey) throw new Error("no private key");
  const privateKey = Uint8Array.from(node.privateKey);
  const addresses = ["TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH", "TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK"];
  return { privateKey, publicKey: Uint8Array.from(node.publicKey), address: addresses[index] ?? "" };
}

const HOT_WALLET = keyAt(0);
const HOT_WALLET_HEX = "41c8599111f29c1e1e061265b4af93ea1f274ad78a";
/** A real Nile address: the recipient of the java-tron createtransaction example. */
const RECIPIENT = "TPLkz8rzTT7gKRS1bUm3hBcvw1EExAbKTV";
const RECIPIENT_HEX = "4192ad11c1bf16b3b14b0bd6b5c7e2db73a0b5e83a";
const USDT_HEX = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";
const TRX_TXID = "a22254dcf081dcb52e8ed463d2f7afd5fc223e68cabc4fb557e0613118080583";
const USDT_TXID = "a752d3de5adb1163c7342f325501f9c9714627d0b3f949770052e05ae7d4922e";
/** Just after the node built the payouts (their raw_data.timestamp is 1767246226234). */
const NOW = 1_767_246_226_500;
/** The expiration the node wrote into createtransaction.json. */
const EXPIRATION = 1_767_246_285_000;

const TRX_PAYOUT: OutgoingTransfer = { currency: "TRX", toAddress: RECIPIENT, amountMinor: 12_345_678n };
const USDT_PAYOUT: OutgoingTransfer = { currency: "USDT", toAddress: RECIPIENT, amountMinor: 250_000_000n };
const USDT_CALL_ARGUMENTS = `000000000000000000000000${RECIPIENT_HEX.slice(2)}${(250_000_000).toString(16).padStart(64, "0")}`;

const createTransaction: RecordedExchange = {
  path: "/wallet/createtransaction",
  body: { owner_address: HOT_WALLET_HEX, to_address: RECIPIENT_HEX, amount: 12_345_678, visible: false },
  fixture: "createtransaction.json",
};
const triggerSmartContract: RecordedExchange = {
  path: "/wallet/triggersmartcontract",
  body: {
    owner_address: HOT_WALLET_HEX,
    contract_address: USDT_HEX,
    function_selector: "transfer(address,uint256)",
    parameter: USDT_CALL_ARGUMENTS,
    fee_limit: 100_000_000,
    call_value: 0,
    visible: false,
  },
  fixture: "triggersmartcontract.json",
};

interface UnsignedFixture {
  visible: boolean;
  txID: string;
  raw_data: { contract: Array<{ parameter: { value: Record<string, unknown> } }> } & Record<string, unknown>;
  raw_data_hex: string;
}

function unsignedTrx(): UnsignedFixture {
  return readFixtureJson("createtransaction.json") as UnsignedFixture;
}

function unsignedUsdt(): UnsignedFixture {
  return (readFixtureJson("triggersmartcontract.json") as { transaction: UnsignedFixture }).transaction;
}

/** The body a correct sender broadcasts: the node's transaction plus the signature TronWeb makes with the same key. */
function expectedBroadcast(unsigned: UnsignedFixture): Record<string, unknown> {
  const signed = utils.crypto.signTransaction(bytesToHex(HOT_WALLET.privateKey), structuredClone(unsigned));
  return { ...unsigned, signature: signed.signature.map((signature) => signature.toLowerCase()) };
}

/** Re-encodes a changed raw_data with TronWeb, so raw_data, raw_data_hex and txID agree with each other. */
function reencoded(unsigned: UnsignedFixture): UnsignedFixture {
  const pb = utils.transaction.txJsonToPb(unsigned);
  return {
    ...unsigned,
    raw_data_hex: String(utils.transaction.txPbToRawDataHex(pb)).toLowerCase(),
    txID: String(utils.transaction.txPbToTxID(pb)).replace(/^0x/, ""),
  };
}

function senderFor(exchanges: RecordedExchange[], options: { now?: () => number; timeoutMs?: number } = {}) {
  const conversation = createRecordedConversation(exchanges);
  // `send` signs, then broadcasts, keeping the key's in-flight transactions as the service's database does.
  const sender = withSending(createTronSender({ rpcUrl: TEST_NODE_URL, fetch: conversation.fetch, now: options.now ?? (() => NOW), timeoutMs: options.timeoutMs }));
  return { sender, conversation };
}

describe("send", () => {
  it("sends TRX: createtransaction, checks the raw data, signs locally, broadcasts", async () => {
    const { sender, conversation } = senderFor([
      createTransaction,
      { path: "/wallet/broadcasttransaction", body: expectedBroadcast(unsignedTrx()), fixture: "broadcasttransaction-trx.json" },
    ]);
    await expect(sender.send(HOT_WALLET, TRX_PAYOUT)).resolves.toMatchObject({ txid: TRX_TXID, signed: { consumes: { validUntilMs: 1_767_246_285_000 } } });
    conversation.assertDone();
  });

  it("sends USDT: triggersmartcontract transfer(address,uint256) with fee_limit, checks, signs, broadcasts", async () => {
    const { sender, conversation } = senderFor([
      triggerSmartContract,
      { path: "/wallet/broadcasttransaction", body: expectedBroadcast(unsignedUsdt()), fixture: "broadcasttransaction-usdt.json" },
    ]);
    await expect(sender.send(HOT_WALLET, USDT_PAYOUT)).resolves.toMatchObject({ txid: USDT_TXID });
    conversation.assertDone();
  });

  it("reports a broadcast refusal as final, with the node's message decoded", async () => {
    const { sender, conversation } = senderFor([createTransaction]);
    const signed = await sender.sign(HOT_WALLET, TRX_PAYOUT, { inFlight: [] });
    conversation.assertDone();
    const refusal = senderFor([{ path: "/wallet/broadcasttransaction", body: expectedBroadcast(unsignedTrx()), fixture: "broadcasttransaction-error.json" }]);
    await expect(refusal.sender.broadcast(signed)).resolves.toEqual({
      kind: "rejected",
      retryable: false,
      isShortOfFunds: true,
      reason: expect.stringContaining("Contract validate error : Validate TransferContract error, balance is not sufficient."),
    });
    refusal.conversation.assertDone();
  });

  it.each(["SERVER_BUSY", "TAPOS_ERROR"])("reports a %s refusal as retryable", async (code) => {
    const { sender, conversation } = senderFor([createTransaction, { path: "/wallet/broadcasttransaction", body: expectedBroadcast(unsignedTrx()), json: { code, txid: TRX_TXID, message: "" } }]);
    const signed = await sender.sign(HOT_WALLET, TRX_PAYOUT, { inFlight: [] });
    await expect(sender.broadcast(signed)).resolves.toMatchObject({ kind: "rejected", retryable: true });
    conversation.assertDone();
  });

  it("takes DUP_TRANSACTION_ERROR for these very bytes as accepted: an earlier broadcast got through", async () => {
    const { sender, conversation } = senderFor([
      createTransaction,
      { path: "/wallet/broadcasttransaction", body: expectedBroadcast(unsignedTrx()), json: { code: "DUP_TRANSACTION_ERROR", txid: TRX_TXID, message: "" } },
    ]);
    const signed = await sender.sign(HOT_WALLET, TRX_PAYOUT, { inFlight: [] });
    await expect(sender.broadcast(signed)).resolves.toEqual({ kind: "accepted" });
    conversation.assertDone();
  });

  it("reports an unanswered broadcast as uncertain; the transaction can land while the node's head block is not past its expiration, whatever this machine's clock says", async () => {
    let clock = NOW;
    const { sender, conversation } = senderFor(
      [
        createTransaction,
        { path: "/wallet/broadcasttransaction", body: expectedBroadcast(unsignedTrx()), hang: true },
        // Head block 78 861 104, made before the expiration.
        { path: "/wallet/getnowblock", body: {}, fixture: "getnowblock.json" },
      ],
      { timeoutMs: 50, now: () => clock },
    );
    const error = await sender.send(HOT_WALLET, TRX_PAYOUT).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BroadcastUncertainError);
    expect(error).toMatchObject({ retryable: true, txid: TRX_TXID });
    // This machine's clock is an hour past the expiration; the chain's is not.
    clock = EXPIRATION + 3_600_000;
    await expect(sender.canStillLand({ txid: TRX_TXID, consumes: { validUntilMs: EXPIRATION } }, HOT_WALLET)).resolves.toBe(true);
    conversation.assertDone();
  });

  /**
   * The node's answers once its head (78 861 125, made 3 s after the expiration) is past the
   * expiration: a block from before the transaction could be built is found by number, then the
   * blocks from there up to the first one past the expiration are read. `holding` puts the
   * transaction in one of them.
   */
  function pastExpiration(holding: number | null): RecordedExchange[] {
    const first = 78_861_125 - 201;
    const blockAt = (height: number) => ({
      blockID: height.toString(16).padStart(64, "0"),
      block_header: { raw_data: { number: height, timestamp: EXPIRATION - 600_000 + (height - first) * 3_000 } },
      ...(height === holding ? { transactions: [{ txID: TRX_TXID, raw_data: { contract: [{ type: "TransferContract" }] } }] } : {}),
    });
    const range = (start: number, end: number) => ({ block: Array.from({ length: end - start }, (_, index) => blockAt(start + index)) });
    return [
      { path: "/wallet/getnowblock", body: {}, fixture: "getnowblock-later.json" },
      { path: "/wallet/getblockbynum", body: { num: first }, json: blockAt(first) },
      { path: "/wallet/getblockbylimitnext", body: { startNum: first, endNum: first + 100 }, json: range(first, first + 100) },
      { path: "/wallet/getblockbylimitnext", body: { startNum: first + 100, endNum: first + 200 }, json: range(first + 100, first + 200) },
      { path: "/wallet/getblockbylimitnext", body: { startNum: first + 200, endNum: first + 202 }, json: range(first + 200, first + 202) },
    ];
  }

  it("knows a transaction is dead once the blocks up to its expiration, read by number, do not hold it", async () => {
    const { sender, conversation } = senderFor(pastExpiration(null));
    await expect(sender.canStillLand({ txid: TRX_TXID, consumes: { validUntilMs: EXPIRATION } }, HOT_WALLET)).resolves.toBe(false);
    conversation.assertDone();
  });

  it("knows a transaction in one of those blocks is not dead, though the node's lookup by id may lag", async () => {
    const exchanges = pastExpiration(78_861_125 - 201 + 150).slice(0, 4);
    const { sender, conversation } = senderFor(exchanges);
    await expect(sender.canStillLand({ txid: TRX_TXID, consumes: { validUntilMs: EXPIRATION } }, HOT_WALLET)).resolves.toBe(true);
    conversation.assertDone();
  });

  it("proves nothing with a node that lacks some of those blocks", async () => {
    const exchanges = pastExpiration(null).slice(0, 2);
    const { sender, conversation } = senderFor([...exchanges, { path: "/wallet/getblockbylimitnext", body: { startNum: 78_861_125 - 201, endNum: 78_861_125 - 101 }, json: {} }]);
    await expect(sender.canStillLand({ txid: TRX_TXID, consumes: { validUntilMs: EXPIRATION } }, HOT_WALLET)).rejects.toMatchObject({ name: "ChainError", retryable: true });
    conversation.assertDone();
  });

  it("never signs one built transaction as two payouts", async () => {
    const { sender, conversation } = senderFor([
      createTransaction,
      { path: "/wallet/broadcasttransaction", body: expectedBroadcast(unsignedTrx()), fixture: "broadcasttransaction-trx.json" },
      // The node builds the identical transaction again (same millisecond): refused before broadcast.
      createTransaction,
    ]);
    await sender.send(HOT_WALLET, TRX_PAYOUT);
    await expect(sender.send(HOT_WALLET, TRX_PAYOUT)).rejects.toMatchObject({ name: "ChainError", retryable: true });
    conversation.assertDone();
  });
});

describe("send refuses a tampered transaction before signing", () => {
  const OTHER_HEX = "41" + "5a".repeat(20);

  function refusedWith(build: RecordedExchange, answer: unknown) {
    return { ...build, fixture: undefined, json: answer };
  }

  it.each<[string, () => UnsignedFixture, string]>([
    [
      "recipient changed in raw_data (hex untouched)",
      () => {
        const tx = unsignedTrx();
        tx.raw_data.contract[0]!.parameter.value.to_address = OTHER_HEX;
        return tx;
      },
      "raw_data: recipient differs",
    ],
    [
      "amount changed in raw_data (hex untouched)",
      () => {
        const tx = unsignedTrx();
        tx.raw_data.contract[0]!.parameter.value.amount = 92_345_678;
        return tx;
      },
      "raw_data: amount differs",
    ],
    [
      "recipient changed everywhere, txID recomputed",
      () => {
        const tx = unsignedTrx();
        tx.raw_data.contract[0]!.parameter.value.to_address = OTHER_HEX;
        return reencoded(tx);
      },
      "the recipient differs",
    ],
    [
      "amount changed everywhere, txID recomputed",
      () => {
        const tx = unsignedTrx();
        tx.raw_data.contract[0]!.parameter.value.amount = 12_345_679;
        return reencoded(tx);
      },
      "the amount differs",
    ],
    [
      "sender changed everywhere, txID recomputed",
      () => {
        const tx = unsignedTrx();
        tx.raw_data.contract[0]!.parameter.value.owner_address = OTHER_HEX;
        return reencoded(tx);
      },
      "the owner is not the sender",
    ],
    [
      "a memo added, txID recomputed",
      () => reencoded({ ...unsignedTrx(), raw_data: { ...unsignedTrx().raw_data, data: bytesToHex(new TextEncoder().encode("fee")) } }),
      "a memo is set",
    ],
    [
      "expiration a day ahead, txID recomputed",
      () => reencoded({ ...unsignedTrx(), raw_data: { ...unsignedTrx().raw_data, expiration: 1_767_332_625_000 } }),
      "the expiration is too far ahead",
    ],
    ["a txID that is not sha256(raw_data_hex)", () => ({ ...unsignedTrx(), txID: "ab".repeat(32) }), "txID is not the sha256 of raw_data_hex"],
    [
      "a second recipient after the first in raw_data_hex (protobuf keeps the last), txID recomputed",
      () => {
        const tx = unsignedTrx();
        const rawDataHex = transferRawHex(bytesField(1, HOT_WALLET_HEX) + bytesField(2, RECIPIENT_HEX) + bytesField(2, OTHER_HEX) + varintField(3, 12_345_678n));
        return { ...tx, raw_data_hex: rawDataHex, txID: computeTronTxId(rawDataHex) };
      },
      "raw_data_hex: TransferContract: field 2 appears twice",
    ],
  ])("TRX: %s", async (_, tampered, reason) => {
    const { sender, conversation } = senderFor([refusedWith(createTransaction, tampered())]);
    const error = await sender.send(HOT_WALLET, TRX_PAYOUT).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChainError);
    expect(error).toMatchObject({ retryable: false, message: `tron: refused to sign the node's transaction: ${reason}` });
    // No broadcast was asked for: the recording holds the build request only.
    conversation.assertDone();
  });

  it("a consistent but wrong transaction passes TronWeb's own check: only the comparison with the request catches it", () => {
    const tx = unsignedTrx();
    tx.raw_data.contract[0]!.parameter.value.to_address = OTHER_HEX;
    expect(utils.transaction.txCheck(reencoded(tx))).toBe(true);
    expect(utils.transaction.txCheck(tx)).toBe(false);
  });

  it.each<[string, (value: Record<string, unknown>, tx: UnsignedFixture) => void, string]>([
    [
      "token recipient changed in the call data",
      (value) => {
        value.data = `a9059cbb${"0".repeat(24)}${"5a".repeat(20)}${(250_000_000).toString(16).padStart(64, "0")}`;
      },
      "the transfer call (recipient or amount) differs",
    ],
    [
      "token amount changed in the call data",
      (value) => {
        value.data = `a9059cbb${"0".repeat(24)}${RECIPIENT_HEX.slice(2)}${(250_000_001).toString(16).padStart(64, "0")}`;
      },
      "the transfer call (recipient or amount) differs",
    ],
    [
      "another token contract",
      (value) => {
        value.contract_address = OTHER_HEX;
      },
      "the token contract differs",
    ],
    [
      "TRX attached to the call",
      (value) => {
        value.call_value = 1_000_000;
      },
      "the call sends TRX or TRC-10 tokens",
    ],
    [
      "a higher fee limit",
      (_, tx) => {
        tx.raw_data.fee_limit = 1_000_000_000;
      },
      "the fee limit differs",
    ],
  ])("USDT: %s (consistent raw data, txID recomputed)", async (_, change, reason) => {
    const tx = unsignedUsdt();
    change(tx.raw_data.contract[0]!.parameter.value, tx);
    const { sender, conversation } = senderFor([refusedWith(triggerSmartContract, { result: { result: true }, transaction: reencoded(tx) })]);
    await expect(sender.send(HOT_WALLET, USDT_PAYOUT)).rejects.toMatchObject({
      name: "ChainError",
      retryable: false,
      message: `tron: refused to sign the node's transaction: ${reason}`,
    });
    conversation.assertDone();
  });

  it("USDT: call data changed in raw_data only", async () => {
    const tx = unsignedUsdt();
    tx.raw_data.contract[0]!.parameter.value.data = `a9059cbb${"0".repeat(24)}${"5a".repeat(20)}${(250_000_000).toString(16).padStart(64, "0")}`;
    const { sender, conversation } = senderFor([refusedWith(triggerSmartContract, { result: { result: true }, transaction: tx })]);
    await expect(sender.send(HOT_WALLET, USDT_PAYOUT)).rejects.toMatchObject({ message: "tron: refused to sign the node's transaction: raw_data: transfer call differs" });
    conversation.assertDone();
  });

  it("passes on a triggersmartcontract refusal as a non-retryable TronApiError", async () => {
    const refusal = { result: { code: "CONTRACT_VALIDATE_ERROR", message: bytesToHex(new TextEncoder().encode("No contract or not a valid smart contract")) } };
    const { sender, conversation } = senderFor([refusedWith(triggerSmartContract, refusal)]);
    await expect(sender.send(HOT_WALLET, USDT_PAYOUT)).rejects.toMatchObject({
      name: "TronApiError",
      retryable: false,
      code: "CONTRACT_VALIDATE_ERROR",
      apiMessage: "No contract or not a valid smart contract",
    });
    conversation.assertDone();
  });
});

describe("send refuses before any request", () => {
  it.each([
    ["an EVM address", "0x9858EfFD232B4033E47d90003D41EC34EcaEda94", "wrong_network"],
    ["a bitcoin address", "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", "wrong_network"],
    ["a bitcoin legacy address", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "wrong_network"],
    ["a Tron address with a broken checksum", "TPLkz8rzTT7gKRS1bUm3hBcvw1EExAbKTW", "malformed"],
    ["a Tron hex address", RECIPIENT_HEX, "malformed"],
    ["an empty address", "", "malformed"],
  ])("%s", async (_, toAddress, reason) => {
    const { sender, conversation } = senderFor([]);
    for (const currency of ["TRX", "USDT"]) {
      const error = await sender.send(HOT_WALLET, { currency, toAddress, amountMinor: 1_000_000n }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ChainError);
      expect(error).toMatchObject({ retryable: false, message: expect.stringContaining(`(${reason})`) });
      await expect(sender.estimateFee(HOT_WALLET, { currency, toAddress, amountMinor: 1_000_000n })).rejects.toMatchObject({ retryable: false });
    }
    expect(conversation.requests).toEqual([]);
    conversation.assertDone();
  });

  it.each<[string, SigningKey, OutgoingTransfer]>([
    ["a key that is not the sender's", { ...keyAt(1), address: HOT_WALLET.address }, TRX_PAYOUT],
    ["a key of the wrong length", { ...HOT_WALLET, privateKey: HOT_WALLET.privateKey.slice(1) }, TRX_PAYOUT],
    ["a currency not sent on tron", HOT_WALLET, { ...TRX_PAYOUT, currency: "USDC" }],
    ["a zero amount", HOT_WALLET, { ...TRX_PAYOUT, amountMinor: 0n }],
    ["a TRX amount JSON cannot carry exactly", HOT_WALLET, { ...TRX_PAYOUT, amountMinor: 2n ** 53n }],
  ])("%s", async (_, key, transfer) => {
    const { sender, conversation } = senderFor([]);
    await expect(sender.send(key, transfer)).rejects.toMatchObject({ name: "ChainError", retryable: false });
    conversation.assertDone();
  });
});

describe("estimateFee", () => {
  const chainParameters: RecordedExchange = { path: "/wallet/getchainparameters", body: {}, fixture: "getchainparameters.json" };

  it("prices a TRX transfer to an existing account as its bandwidth", async () => {
    const { sender, conversation } = senderFor([
      chainParameters,
      { path: "/wallet/getaccount", body: { address: RECIPIENT_HEX, visible: false }, fixture: "getaccount-existing.json" },
    ]);
    // 268 bytes × 1 000 sun.
    await expect(sender.estimateFee(HOT_WALLET, TRX_PAYOUT)).resolves.toEqual({ feeMinor: 268_000n, feeCurrency: "TRX" });
    conversation.assertDone();
  });

  it("counts the bandwidth the recorded payouts take once signed (raw data + framing + 65-byte signature + 64)", () => {
    const signedSize = (rawDataHex: string): number => rawDataHex.length / 2 + 3 + 67 + 64;
    expect([signedSize(unsignedTrx().raw_data_hex), signedSize(unsignedUsdt().raw_data_hex)]).toEqual([268, 345]);
  });

  it("prices a TRX transfer to a new account with the account creation fees", async () => {
    const { sender, conversation } = senderFor([chainParameters, { path: "/wallet/getaccount", body: { address: RECIPIENT_HEX, visible: false }, json: {} }]);
    // getCreateAccountFee 0.1 TRX + getCreateNewAccountFeeInSystemContract 1 TRX.
    await expect(sender.estimateFee(HOT_WALLET, TRX_PAYOUT)).resolves.toEqual({ feeMinor: 1_100_000n, feeCurrency: "TRX" });
    conversation.assertDone();
  });

  it("prices a USDT transfer as simulated energy × energy price + bandwidth", async () => {
    const { sender, conversation } = senderFor([
      chainParameters,
      {
        path: "/wallet/triggerconstantcontract",
        body: { owner_address: HOT_WALLET_HEX, contract_address: USDT_HEX, function_selector: "transfer(address,uint256)", parameter: USDT_CALL_ARGUMENTS, visible: false },
        fixture: "triggerconstantcontract.json",
      },
    ]);
    // 64 285 energy × 100 sun + 345 bytes × 1 000 sun: the fee the recorded USDT payout paid.
    await expect(sender.estimateFee(HOT_WALLET, USDT_PAYOUT)).resolves.toEqual({ feeMinor: 6_773_500n, feeCurrency: "TRX" });
    conversation.assertDone();
  });
});

describe("getTransaction", () => {
  const laterTip: RecordedExchange = { path: "/wallet/getnowblock", body: {}, fixture: "getnowblock-later.json" };

  it.each([
    ["a TRX transfer", TRX_TXID, "gettransactioninfobyid-trx.json", "confirmed"],
    // USDT's transfer returned false (contractResult all zeros), yet the transfer happened.
    ["a USDT transfer", USDT_TXID, "gettransactioninfobyid-usdt.json", "confirmed"],
    ["a reverted USDT transfer", USDT_TXID, "gettransactioninfobyid-usdt-revert.json", "failed"],
  ])("follows %s to %s", async (_, txid, fixture, state) => {
    const { sender, conversation } = senderFor([{ path: "/wallet/gettransactioninfobyid", body: { value: txid }, fixture }, laterTip]);
    // Mined in 78 861 106, tip 78 861 125.
    // The fee is what the receipt says was burned (none for the TRX transfer's free bandwidth).
    const fees: Record<string, bigint> = { "gettransactioninfobyid-trx.json": 0n, "gettransactioninfobyid-usdt.json": 6_773_500n, "gettransactioninfobyid-usdt-revert.json": 3_215_400n };
    await expect(sender.getTransaction(txid)).resolves.toEqual({ state, confirmations: 20, blockHeight: 78_861_106, feeMinor: fees[fixture] });
    conversation.assertDone();
  });

  it("says failed for a call that ran out of energy", async () => {
    const outOfEnergy = { id: USDT_TXID, blockNumber: 78_861_106, receipt: { energy_fee: 100_000_000, energy_usage_total: 1_000_000, result: "OUT_OF_ENERGY" }, result: "FAILED" };
    const { sender, conversation } = senderFor([{ path: "/wallet/gettransactioninfobyid", body: { value: USDT_TXID }, json: outOfEnergy }, laterTip]);
    await expect(sender.getTransaction(USDT_TXID)).resolves.toEqual({ state: "failed", confirmations: 20, blockHeight: 78_861_106, feeMinor: 0n });
    conversation.assertDone();
  });

  it("says unknown for a transaction in no block that this sender did not send", async () => {
    const { sender, conversation } = senderFor([{ path: "/wallet/gettransactioninfobyid", body: { value: TRX_TXID }, json: {} }]);
    await expect(sender.getTransaction(TRX_TXID)).resolves.toEqual({ state: "unknown", confirmations: 0, blockHeight: null });
    conversation.assertDone();
  });

  it("refuses a malformed transaction id without asking", async () => {
    const { sender, conversation } = senderFor([]);
    await expect(sender.getTransaction("0x" + TRX_TXID)).rejects.toMatchObject({ retryable: false });
    conversation.assertDone();
  });
});

describe("readDelivered", () => {
  /** Block 78 861 106 as getblockbynum prints it, holding the recorded TRX payout (its createtransaction answer, signed) and another transaction. */
  function blockWith(transactions: Record<string, unknown>[]) {
    return { blockID: "0000000004b3574243a8e3c5f2d4e0a4c5c1f2a3b4c5d6e7f8091a2b3c4d5e6f", block_header: { raw_data: { number: 78_861_106, timestamp: 1_767_246_228_000 } }, transactions };
  }
  const payout = { ...expectedBroadcast(unsignedTrx()), ret: [{ contractRet: "SUCCESS" }] };
  const sent = { fromAddress: HOT_WALLET.address, consumes: { validUntilMs: EXPIRATION } };
  const exchanges = (block: Record<string, unknown>): RecordedExchange[] => [
    { path: "/wallet/gettransactioninfobyid", body: { value: TRX_TXID }, fixture: "gettransactioninfobyid-trx.json" },
    { path: "/wallet/getblockbynum", body: { num: 78_861_106 }, json: block },
  ];

  it("reads the TRX a payout delivered to its recipient from the transaction in its block", async () => {
    const { sender, conversation } = senderFor(exchanges(blockWith([payout])));
    await expect(sender.readDelivered!(TRX_TXID, sent, { toAddress: RECIPIENT, currency: "TRX" })).resolves.toBe(12_345_678n);
    conversation.assertDone();
  });

  it("reads nothing for another recipient, another coin, or a block that does not hold it", async () => {
    for (const [block, delivery] of [
      [blockWith([payout]), { toAddress: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC", currency: "TRX" }],
      [blockWith([payout]), { toAddress: RECIPIENT, currency: "USDT" }],
      [blockWith([]), { toAddress: RECIPIENT, currency: "TRX" }],
    ] as const) {
      const { sender, conversation } = senderFor(exchanges(block));
      await expect(sender.readDelivered!(TRX_TXID, sent, delivery)).resolves.toBe(0n);
      conversation.assertDone();
    }
  });
});

describe("getBalance", () => {
  const laterTip: RecordedExchange = { path: "/wallet/getnowblock", body: {}, fixture: "getnowblock-later.json" };
  const trxBalance = (balance: number): RecordedExchange => ({
    path: "/wallet/getaccount",
    body: { address: HOT_WALLET_HEX, visible: false },
    json: { address: HOT_WALLET_HEX, balance, create_time: 1_745_829_381_000 },
  });
  const usdtBalance = (amount: bigint): RecordedExchange => ({
    path: "/wallet/triggerconstantcontract",
    body: {
      owner_address: HOT_WALLET_HEX,
      contract_address: USDT_HEX,
      function_selector: "balanceOf(address)",
      // TronWeb's own ABI encoder: the address word holds the 20-byte account hash.
      parameter: utils.abi.encodeParams(["address"], [HOT_WALLET.address]).slice(2),
      visible: false,
    },
    json: { result: { result: true }, energy_used: 2_017, constant_result: [amount.toString(16).padStart(64, "0")], transaction: { ret: [{}] } },
  });

  it("reads TRX as the account's balance in sun: less exactly the amount after a TRX payout on free bandwidth", async () => {
    const { sender, conversation } = senderFor([
      trxBalance(60_000_000),
      createTransaction,
      { path: "/wallet/broadcasttransaction", body: expectedBroadcast(unsignedTrx()), fixture: "broadcasttransaction-trx.json" },
      { path: "/wallet/gettransactioninfobyid", body: { value: TRX_TXID }, fixture: "gettransactioninfobyid-trx.json" },
      laterTip,
      trxBalance(47_654_322),
    ]);
    const before = await sender.getBalance(HOT_WALLET.address, "TRX");
    const { txid } = await sender.send(HOT_WALLET, TRX_PAYOUT);
    const { feeMinor } = await sender.getTransaction(txid);
    expect(before).toBe(60_000_000n);
    expect(await sender.getBalance(HOT_WALLET.address, "TRX")).toBe(before - TRX_PAYOUT.amountMinor - feeMinor!);
    conversation.assertDone();
  });

  it("reads USDT with balanceOf: less the payout, while TRX pays the burned energy", async () => {
    const { sender, conversation } = senderFor([
      usdtBalance(1_000_000_000n),
      trxBalance(60_000_000),
      triggerSmartContract,
      { path: "/wallet/broadcasttransaction", body: expectedBroadcast(unsignedUsdt()), fixture: "broadcasttransaction-usdt.json" },
      { path: "/wallet/gettransactioninfobyid", body: { value: USDT_TXID }, fixture: "gettransactioninfobyid-usdt.json" },
      laterTip,
      usdtBalance(750_000_000n),
      trxBalance(53_226_500),
    ]);
    expect(await sender.getBalance(HOT_WALLET.address, "USDT")).toBe(1_000_000_000n);
    expect(await sender.getBalance(HOT_WALLET.address, "TRX")).toBe(60_000_000n);
    const { txid } = await sender.send(HOT_WALLET, USDT_PAYOUT);
    const { feeMinor } = await sender.getTransaction(txid);
    expect(feeMinor).toBe(6_773_500n);
    expect(await sender.getBalance(HOT_WALLET.address, "USDT")).toBe(1_000_000_000n - USDT_PAYOUT.amountMinor);
    expect(await sender.getBalance(HOT_WALLET.address, "TRX")).toBe(60_000_000n - feeMinor!);
    conversation.assertDone();
  });

  it("reads 0 for an account the chain does not know yet, and for a zero balance java-tron leaves out", async () => {
    const { sender, conversation } = senderFor([
      { path: "/wallet/getaccount", body: { address: RECIPIENT_HEX, visible: false }, json: {} },
      { path: "/wallet/getaccount", body: { address: HOT_WALLET_HEX, visible: false }, json: { address: HOT_WALLET_HEX, create_time: 1_745_829_381_000 } },
      { path: "/wallet/getaccount", body: { address: RECIPIENT_HEX, visible: false }, fixture: "getaccount-existing.json" },
    ]);
    expect(await sender.getBalance(RECIPIENT, "TRX")).toBe(0n);
    expect(await sender.getBalance(HOT_WALLET.address, "TRX")).toBe(0n);
    expect(await sender.getBalance(RECIPIENT, "TRX")).toBe(48_210_000n);
    conversation.assertDone();
  });

  it("passes a refused or empty balanceOf on as final, a silent node as retryable at the deadline", async () => {
    const call = usdtBalance(0n);
    const { sender, conversation } = senderFor([
      { ...call, json: { result: { code: "CONTRACT_VALIDATE_ERROR", message: Buffer.from("No contract or not a valid smart contract").toString("hex") } } },
      { ...call, json: { result: { result: true }, constant_result: [""], transaction: { ret: [{}] } } },
      { ...call, json: undefined, hang: true },
    ]);
    const refused = await sender.getBalance(HOT_WALLET.address, "USDT").catch((caught: unknown) => caught);
    expect(refused).toBeInstanceOf(TronApiError);
    expect(refused).toMatchObject({ retryable: false, code: "CONTRACT_VALIDATE_ERROR", message: expect.stringMatching(/No contract/) });
    await expect(sender.getBalance(HOT_WALLET.address, "USDT")).rejects.toMatchObject({ name: "ChainError", retryable: false });
    const started = Date.now();
    await expect(sender.getBalance(HOT_WALLET.address, "USDT", { timeoutMs: 50 })).rejects.toMatchObject({ name: "ChainError", retryable: true });
    expect(Date.now() - started).toBeLessThan(1_000);
    conversation.assertDone();
  });

  it("refuses a currency Tron does not carry and an address of another network without asking", async () => {
    const { sender, conversation } = senderFor([]);
    await expect(sender.getBalance(HOT_WALLET.address, "ETH")).rejects.toMatchObject({ name: "ChainError", retryable: false });
    await expect(sender.getBalance("0x9858EfFD232B4033E47d90003D41EC34EcaEda94", "TRX")).rejects.toMatchObject({ name: "ChainError", retryable: false });
    conversation.assertDone();
  });
});
