/**
 * A strict reader of `Transaction.raw` (java-tron `Tron.proto`), the bytes a TRON signature covers.
 * It reads only what a payout needs to check and refuses anything it cannot account for: a
 * repeated singular field (protobuf keeps the LAST value, a lenient reader the first, so a
 * duplicate could show one recipient here and pay another on chain), unknown field numbers,
 * multi-signature parts (`auths`, `scripts`) and group wire types.
 *
 * Field numbers (Tron.proto, balance_contract.proto, smart_contract.proto):
 *   raw: ref_block_bytes 1, ref_block_num 3, ref_block_hash 4, expiration 8, auths 9, data 10,
 *        contract 11 (repeated), scripts 12, timestamp 14, fee_limit 18
 *   Contract: type 1, parameter 2 (google.protobuf.Any: type_url 1, value 2), provider 3,
 *        ContractName 4, Permission_id 5
 *   TransferContract: owner_address 1, to_address 2, amount 3
 *   TriggerSmartContract: owner_address 1, contract_address 2, call_value 3, data 4,
 *        call_token_value 5, token_id 6
 */

export const TRANSFER_CONTRACT_TYPE = 1;
export const TRIGGER_SMART_CONTRACT_TYPE = 31;
export const TRANSFER_CONTRACT_TYPE_URL = "type.googleapis.com/protocol.TransferContract";
export const TRIGGER_SMART_CONTRACT_TYPE_URL = "type.googleapis.com/protocol.TriggerSmartContract";

export class RawTransactionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RawTransactionError";
  }
}

export interface RawContract {
  type: number;
  typeUrl: string;
  /** The serialized contract message inside the `Any`. */
  value: Uint8Array;
  permissionId: number;
}

export interface RawTransaction {
  refBlockBytes: Uint8Array;
  refBlockHash: Uint8Array;
  expiration: bigint;
  timestamp: bigint;
  feeLimit: bigint;
  /** The memo; a node could add one, and memos cost a fee. */
  data: Uint8Array;
  contracts: RawContract[];
}

export interface TransferContractFields {
  ownerAddress: Uint8Array;
  toAddress: Uint8Array;
  amount: bigint;
}

export interface TriggerSmartContractFields {
  ownerAddress: Uint8Array;
  contractAddress: Uint8Array;
  callValue: bigint;
  data: Uint8Array;
  callTokenValue: bigint;
  tokenId: bigint;
}

type FieldValue = { wireType: 0; value: bigint } | { wireType: 2; value: Uint8Array };

/** Splits one message into its fields; refuses truncation, groups and fixed-width fields (none are expected here). */
function readFields(bytes: Uint8Array): Array<{ number: number } & FieldValue> {
  const fields: Array<{ number: number } & FieldValue> = [];
  let offset = 0;
  const readVarint = (): bigint => {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (offset >= bytes.length) throw new RawTransactionError("truncated varint");
      const byte = bytes[offset++];
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
    }
    throw new RawTransactionError("varint longer than 10 bytes");
  };
  while (offset < bytes.length) {
    const key = readVarint();
    const number = Number(key >> 3n);
    const wireType = Number(key & 7n);
    if (number === 0) throw new RawTransactionError("field number 0");
    if (wireType === 0) {
      fields.push({ number, wireType, value: readVarint() });
    } else if (wireType === 2) {
      const length = readVarint();
      if (length > BigInt(bytes.length - offset)) throw new RawTransactionError("truncated length-delimited field");
      const end = offset + Number(length);
      fields.push({ number, wireType, value: bytes.subarray(offset, end) });
      offset = end;
    } else {
      throw new RawTransactionError(`unexpected wire type ${wireType} for field ${number}`);
    }
  }
  return fields;
}

