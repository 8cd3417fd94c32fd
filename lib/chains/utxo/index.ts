/** The UTXO family (bitcoin, litecoin, dogecoin) over a node's JSON-RPC. */
export { createUtxoAdapter, type UtxoAdapter, type UtxoAdapterOptions } from "./utxo-adapter";
export { createUtxoSender, type UtxoSender, type UtxoSenderOptions } from "./utxo-sender";
export { createUtxoRealChain } from "./utxo-real-chain";
export { createUtxoRpc, UtxoRpcError, type UtxoRpc, type UtxoRpcOptions, type UtxoNodeError } from "./utxo-rpc";
export { formatOutputAddress, getUtxoNetwork, type UtxoNetwork } from "./utxo-network";
