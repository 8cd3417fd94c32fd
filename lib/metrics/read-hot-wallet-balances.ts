import { findNetwork, listNetworks, type NetworkFamily, type NetworkId } from "@/lib/catalogue";
import { hotWalletAddress } from "@/lib/chains/hot-wallet";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { getRealChainState, tokenOverrides } from "@/lib/chains/real-chains";
import { addressChainOf } from "@/lib/chains/registry";
import { createEvmRpc, hexDataSchema, quantitySchema } from "@/lib/chains/evm/evm-rpc";
import { resolveEvmNetwork } from "@/lib/chains/evm/evm-network";
import type { GatewayConfig } from "@/lib/config/env";
import type { SecretBox } from "@/lib/crypto/secret-box";
import type { Db } from "@/lib/db/client";
import { assetKey } from "@/lib/ledger/postings";

/** A hot wallet's balance of one asset, in minor units. */
export interface HotWalletBalance {
  network: string;
  /** The ledger's asset key, `USDT:ethereum`. */
  asset: string;
  balanceMinor: bigint;
}

export interface HotWalletSource {
  db: Db;
  secretBox: SecretBox;
  config: Pick<GatewayConfig, "sandbox" | "rpcEndpoints">;
  /** Where TOKEN_<NETWORK>_<SYMBOL> contract overrides are read (as the node's adapter was built). */
  env: Readonly<Record<string, string | undefined>>;
}

type BalanceReader = (input: { network: NetworkId; rpcUrl: string; address: string; tokens: Record<string, string>; timeoutMs: number }) => Promise<HotWalletBalance[]>;

/** The node's balance of an EVM account: one call for the native coin, one `balanceOf` per catalogue token. */
const readEvmBalances: BalanceReader = async ({ network, rpcUrl, address, tokens, timeoutMs }) => {
  const evmNetwork = resolveEvmNetwork(network, tokens);
  // No retries: a scrape's answer is only worth having now, and the next scrape asks again.
  const rpc = createEvmRpc({ rpcUrl, timeoutMs, retry: { count: 0, delayMs: 0 } });
  const balanceOfCall = (contract: string) => ({ to: contract, data: `0x70a08231${address.slice(2).toLowerCase().padStart(64, "0")}` });
  const [native, ...tokenBalances] = await Promise.all([
    rpc.call("eth_getBalance", [address, "latest"], quantitySchema),
    ...evmNetwork.tokens.map((token) => rpc.call("eth_call", [balanceOfCall(token.contract), "latest"], hexDataSchema)),
  ]);
  return [
    { network, asset: assetKey(evmNetwork.nativeSymbol, network), balanceMinor: native },
    ...evmNetwork.tokens.map((token, index) => ({ network, asset: assetKey(token.symbol, network), balanceMinor: tokenBalances[index] === "0x" ? 0n : BigInt(tokenBalances[index]) })),
  ];
};

/**
 * Families whose balances one cheap call per asset answers. Sandbox chains keep no balances, and
 * the other families need an account history or a program query per token: they are left out.
 */
const BALANCE_READERS: Partial<Record<NetworkFamily, BalanceReader>> = { evm: readEvmBalances };

/** Networks whose hot wallet balance can be read here: a verified real node of a family with a reader. */
export function listBalanceNetworks(config: Pick<GatewayConfig, "rpcEndpoints">): NetworkId[] {
  return listNetworks()
    .filter((network) => config.rpcEndpoints[network.id] && BALANCE_READERS[network.family] && getRealChainState(network.id)?.kind === "ready")
    .map((network) => network.id);
}

/** The hot wallet's balances on one network, as its node reports them. */
export async function readHotWalletBalances(source: HotWalletSource, network: NetworkId, timeoutMs: number): Promise<HotWalletBalance[]> {
  const family = findNetwork(network)?.family;
  const reader = family ? BALANCE_READERS[family] : undefined;
  const rpcUrl = source.config.rpcEndpoints[network];
  if (!reader || !rpcUrl) return [];
  const keys = await loadKeyMaterial(source.db, source.secretBox);
  const address = hotWalletAddress(keys, network, addressChainOf(source.config, network));
  return reader({ network, rpcUrl, address, tokens: tokenOverrides(source.env, network), timeoutMs });
}