/** The fields of one message, keyed by number, after checking each is known, of the right wire type and (unless repeated) single. */
function readMessage(
  bytes: Uint8Array,
  schema: Readonly<Record<number, { wireType: 0 | 2; repeated?: boolean }>>,
  name: string,
): Map<number, FieldValue[]> {
  const byNumber = new Map<number, FieldValue[]>();
  for (const field of readFields(bytes)) {
    const expected = schema[field.number];
    if (!expected) throw new RawTransactionError(`${name}: unexpected field ${field.number}`);
    if (expected.wireType !== field.wireType) throw new RawTransactionError(`${name}: field ${field.number} has wire type ${field.wireType}`);
    const list = byNumber.get(field.number) ?? [];
    if (list.length > 0 && !expected.repeated) throw new RawTransactionError(`${name}: field ${field.number} appears twice`);
    list.push(field);
    byNumber.set(field.number, list);
  }
  return byNumber;
}

function bytesField(fields: Map<number, FieldValue[]>, number: number): Uint8Array {
  const field = fields.get(number)?.[0];
  return field?.wireType === 2 ? field.value : new Uint8Array(0);
}

/** An int64 field: the varint is two's complement over 64 bits. */
function int64Field(fields: Map<number, FieldValue[]>, number: number): bigint {
  const field = fields.get(number)?.[0];
  return field?.wireType === 0 ? BigInt.asIntN(64, field.value) : 0n;
}

const RAW_SCHEMA = {
  1: { wireType: 2 },
  3: { wireType: 0 },
  4: { wireType: 2 },
  8: { wireType: 0 },
  10: { wireType: 2 },
  11: { wireType: 2, repeated: true },
  14: { wireType: 0 },
  18: { wireType: 0 },
} as const;
const CONTRACT_SCHEMA = { 1: { wireType: 0 }, 2: { wireType: 2 }, 5: { wireType: 0 } } as const;
const ANY_SCHEMA = { 1: { wireType: 2 }, 2: { wireType: 2 } } as const;
const TRANSFER_SCHEMA = { 1: { wireType: 2 }, 2: { wireType: 2 }, 3: { wireType: 0 } } as const;
const TRIGGER_SCHEMA = {
  1: { wireType: 2 },
  2: { wireType: 2 },
  3: { wireType: 0 },
  4: { wireType: 2 },
  5: { wireType: 0 },
  6: { wireType: 0 },
} as const;

/** Decodes `raw_data_hex` bytes. Throws RawTransactionError on anything outside the expected shape. */
export function decodeRawTransaction(bytes: Uint8Array): RawTransaction {
  // auths (9) and scripts (12) are absent from the schema: a single-key payout never carries them.
  const raw = readMessage(bytes, RAW_SCHEMA, "raw");
  const contracts = (raw.get(11) ?? []).map((field): RawContract => {
    if (field.wireType !== 2) throw new RawTransactionError("contract is not a message");
    const contract = readMessage(field.value, CONTRACT_SCHEMA, "contract");
    const parameter = readMessage(bytesField(contract, 2), ANY_SCHEMA, "parameter");
    return {
      type: Number(int64Field(contract, 1)),
      typeUrl: decodeUtf8(bytesField(parameter, 1)),
      value: bytesField(parameter, 2),
      permissionId: Number(int64Field(contract, 5)),
    };
  });
  return {
    refBlockBytes: bytesField(raw, 1),
    refBlockHash: bytesField(raw, 4),
    expiration: int64Field(raw, 8),
    timestamp: int64Field(raw, 14),
    feeLimit: int64Field(raw, 18),
    data: bytesField(raw, 10),
    contracts,
  };
}

function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new RawTransactionError("type_url is not UTF-8");
  }
}

export function decodeTransferContract(value: Uint8Array): TransferContractFields {
  const fields = readMessage(value, TRANSFER_SCHEMA, "TransferContract");
  return { ownerAddress: bytesField(fields, 1), toAddress: bytesField(fields, 2), amount: int64Field(fields, 3) };
}

export function decodeTriggerSmartContract(value: Uint8Array): TriggerSmartContractFields {
  const fields = readMessage(value, TRIGGER_SCHEMA, "TriggerSmartContract");
  return {
    ownerAddress: bytesField(fields, 1),
    contractAddress: bytesField(fields, 2),
    callValue: int64Field(fields, 3),
    data: bytesField(fields, 4),
    callTokenValue: int64Field(fields, 5),
    tokenId: int64Field(fields, 6),
  };
}
