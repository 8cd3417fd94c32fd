import { z } from "zod";

/**
 * Shapes of the java-tron HTTP answers the Tron family reads (`visible: false`). java-tron prints
 * protobuf messages as proto3 JSON: fields holding their default value (0, "", false, the first
 * enum value, empty lists) are left out. So the genesis block has no `number`, an empty block no
 * `transactions`, a failed broadcast no `result`, and a chain parameter of 0 no `value`.
 */

const HASH_PATTERN = /^[0-9a-fA-F]{64}$/;

/** A 32-byte hash (block id, transaction id), lower-cased. */
export const hashSchema = z
  .string()
  .regex(HASH_PATTERN)
  .transform((text) => text.toLowerCase());

const heightSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** One transaction as blocks list it: only what the scan reads; contract values are checked per type later. */
export const blockTransactionSchema = z.object({
  txID: hashSchema,
  raw_data: z.object({
    contract: z.array(
      z.object({
        type: z.string(),
        parameter: z.object({ value: z.record(z.string(), z.unknown()) }).optional(),
      }),
    ),
  }),
  raw_data_hex: z.string().optional(),
  ret: z.array(z.object({ contractRet: z.string().optional() })).optional(),
});
export type BlockTransaction = z.infer<typeof blockTransactionSchema>;

export interface TronBlock {
  height: number;
  hash: string;
  /** The block's time (Unix milliseconds), as its producer wrote it; null where an answer leaves it out. */
  timestampMs: number | null;
  transactions: BlockTransaction[];
}

export const blockSchema = z
  .object({
    blockID: hashSchema,
    block_header: z.object({ raw_data: z.object({ number: heightSchema.optional(), timestamp: z.number().int().nonnegative().optional() }) }),
    transactions: z.array(blockTransactionSchema).optional(),
  })
  .transform(
    (block): TronBlock => ({
      height: block.block_header.raw_data.number ?? 0,
      hash: block.blockID,
      timestampMs: block.block_header.raw_data.timestamp ?? null,
      transactions: block.transactions ?? [],
    }),
  );

/** `getnowblock` / `getblockbynum`: a block, or `{}` when there is none. */
export const optionalBlockSchema = z.union([blockSchema, z.strictObject({}).transform(() => null)]);

/** `getblockbylimitnext`: `{"block": [...]}`, or `{}` when none of the range exists yet. */
export const blockListSchema = z
  .object({ block: z.array(blockSchema).optional() })
  .transform((answer) => answer.block ?? []);

/** `value` of a TransferContract as blocks print it. `amount` may exceed 2^53 (JSON loses precision): see the adapter. */
export const transferValueSchema = z.object({
  owner_address: z.string(),
  to_address: z.string(),
  // Not `.int()`: zod's int stops at 2^53, and a larger amount is read exactly from the raw data instead.
  amount: z.number().positive().refine(Number.isInteger),
});

/** `value` of a TriggerSmartContract as blocks print it (`data` absent for a call without data). */
export const triggerValueSchema = z.object({
  owner_address: z.string(),
  contract_address: z.string(),
  data: z.string().optional(),
});

/** An unsigned transaction from createtransaction / triggersmartcontract; loose, so it can be broadcast as received. */
export const unsignedTransactionSchema = z.looseObject({
  txID: z.string().regex(HASH_PATTERN),
  raw_data: z.looseObject({
    contract: z.array(
      z.looseObject({
        type: z.string(),
        parameter: z.looseObject({ type_url: z.string(), value: z.record(z.string(), z.unknown()) }),
      }),
    ),
    ref_block_bytes: z.string(),
    ref_block_hash: z.string(),
    expiration: z.number().int(),
    timestamp: z.number().int().optional(),
    fee_limit: z.number().int().optional(),
  }),
  raw_data_hex: z.string(),
});
export type UnsignedTransaction = z.infer<typeof unsignedTransactionSchema>;

/** `api.Return` as TransactionExtention answers carry it: `{"result": true}` or `{"code": …, "message": hex}`. */
export const returnSchema = z.object({
  result: z.boolean().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
});

export const triggerSmartContractAnswerSchema = z.object({
  result: returnSchema,
  transaction: unsignedTransactionSchema.optional(),
});

export const triggerConstantContractAnswerSchema = z.object({
  result: returnSchema,
  energy_used: z.number().int().nonnegative().optional(),
  constant_result: z.array(z.string()).optional(),
  transaction: z.object({ ret: z.array(z.object({ ret: z.string().optional() })).optional() }).optional(),
});

export const broadcastAnswerSchema = z.object({
  result: z.boolean().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
  txid: z.string().optional(),
});

/** `gettransactioninfobyid`: `{}` until the transaction is in a block. */
export const transactionInfoSchema = z.object({
  id: hashSchema.optional(),
  blockNumber: heightSchema.optional(),
  /** TRX burned for the transaction (bandwidth and energy), in sun; absent when it burned none. */
  fee: z.number().int().nonnegative().optional(),
  result: z.string().optional(),
  resMessage: z.string().optional(),
  receipt: z.object({ result: z.string().optional() }).optional(),
});

/** `getchainparameters` as a map; a parameter whose value is 0 comes without `value`. */
export const chainParametersSchema = z
  .object({ chainParameter: z.array(z.object({ key: z.string(), value: z.number().int().optional() })) })
  .transform((answer) => new Map(answer.chainParameter.map((entry) => [entry.key, BigInt(entry.value ?? 0)])));

/**
 * `getaccount`: `{}` for an address that does not exist on chain yet. `balance` is the spendable
 * TRX in sun (staked TRX is not in it), absent when 0; zod's `int` stops at 2^53 sun (9 billion
 * TRX), beyond which JSON numbers are not exact.
 */
export const accountSchema = z.object({ address: z.string().optional(), balance: z.number().int().nonnegative().optional() });

/** `getnodeinfo` (a Java object printed with fastjson, not proto JSON). */
export const nodeInfoSchema = z.object({
  configNodeInfo: z.object({ p2pVersion: z.union([z.string(), z.number()]).transform(String) }),
});
