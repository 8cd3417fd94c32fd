import { checkEvmChainId, type EvmNetwork } from "@/lib/chains/evm/evm-network";
import { smallQuantitySchema, type EvmRpc } from "@/lib/chains/evm/evm-rpc";

/**
 * Reads the node's chain id once and checks it against the network (see `checkEvmChainId`). A
 * failure is not remembered, so a node that was down or misconfigured is asked again next time.
 */
export function createVerifiedChainId(rpc: EvmRpc, network: EvmNetwork, expectedChainId?: number): () => Promise<number> {
  let verified: Promise<number> | undefined;
  return () => {
    if (!verified) {
      const attempt = rpc.call("eth_chainId", [], smallQuantitySchema).then((reported) => {
        checkEvmChainId(network, reported, expectedChainId);
        return reported;
      });
      verified = attempt;
      attempt.catch(() => {
        if (verified === attempt) verified = undefined;
      });
    }
    return verified;
  };
}
