import { validateAddress } from "@/lib/chains/addresses";
import { ChainError, type ChainAdapter, type ObservedTransfer } from "@/lib/chains/types";
import { callChainAccess, DEFAULT_ACCESS_TIMEOUT_MS } from "@/lib/chains/call-access";
import { buildSolanaWatchIndex, extractSolanaDeposits } from "@/lib/chains/solana/extract-solana-deposits";
import type { SolanaAccess } from "@/lib/chains/solana/solana-access";
import { resolveSolanaMints, SOLANA_NETWORK } from "@/lib/chains/solana/solana-assets";
import { mapWithConcurrency } from "@/lib/chains/map-with-concurrency";

export interface SolanaAdapterOptions {
  access: SolanaAccess;
  /**
   * The service's deposit owner addresses. The repo's `scanTransfers` takes no address list
   * because most families can read whole blocks; Solana cannot: a mainnet block holds thousands
   * of transactions every 400 ms, far too many to fetch and decode. So this adapter asks the
   * service for its owners and reads, per owner and per owner ATA, the signatures of the
   * transactions that touched it (`getSignaturesForAddress` on a real node).
   */
  watchedOwners: () => Promise<string[]>;
  /** Symbol → mint overrides for catalogue tokens (a local test mint). */
  mints?: Readonly<Record<string, string>>;
  /** Deadline of one node call; a call past it fails with a retryable ChainError. */
  timeoutMs?: number;
  /** How many addresses are listed at once (each is one or more RPC calls). */
  concurrency?: number;
}

/**
 * The watching half of Solana. A slot is the "block height": `scanTransfers({ afterHeight })`
 * reports deposits in slots above `afterHeight`, and the tip is the newest confirmed slot, so
 * confirmations count slots (skipped slots included). Confirmed commitment is used throughout;
 * nothing is reported from before confirmation (Solana has no public mempool).
 */
export function createSolanaAdapter(options: SolanaAdapterOptions): ChainAdapter {
  const { access, watchedOwners } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_ACCESS_TIMEOUT_MS;
  const concurrency = options.concurrency ?? 8;
  const mints = resolveSolanaMints(options.mints);

  return {
    network: SOLANA_NETWORK,
    source: "rpc",
    capabilities: { hasMemo: false, knowsPayerAddress: true },

    async getTip() {
      const tip = await callChainAccess("solana", "getTip", timeoutMs, () => access.getTip());
      return { height: tip.slot, hash: tip.blockhash };
    },

    async scanTransfers({ afterHeight }) {
      // Invalid entries cannot have received anything on Solana; skip rather than fail the pass.
      const owners = (await watchedOwners()).filter((owner) => validateAddress(SOLANA_NETWORK, owner).ok);
      const watch = buildSolanaWatchIndex(owners, mints);

      const listed = await mapWithConcurrency([...watch.keys()], concurrency, (address) =>
        callChainAccess("solana", "listSignatures", timeoutMs, () => access.listSignatures(address, afterHeight)),
      );
      // One transaction often touches several watched addresses (owner and ATA): read it once.
      const signatures = new Map<string, number>();
      for (const info of listed.flat()) if (!info.isFailed && info.slot > afterHeight) signatures.set(info.signature, info.slot);
      const ordered = [...signatures].sort(([a, slotA], [b, slotB]) => slotA - slotB || (a < b ? -1 : a > b ? 1 : 0));

      const records = await mapWithConcurrency(ordered, concurrency, async ([signature]) => {
        const record = await callChainAccess("solana", "getTransaction", timeoutMs, () => access.getTransaction(signature));
        // Listed but not served yet (another RPC backend behind a load balancer): fail the pass
        // rather than move the cursor past a deposit we never read.
        if (!record) throw new ChainError("solana: a listed transaction is not available yet", { retryable: true });
        return record;
      });

      const blockHashes = new Map<number, string | null>();
      const transfers: ObservedTransfer[] = [];
      for (const record of records) {
        const deposits = extractSolanaDeposits(record, watch);
        if (deposits.length === 0) continue;
        if (!blockHashes.has(record.slot)) {
          blockHashes.set(record.slot, await callChainAccess("solana", "getBlockHash", timeoutMs, () => access.getBlockHash(record.slot)));
        }
        const blockHash = blockHashes.get(record.slot) ?? null;
        for (const deposit of deposits) transfers.push({ ...deposit, blockHash });
      }
      return transfers;
    },

    async getBlockHash(height) {
      return callChainAccess("solana", "getBlockHash", timeoutMs, () => access.getBlockHash(height));
    },
  };
}
