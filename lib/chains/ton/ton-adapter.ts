import { Address, beginCell, type Transaction } from "@ton/core";
import type { AddressChain } from "@/lib/chains/addresses";
import type { ChainAdapter, ObservedTransfer } from "@/lib/chains/types";
import { callChainAccess, DEFAULT_ACCESS_TIMEOUT_MS } from "@/lib/chains/call-access";
import { classifyTonIncoming } from "@/lib/chains/ton/classify-ton-incoming";
import type { TonAccess } from "@/lib/chains/ton/ton-access";
import { resolveTonJettons, TON_NETWORK, TON_SYMBOL, tonBlockLabel } from "@/lib/chains/ton/ton-assets";
import { mapWithConcurrency } from "@/lib/chains/map-with-concurrency";

/** A TON transfer with the text comment it carried (`ObservedTransfer` has no memo field). */
export interface TonObservedTransfer extends ObservedTransfer {
  memo: string | null;
}

export interface TonAdapterOptions {
  access: TonAccess;
  /**
   * The service's TON deposit addresses. As on Solana, reading every block of every shard is not
   * feasible through the HTTP API, so the adapter reads the transactions of each deposit address.
   */
  watchedAddresses: () => Promise<string[]>;
  /** Symbol → jetton master overrides (a master deployed in a sandbox). */
  jettons?: Readonly<Record<string, string>>;
  /** Which instance's address flags to print payer addresses with. Defaults to "main". */
  chain?: AddressChain;
  /**
   * Seconds below `afterHeight` that every scan reads again. Block time is not commit order: a
   * shard block made at second t can reach the masterchain after one made at t + 1, so a cursor
   * at the tip's time could skip it. Re-reported transfers are harmless (the watcher dedupes on
   * txid and position). Default 60.
   */
  rescanSeconds?: number;
  timeoutMs?: number;
  concurrency?: number;
  /** Transactions fetched per API page. */
  pageSize?: number;
}

function parseAddress(text: string): Address | null {
  try {
    return Address.parse(text);
  } catch {
    return null;
  }
}

/**
 * The watching half of TON: Toncoin that a deposit wallet kept, and jetton deposits proven by a
 * `transfer_notification` from the jetton wallet that the allow-listed master derives for that
 * deposit address (`get_wallet_address`); notifications from any other sender are ignored.
 * Heights are block times in seconds (see `tonBlockLabel`); position is 0, the transaction's one
 * inbound message (logical times do not fit the 32-bit position column).
 */
export function createTonAdapter(options: TonAdapterOptions): ChainAdapter & {
  scanTransfers(input: { afterHeight: number }): Promise<TonObservedTransfer[]>;
} {
  const { access, watchedAddresses } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_ACCESS_TIMEOUT_MS;
  const concurrency = options.concurrency ?? 8;
  const pageSize = options.pageSize ?? 50;
  const rescanSeconds = options.rescanSeconds ?? 60;
  const isTestOnly = options.chain === "test";
  const jettons = resolveTonJettons(options.jettons);
  const call = <T>(what: string, run: () => Promise<T>) => callChainAccess("ton", what, timeoutMs, run);

  // A master's answer for an owner never changes: cache it for the adapter's life.
  const jettonWallets = new Map<string, Promise<Address>>();
  function jettonWalletOf(master: Address, owner: Address): Promise<Address> {
    const key = `${master.toRawString()}|${owner.toRawString()}`;
    let found = jettonWallets.get(key);
    if (!found) {
      found = call("get_wallet_address", async () =>
        (await access.runGetMethod(master, "get_wallet_address", [{ type: "slice", cell: beginCell().storeAddress(owner).endCell() }])).readAddress(),
      );
      jettonWallets.set(key, found);
      found.catch(() => jettonWallets.delete(key));
    }
    return found;
  }

  async function listTransactionsSince(address: Address, since: number): Promise<Transaction[]> {
    const found: Transaction[] = [];
    let before: { lt: bigint; hash: Buffer } | undefined;
    for (;;) {
      const page = await call("getTransactions", () => access.getTransactions(address, { limit: pageSize, before }));
      // Newest first, and block time never decreases along one account's chain.
      for (const transaction of page) {
        if (transaction.now <= since) return found;
        found.push(transaction);
      }
      if (page.length < pageSize) return found;
      const oldest = page[page.length - 1];
      before = { lt: oldest.lt, hash: oldest.hash() };
    }
  }

  async function transfersOf(watched: string, since: number): Promise<TonObservedTransfer[]> {
    const owner = parseAddress(watched);
    if (!owner) return [];
    const transfers: TonObservedTransfer[] = [];
    for (const transaction of await listTransactionsSince(owner, since)) {
      const incoming = classifyTonIncoming(transaction);
      if (!incoming) continue;
      let currency: string | null = null;
      if (incoming.kind === "ton") {
        currency = TON_SYMBOL;
      } else {
        // spec (networks.md §6): accept only the jetton wallet that the allow-listed master derives for this owner.
        for (const [symbol, master] of jettons) {
          if ((await jettonWalletOf(master, owner)).equals(incoming.jettonWallet)) currency = symbol;
        }
      }
      if (!currency) continue;
      transfers.push({
        network: TON_NETWORK,
        currency,
        txid: transaction.hash().toString("hex"),
        position: 0,
        toAddress: watched,
        fromAddress: incoming.from ? incoming.from.toString({ testOnly: isTestOnly }) : "",
        amountMinor: incoming.amount,
        blockHeight: transaction.now,
        blockHash: tonBlockLabel(transaction.now),
        memo: incoming.memo,
      });
    }
    return transfers;
  }

  return {
    network: TON_NETWORK,
    source: "rpc",
    capabilities: { hasMemo: true, knowsPayerAddress: true },

    async getTip() {
      const height = await call("getChainTime", () => access.getChainTime());
      return { height, hash: tonBlockLabel(height) };
    },

    async scanTransfers({ afterHeight }) {
      const watched = await watchedAddresses();
      const since = afterHeight - rescanSeconds;
      const perAddress = await mapWithConcurrency(watched, concurrency, (address) => transfersOf(address, since));
      return perAddress.flat().sort((a, b) => (a.blockHeight ?? 0) - (b.blockHeight ?? 0) || (a.txid < b.txid ? -1 : a.txid > b.txid ? 1 : 0));
    },

    async getBlockHash(height) {
      return tonBlockLabel(height);
    },
  };
}
