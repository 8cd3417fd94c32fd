import type { RealChain, RealChainInput } from "@/lib/chains/real-chains";
import { createTronAdapter } from "@/lib/chains/tron/tron-adapter";
import type { FetchFunction } from "@/lib/chains/tron/tron-http";
import { createTronSender } from "@/lib/chains/tron/tron-sender";

/**
 * The Tron family as the real-chain registry builds it
 * (`registerRealChainFamily("tron", createTronChain)` in lib/chains/real-chain-families.ts).
 * Tron addresses look the same on every TRON network, so the identity's address chain is only a label.
 */
export function createTronChain(input: Pick<RealChainInput, "rpcUrl" | "tokens"> & { fetch?: FetchFunction }): RealChain {
  const adapter = createTronAdapter({ rpcUrl: input.rpcUrl, tokens: input.tokens, fetch: input.fetch });
  const sender = createTronSender({ rpcUrl: input.rpcUrl, tokens: input.tokens, fetch: input.fetch });
  return {
    adapter,
    sender,
    async identify() {
      const identity = await adapter.identify();
      return { ...identity, chain: identity.isProduction ? "main" : "test" };
    },
  };
}
