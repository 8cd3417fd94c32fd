import type { RealChain, RealChainInput } from "../real-chains";
import { createUtxoAdapter } from "./utxo-adapter";
import { createUtxoSender } from "./utxo-sender";

/**
 * A UTXO network served by its node, in the shape the real-chain registry expects: register it with
 * `registerRealChainFamily("utxo", createUtxoRealChain)`. The node's chain (`main`/`test`/`regtest`)
 * picks the address encodings; `main` is a production chain.
 */
export function createUtxoRealChain(input: RealChainInput): RealChain {
  const adapter = createUtxoAdapter({ network: input.network, rpcUrl: input.rpcUrl });
  const sender = createUtxoSender({ network: input.network, rpcUrl: input.rpcUrl });
  return {
    adapter,
    sender,
    async identify() {
      const chain = await adapter.chain();
      return { chain, isProduction: chain === "main", label: chain };
    },
  };
}
