import { Address, Cell, type StateInit, type Transaction, type TupleItem, type TupleReader } from "@ton/core";
import { TonClient } from "@ton/ton";
import type { FetchFunction } from "@/lib/chains/rpc-endpoints";
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

type HttpAdapter = NonNullable<NonNullable<ConstructorParameters<typeof TonClient>[0]>["httpAdapter"]>;

/** What of an axios request config the adapter reads. */
interface AdapterRequest {
  url?: string;
  method?: string;
  headers?: { toJSON?: () => Record<string, unknown> } & Record<string, unknown>;
  data?: unknown;
  timeout?: number;
}

/**
 * An axios adapter that sends TonClient's requests through `fetchFunction` (the endpoint pool).
 * The status goes back as is: TonClient reads anything but 200 as an error itself.
 */
function fetchAdapter(fetchFunction: FetchFunction): HttpAdapter {
  const adapter = async (config: AdapterRequest) => {
    const raw = typeof config.headers?.toJSON === "function" ? config.headers.toJSON() : (config.headers ?? {});
    const headers = Object.fromEntries(Object.entries(raw).filter(([, value]) => typeof value === "string" || typeof value === "number").map(([name, value]) => [name, String(value)]));
    const response = await fetchFunction(config.url ?? "", {
      method: (config.method ?? "post").toUpperCase(),
      headers,
      body: typeof config.data === "string" ? config.data : config.data === undefined ? undefined : JSON.stringify(config.data),
      signal: config.timeout ? AbortSignal.timeout(config.timeout) : undefined,
    });
    const text = await response.text();
    let data: unknown = text;
    try {
      data = JSON.parse(text);
    } catch {
      // Not JSON: TonClient reports the body as it came.
    }
    return { data, status: response.status, statusText: response.statusText, headers: Object.fromEntries(response.headers), config, request: null };
  };
  return adapter as unknown as HttpAdapter;
}

/** Chain access to a toncenter-compatible v2 endpoint (`…/jsonRPC`), its requests sent through `fetchFunction` when given. */
export function createTonHttpAccess(endpoint: string, apiKey?: string, fetchFunction?: FetchFunction): TonAccess {
  return createTonClientAccess(new TonClient({ endpoint, apiKey, httpAdapter: fetchFunction ? fetchAdapter(fetchFunction) : undefined }));
}
