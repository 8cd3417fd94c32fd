import type { RealChain, RealChainInput } from "../real-chains";
import { createUtxoAdapter } from "./utxo-adapter";
import { createUtxoSender } from "./utxo-sender";
import { z } from "zod";
import { createUtxoRpc } from "./utxo-rpc";

/**
 * A UTXO network served by its node, in the shape the real-chain registry expects: register it with
 * `registerRealChainFamily("utxo", createUtxoRealChain)`. The node's chain (`main`/`test`/`regtest`)
 * picks the address encodings; `main` is a production chain.
 */
export function createUtxoRealChain(input: RealChainInput): RealChain {
  const adapter = createUtxoAdapter({ network: input.network, rpcUrl: input.rpcUrl, fetch: input.fetch });
  const sender = createUtxoSender({ network: input.network, rpcUrl: input.rpcUrl, fetch: input.fetch });
  const rpc = createUtxoRpc({ rpcUrl: input.rpcUrl, fetch: input.fetch });
  return {
    adapter,
    sender,
    async identify() {
      const chain = await adapter.chain();
      return { chain, isProduction: chain === "main", label: chain };
    },
    // Following a sent transaction (and proving one dead before signing anew) needs to find it
    // once its outputs are spent: only the transaction index can.
    async findMissingRequirement() {
      const indexes = await rpc.call("getindexinfo", [], z.record(z.string(), z.object({ synced: z.boolean() }))).catch(() => null);
      if (!indexes?.txindex) return "the node runs without a transaction index: start it with -txindex";
      return indexes.txindex.synced ? null : "the node's transaction index is still being built";
    },
  };
}
