import * as ecc from "@bitcoinerlab/secp256k1";
import { initEccLib, payments } from "bitcoinjs-lib";
import { z } from "zod";
import { findNetwork, findSettlementAsset, type NetworkId } from "@/lib/catalogue";
import type { AddressChain } from "@/lib/chains/addresses/address-chain";
import type { UtxoParams } from "@/lib/chains/addresses/utxo-params";
import { parseAmount } from "@/lib/domain/money/amount";
import { ChainError } from "../types";
import type { UtxoRpc } from "./utxo-rpc";

// Taproot outputs are decoded with the curve library (x-only key check); set it once for the process.
initEccLib(ecc);

/** What the UTXO code needs to know about one network besides its address encodings. */
export interface UtxoNetwork {
  id: NetworkId;
  /** Catalogue symbol of the native coin (BTC, LTC, DOGE). */
  symbol: string;
  /** Decimals of the coin: node amounts such as "1.23456789" have this many fraction digits. */
  decimals: number;
  /**
   * Smallest output we create, in minor units. Below it the node refuses the transaction as dust;
   * change below it is left to the fee instead. Values are the node defaults for the worst output
   * type we pay (P2PKH): bitcoin 546 sat (3 sat/vB dust relay fee), litecoin 5460 litoshi
   * (litecoind 0.21 calls a P2PKH output of 5459 dust), dogecoin 0.01 DOGE (Dogecoin Core 1.14.6's
   * soft dust limit; not checked against a node here).
   */
  dustLimitMinor: bigint;
}

const DUST_LIMITS: Partial<Record<NetworkId, bigint>> = {
  bitcoin: 546n,
  litecoin: 5_460n,
  dogecoin: 1_000_000n,
};

/** The UTXO facts of a network; throws for a network of another family. */
export function getUtxoNetwork(network: NetworkId): UtxoNetwork {
  const found = findNetwork(network);
  const dustLimitMinor = DUST_LIMITS[network];
  if (!found || found.family !== "utxo" || dustLimitMinor === undefined) throw new Error(`${network} is not a UTXO network`);
  const asset = findSettlementAsset(found.nativeSymbol, network);
  if (!asset) throw new Error(`The catalogue has no native asset for ${network}`);
  return { id: network, symbol: found.nativeSymbol, decimals: asset.decimals, dustLimitMinor };
}

/**
 * A node amount ("1.23456789", as kept exact by `parseRpcJson`) in minor units. A whole-number
 * amount may arrive as a JSON number; it is a safe integer there, so `String` is exact.
 */
export function coinAmountSchema(decimals: number) {
  return z.union([z.string(), z.number().int().nonnegative()]).transform((value, context) => {
    const minor = parseAmount(String(value), decimals);
    if (minor === null) {
      context.addIssue({ code: "custom", message: `not an amount with ${decimals} decimals` });
      return z.NEVER;
    }
    return minor;
  });
}

/** A transaction or block hash as nodes write it: 64 lower-case hex digits. */
export const hashSchema = z.string().regex(/^[0-9a-f]{64}$/);

const blockchainInfoSchema = z.object({ chain: z.string() });

/** The chain names nodes report, mapped to address encodings: signet shares testnet's. */
const NODE_CHAINS: Record<string, AddressChain> = { main: "main", test: "test", signet: "test", regtest: "regtest" };

/**
 * Asks the node which chain it runs, once; a failed question is asked again next time. The answer
 * selects the address encodings (`rltc1…` on litecoin regtest).
 */
export function createChainResolver(rpc: UtxoRpc): () => Promise<AddressChain> {
  let answer: Promise<AddressChain> | null = null;
  return () => {
    answer ??= rpc.call("getblockchaininfo", [], blockchainInfoSchema).then(({ chain }) => {
      const known = NODE_CHAINS[chain];
      if (!known) throw new ChainError(`The node runs an unknown chain "${chain.slice(0, 40)}"`, { retryable: false });
      return known;
    });
    answer.catch(() => {
      answer = null;
    });
    return answer;
  };
}

/**
 * The address an output script pays, in the network's encoding for `chain`; null for scripts that
 * pay no address (OP_RETURN, bare multisig, non-standard) and for segwit scripts on a network
 * without segwit (dogecoin), where no wallet could show such an address.
 */
export function formatOutputAddress(params: UtxoParams, script: Uint8Array): string | null {
  const decoders = params.bech32Prefix
    ? [payments.p2pkh, payments.p2sh, payments.p2wpkh, payments.p2wsh, payments.p2tr]
    : [payments.p2pkh, payments.p2sh];
  for (const decode of decoders) {
    try {
      const address = decode({ output: script, network: params.bitcoinjs }).address;
      if (address) return address;
    } catch {
      // Not this script type: try the next one.
    }
  }
  return null;
}
