import { findNetwork, findSettlementAsset } from "@/lib/catalogue";
import type { PaymentUriTarget } from "@/lib/domain/payment-uri/payment-uri";
import type { AddressChain } from "./addresses";

/**
 * The wallet URI standard of a coin on a network, from the catalogue, or null where there is none
 * (Tron, an unknown pair). On an EVM test chain the catalogue's chain id is not the node's, and a
 * wallet would offer to pay on mainnet: no target there.
 */
export function paymentUriTargetOf(currency: string, network: string, chain: AddressChain): PaymentUriTarget | null {
  const found = findNetwork(network);
  const asset = findSettlementAsset(currency, network);
  if (!found || !asset) return null;
  const token = asset.kind === "token" ? (asset.contract ?? null) : null;
  if (asset.kind === "token" && token === null) return null;
  switch (found.family) {
    case "utxo":
      return found.bip21Scheme && asset.kind === "native" ? { standard: "bip21", scheme: found.bip21Scheme, decimals: asset.decimals } : null;
    case "evm":
      return found.evmChainId !== undefined && chain === "main" ? { standard: "eip681", chainId: found.evmChainId, tokenContract: token, decimals: asset.decimals } : null;
    case "solana":
      return { standard: "solana-pay", splMint: token, decimals: asset.decimals };
    case "ton":
      return { standard: "ton", jettonMaster: token, decimals: asset.decimals };
    case "tron":
      return null;
  }
}
