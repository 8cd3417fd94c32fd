import { Address, Cell, type StateInit, type Transaction, type TupleItem, type TupleReader } from "@ton/core";
import { TonClient } from "@ton/ton";
import type { TonAccess } from "@/lib/chains/ton/ton-access";

/**
 * The part of @ton/ton's `TonClient` (toncenter v2 HTTP API) this layer calls. A real client
 * satisfies it; the tests pass failing or hanging fakes.
 */
export interface TonHttpClient {
  getContractState(address: Address): Promise<{ balance: bigint; state: "active" | "uninitialized" | "frozen"; data: Buffer | null; timestampt: number }>;
  getTransactions(address: Address, opts: { limit: number; lt?: string; hash?: string; archival?: boolean }): Promise<Transaction[]>;
  runMethod(address: Address, name: string, stack?: TupleItem[]): Promise<{ stack: TupleReader }>;
  sendFile(src: Buffer): Promise<void>;
  estimateExternalMessageFee(
    address: Address,
    args: { body: Cell; initCode: Cell | null; initData: Cell | null; ignoreSignature: boolean },
  ): Promise<{ source_fees: { in_fwd_fee: number; storage_fee: number; gas_fee: number; fwd_fee: number } }>;
}

/** Any account works for reading the API's sync time; the zero account always answers. */
const TIME_PROBE = Address.parse(`0:${"0".repeat(64)}`);

/**
 * Chain access over the TON HTTP API. Runs only against a real network: the tests exercise it
 * with fakes for failure handling, not against toncenter.
 */
export function createTonClientAccess(client: TonHttpClient): TonAccess {
  return {
    async getChainTime() {
      // sync_utime: the time of the masterchain block the API's liteserver answers from.
      return (await client.getContractState(TIME_PROBE)).timestampt;
    },

    async getTransactions(address, page) {
      // Not inclusive by default: the page starts below the transaction named by lt + hash.
      return client.getTransactions(address, {
        limit: page.limit,
        lt: page.before?.lt.toString(),
        hash: page.before?.hash.toString("base64"),
        archival: true,
      });
    },

    async getAccountState(address) {
      const state = await client.getContractState(address);
      // toncenter reports accounts that never existed as "uninitialized" with balance 0.
      const status = state.state === "uninitialized" ? "uninit" : state.state;
      const data = status === "active" && state.data ? Cell.fromBoc(state.data)[0] : null;
      return { status, balance: state.balance, data, atTime: state.timestampt };
    },

    async runGetMethod(address, method, args) {
      return (await client.runMethod(address, method, args)).stack;
    },

    async sendMessage(message) {
      await client.sendFile(message.toBoc());
    },

    async estimateExternalFee(address, message: { body: Cell; init: StateInit | null }) {
      const { source_fees: fees } = await client.estimateExternalMessageFee(address, {
        body: message.body,
        initCode: message.init?.code ?? null,
        initData: message.init?.data ?? null,
        ignoreSignature: true,
      });
      return BigInt(fees.in_fwd_fee) + BigInt(fees.storage_fee) + BigInt(fees.gas_fee) + BigInt(fees.fwd_fee);
    },
  };
}

/** Chain access to a toncenter-compatible v2 endpoint (`…/jsonRPC`). */
export function createTonHttpAccess(endpoint: string, apiKey?: string): TonAccess {
  return createTonClientAccess(new TonClient({ endpoint, apiKey }));
}
