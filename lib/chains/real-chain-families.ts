/**
 * The chain families with a real adapter in this build, registered with the real-chain
 * registry. Imported wherever network availability is decided, so that every copy of the
 * modules (the server's bundle and the worker's) knows the same families.
 */
import { registerRealChainFamily } from "./real-chains";
import { createUtxoRealChain } from "./utxo/utxo-real-chain";

registerRealChainFamily("utxo", createUtxoRealChain);
