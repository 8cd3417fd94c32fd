import { utils } from "tronweb";
import { describe, expect, it } from "vitest";
import { bytesToHex, decodeTrc20TransferCall, hexToBytes, tronHexToAddress } from "@/lib/chains/tron/tron-encoding";
import {
  decodeRawTransaction,
  decodeTransferContract,
  decodeTriggerSmartContract,
  TRANSFER_CONTRACT_TYPE_URL,
  TRIGGER_SMART_CONTRACT_TYPE_URL,
} from "@/lib/chains/tron/tron-raw-transaction";
import { computeTronTxId } from "@/lib/chains/tron/tron-signer";
import { readFixtureJson } from "@/lib/chains/tron/testing/tron-recorded-conversation";
import { bytesField, transferRawHex, varintField } from "@/lib/chains/tron/testing/protobuf-writer";

interface TransactionJson {
  txID: string;
  raw_data: {
    contract: Array<{ type: string; parameter: { type_url: string; value: Record<string, unknown> } }>;
    ref_block_bytes?: string;
    ref_block_hash?: string;
    expiration?: number;
    timestamp?: number;
    fee_limit?: number;
  };
  raw_data_hex: string;
}

const OWNER = "41" + "11".repeat(20);
const TO = "41" + "22".repeat(20);
const OTHER = "41" + "33".repeat(20);

function rawWithTransfer(transferValue: string, extra = ""): Uint8Array {
  return hexToBytes(transferRawHex(transferValue, extra));
}

describe("decodeRawTransaction on real java-tron captures (documentation examples, Nile)", () => {
  it("reads a createtransaction TransferContract", () => {
    const transaction = readFixtureJson("docs-createtransaction-nile.json") as TransactionJson;
    expect(computeTronTxId(transaction.raw_data_hex)).toBe(transaction.txID);
    const raw = decodeRawTransaction(hexToBytes(transaction.raw_data_hex));
    expect(bytesToHex(raw.refBlockBytes)).toBe("2927");
    expect(bytesToHex(raw.refBlockHash)).toBe("939ece39d08a7abe");
    expect([raw.expiration, raw.timestamp, raw.feeLimit, raw.data.length]).toEqual([1_777_447_527_000n, 1_777_447_470_038n, 0n, 0]);
    expect(raw.contracts).toHaveLength(1);
    expect(raw.contracts[0]).toMatchObject({ type: 1, typeUrl: TRANSFER_CONTRACT_TYPE_URL, permissionId: 0 });
    const transfer = decodeTransferContract(raw.contracts[0]!.value);
    expect([bytesToHex(transfer.ownerAddress), bytesToHex(transfer.toAddress), transfer.amount]).toEqual([
      "41dd791d6b49e190062d650e6a23c575510d35f2f9",
      "4192ad11c1bf16b3b14b0bd6b5c7e2db73a0b5e83a",
      1_000_000n,
    ]);
  });

  it("reads a triggersmartcontract transfer(address,uint256)", () => {
    const { transaction } = readFixtureJson("docs-triggersmartcontract-nile.json") as { transaction: TransactionJson };
    expect(computeTronTxId(transaction.raw_data_hex)).toBe(transaction.txID);
    const raw = decodeRawTransaction(hexToBytes(transaction.raw_data_hex));
    expect(raw.feeLimit).toBe(100_000_000n);
    expect(raw.contracts[0]).toMatchObject({ type: 31, typeUrl: TRIGGER_SMART_CONTRACT_TYPE_URL });
    const call = decodeTriggerSmartContract(raw.contracts[0]!.value);
    expect(bytesToHex(call.ownerAddress)).toBe("41dd791d6b49e190062d650e6a23c575510d35f2f9");
    expect(bytesToHex(call.contractAddress)).toBe("41eca9bc828a3005b9a3b909f2cc5c2a54794de05f");
    expect([call.callValue, call.callTokenValue, call.tokenId]).toEqual([0n, 0n, 0n]);
    expect(decodeTrc20TransferCall(bytesToHex(call.data))).toEqual({ toAddress: tronHexToAddress("41088a2bfcb1c7271029fd69a66859d55560895884"), amount: 100n });
    // The documented JSON `data` has a stray digit (137 hex characters); the bytes are right. Such a
    // disagreement is exactly what the sender refuses, and TronWeb's check sees it too.
    expect(String(transaction.raw_data.contract[0]!.parameter.value.data)).toHaveLength(137);
    expect(utils.transaction.txCheck(transaction)).toBe(false);
  });
});

