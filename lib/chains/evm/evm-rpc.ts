import { BaseError, createClient, getAddress, http, HttpRequestError, RpcRequestError, rpcSchema, TimeoutError } from "viem";
import { z } from "zod";
import type { FetchFunction } from "@/lib/chains/rpc-endpoints";
import { ChainError } from "@/lib/chains/types";

/** Transport-level retries of one JSON-RPC request (timeouts, 5xx, 429, rate-limit codes). */
export interface EvmRetryOptions {
  /** Extra attempts after the first; 0 disables retries. */
  count: number;
  /** Base delay in ms; viem doubles it on each attempt. */
  delayMs: number;
}

export interface EvmRpcOptions {
  rpcUrl: string;
  /** The fetch requests go through (the network's endpoint pool, with failover); the global fetch when unset. */
  fetch?: FetchFunction;
  /** Per-request timeout in ms. Default 10 000. */
  timeoutMs?: number;
  /** Default: 2 retries, 200 ms base delay. */
  retry?: EvmRetryOptions;
}

/** The error a node sent back (it answered and refused), as opposed to a transport failure. */
export interface EvmNodeError {
  code: number;
  message: string;
}

/**
 * A failed JSON-RPC call. Always retryable as it leaves here: the sender decides from `nodeError`
 * whether a refusal is final. The message names the method and the kind of failure but never the
 * URL, which may carry an API key.
 */
export class EvmRpcError extends ChainError {
  /** Null when there was no JSON-RPC answer (timeout, connection refused, HTTP error, garbage). */
  readonly nodeError: EvmNodeError | null;
  constructor(message: string, nodeError: EvmNodeError | null) {
    super(message, { retryable: true });
    this.name = "EvmRpcError";
    this.nodeError = nodeError;
  }
}

/** A JSON-RPC client that validates every answer and turns every failure into a retryable ChainError. */
export interface EvmRpc {
  call<T>(method: string, params: readonly unknown[], schema: z.ZodType<T>): Promise<T>;
}

export function createEvmRpc(options: EvmRpcOptions): EvmRpc {
  const retry = options.retry ?? { count: 2, delayMs: 200 };
  const client = createClient({
    // Answers are typed `unknown` on purpose: each is validated by the caller's schema.
    rpcSchema: rpcSchema<[{ Method: string; Parameters: unknown[]; ReturnType: unknown }]>(),
    transport: http(options.rpcUrl, { timeout: options.timeoutMs ?? 10_000, retryCount: retry.count, retryDelay: retry.delayMs, fetchFn: options.fetch }),
  });
  return {
    async call(method, params, schema) {
      let answer: unknown;
      try {
        answer = await client.request({ method, params: [...params] });
      } catch (error) {
        throw toEvmRpcError(method, error);
      }
      const parsed = schema.safeParse(answer);
      if (!parsed.success) throw new EvmRpcError(`${method}: the node answered with an unexpected shape`, null);
      return parsed.data;
    },
  };
}

function toEvmRpcError(method: string, error: unknown): EvmRpcError {
  if (error instanceof BaseError) {
    const refusal = error.walk((cause) => cause instanceof RpcRequestError);
    if (refusal instanceof RpcRequestError) {
      const nodeError = { code: refusal.code, message: refusal.details };
      return new EvmRpcError(`${method}: the node refused (${nodeError.code}: ${nodeError.message.slice(0, 300)})`, nodeError);
    }
    const timeout = error.walk((cause) => cause instanceof TimeoutError);
    if (timeout) return new EvmRpcError(`${method}: the node did not answer in time`, null);
    const http = error.walk((cause) => cause instanceof HttpRequestError);
    if (http instanceof HttpRequestError && http.status) return new EvmRpcError(`${method}: HTTP ${http.status}`, null);
    return new EvmRpcError(`${method}: ${error.shortMessage}`, null);
  }
  // Garbage that viem could not decode surfaces as a plain SyntaxError or TypeError.
  return new EvmRpcError(`${method}: the request failed (${error instanceof Error ? error.name : "unknown error"})`, null);
}

// ---- Answer schemas: only the fields the family reads, each checked. ----

/** A JSON-RPC quantity ("0x1a") as a bigint. */
export const quantitySchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{1,64}$/)
  .transform((text) => BigInt(text));

/** A quantity that must fit a JavaScript number (heights, indexes, chain ids). */
export const smallQuantitySchema = quantitySchema.refine((value) => value <= BigInt(Number.MAX_SAFE_INTEGER)).transform((value) => Number(value));

/** A 32-byte hash in lower case. */
export const hashSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{64}$/)
  .transform((text) => text.toLowerCase());

/** A 20-byte address, EIP-55 checksummed (nodes answer in lower case). */
export const addressSchema = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/)
  .transform((text) => getAddress(text.toLowerCase()));

export const hexDataSchema = z.string().regex(/^0x([0-9a-fA-F]{2})*$/);

export const blockHeaderSchema = z.object({
  number: smallQuantitySchema,
  hash: hashSchema,
  baseFeePerGas: quantitySchema.nullish(),
});

export const transactionSchema = z.object({
  hash: hashSchema,
  from: addressSchema,
  to: addressSchema.nullish(),
  value: quantitySchema,
  nonce: smallQuantitySchema.optional(),
  transactionIndex: smallQuantitySchema.nullish(),
  blockNumber: smallQuantitySchema.nullish(),
});

export const blockWithTransactionsSchema = blockHeaderSchema.extend({
  transactions: z.array(transactionSchema),
});

export const logSchema = z.object({
  address: addressSchema,
  topics: z.array(hashSchema),
  data: hexDataSchema,
  blockNumber: smallQuantitySchema,
  blockHash: hashSchema,
  transactionHash: hashSchema,
  logIndex: smallQuantitySchema,
  removed: z.boolean().optional(),
});

export const receiptSchema = z.object({
  status: z.enum(["0x0", "0x1"]),
  blockNumber: smallQuantitySchema,
  blockHash: hashSchema,
  /** What the transaction paid: gasUsed × effectiveGasPrice (in wei). */
  gasUsed: quantitySchema.optional(),
  effectiveGasPrice: quantitySchema.optional(),
});

/** A receipt with the logs its transaction emitted (ERC-20 `Transfer`s among them). */
export const receiptWithLogsSchema = receiptSchema.extend({
  logs: z.array(z.object({ address: addressSchema, topics: z.array(z.string()), data: z.string() })),
});

/** Heights as JSON-RPC block numbers. */
export function toBlockTag(height: number): string {
  return `0x${height.toString(16)}`;
}
