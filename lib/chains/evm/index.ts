/** The EVM chain family (ethereum, bsc, polygon, arbitrum, base, optimism, avalanche) over JSON-RPC. */
export { createEvmAdapter, decodeTransferLog, ERC20_TRANSFER_TOPIC, TOKEN_POSITION_OFFSET, type EvmAdapter, type EvmAdapterOptions } from "@/lib/chains/evm/evm-adapter";
export { createEvmSender, type EvmSender, type EvmSenderOptions } from "@/lib/chains/evm/evm-sender";
export { compareKnownBlocks, findReorgDepth, type KnownBlock, type ReorgFinding } from "@/lib/chains/evm/reorg";
export { checkEvmChainId, findEvmAsset, resolveEvmNetwork, type EvmNetwork, type EvmToken } from "@/lib/chains/evm/evm-network";
export { EvmRpcError, type EvmRetryOptions } from "@/lib/chains/evm/evm-rpc";