describe("the synthetic fixtures agree with themselves", () => {
  const blocks = (readFixtureJson("getblockbylimitnext-78861101-78861105.json") as { block: Array<{ transactions?: TransactionJson[] }> }).block;
  const transactions = blocks.flatMap((block) => block.transactions ?? []);

  it.each(transactions.map((transaction) => [transaction.txID, transaction] as const))("%s: txID, JSON and raw_data_hex match", (_, transaction) => {
    expect(computeTronTxId(transaction.raw_data_hex)).toBe(transaction.txID);
    expect(utils.transaction.txCheck(transaction)).toBe(true);
    const contract = decodeRawTransaction(hexToBytes(transaction.raw_data_hex)).contracts[0]!;
    const value = transaction.raw_data.contract[0]!.parameter.value;
    if (transaction.raw_data.contract[0]!.type === "TransferContract") {
      const fields = decodeTransferContract(contract.value);
      expect([bytesToHex(fields.toAddress), fields.amount]).toEqual([value.to_address, BigInt(Number(value.amount))]);
    }
    if (transaction.raw_data.contract[0]!.type === "TriggerSmartContract") {
      const fields = decodeTriggerSmartContract(contract.value);
      expect([bytesToHex(fields.contractAddress), bytesToHex(fields.data)]).toEqual([value.contract_address, value.data]);
    }
  });
});

describe("decodeRawTransaction is strict", () => {
  const transfer = bytesField(1, OWNER) + bytesField(2, TO) + varintField(3, 5n);

  it("reads a hand-built transfer", () => {
    const fields = decodeTransferContract(decodeRawTransaction(rawWithTransfer(transfer)).contracts[0]!.value);
    expect([bytesToHex(fields.ownerAddress), bytesToHex(fields.toAddress), fields.amount]).toEqual([OWNER, TO, 5n]);
  });

  it("refuses a repeated recipient (protobuf keeps the last one; a lenient reader would show the first)", () => {
    const value = decodeRawTransaction(rawWithTransfer(transfer + bytesField(2, OTHER))).contracts[0]!.value;
    expect(() => decodeTransferContract(value)).toThrow("TransferContract: field 2 appears twice");
  });

  it("refuses a repeated amount", () => {
    const value = decodeRawTransaction(rawWithTransfer(transfer + varintField(3, 500n))).contracts[0]!.value;
    expect(() => decodeTransferContract(value)).toThrow("field 3 appears twice");
  });

  it.each([
    ["multi-signature auths (field 9)", bytesField(9, "0a00"), "raw: unexpected field 9"],
    ["scripts (field 12)", bytesField(12, "00"), "raw: unexpected field 12"],
    ["an unknown field", varintField(99, 1n), "raw: unexpected field 99"],
    ["a fixed64 field", "41" + "00".repeat(8), "unexpected wire type 1 for field 8"],
    ["a second expiration", varintField(8, 1n), "raw: field 8 appears twice"],
    ["a truncated field", bytesField(10, "0000").slice(0, -2), "truncated length-delimited field"],
  ])("refuses %s", (_, extra, message) => {
    expect(() => decodeRawTransaction(rawWithTransfer(transfer, extra))).toThrow(message);
  });

  it("reads int64 as two's complement (a negative amount stays negative)", () => {
    const value = decodeRawTransaction(rawWithTransfer(bytesField(1, OWNER) + bytesField(2, TO) + varintField(3, -1n))).contracts[0]!.value;
    expect(decodeTransferContract(value).amount).toBe(-1n);
  });
});
