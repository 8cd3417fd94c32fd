/**
 * The chain families with a real adapter in this build, registered with the real-chain
 * registry. Imported wherever network availability is decided, so that every copy of the
 * modules (the server's bundle and the worker's) knows the same families. A family's client
 * libraries (viem, tronweb, @solana/web3.js, @ton/ton …) are loaded when a node of it is first
 * configured: a deployment without TON or Solana nodes does not hold them in memory.
 */
import { registerRealChainFamily } from "./real-chains";

/** Local development chains and the public testnets of the catalogue's EVM networks. */
const EVM_TEST_CHAIN_IDS: ReadonlySet<number> = new Set([
  31337, // anvil, hardhat
  1337, // ganache, geth --dev
  11155111, // ethereum sepolia
  17000, // ethereum holesky
  560048, // ethereum hoodi
  97, // bsc testnet
  80002, // polygon amoy
  421614, // arbitrum sepolia
  84532, // base sepolia
  11155420, // optimism sepolia
  43113, // avalanche fuji
]);

registerRealChainFamily("utxo", async (input) => (await import("./utxo/utxo-real-chain")).createUtxoRealChain(input));

registerRealChainFamily("evm", async (input) => {
  const { createEvmAdapter, createEvmSender } = await import("./evm");
  const adapter = createEvmAdapter({ network: input.network, rpcUrl: input.rpcUrl, fetch: input.fetch, tokens: input.tokens });
  return {
    adapter,
    sender: createEvmSender({ network: input.network, rpcUrl: input.rpcUrl, fetch: input.fetch, tokens: input.tokens }),
    async identify() {
      const chainId = await adapter.chainId();
      // spec: operator contract §3 — only known test chains may run beside sandbox chains: local
      // nodes (anvil, hardhat, ganache) and the public testnets. Any other id counts as a mainnet.
      const isProduction = !EVM_TEST_CHAIN_IDS.has(chainId);
      return { chain: isProduction ? "main" : "test", isProduction, label: `chain id ${chainId}` };
    },
  };
});
registerRealChainFamily("tron", async (input) => (await import("./tron/tron-chain")).createTronChain(input));

registerRealChainFamily("solana", async (input) => {
  const { createSolanaRpcChain } = await import("./solana/solana-chain");
  const chain = createSolanaRpcChain({ rpcUrl: input.rpcUrl, fetch: input.fetch, mints: input.tokens, watchedOwners: input.watchedAddresses });
  return { adapter: chain.adapter, sender: chain.sender, identify: chain.identify };
});

registerRealChainFamily("ton", async (input) => {
  const { createTonHttpChain } = await import("./ton/ton-chain");
  // The TON HTTP API does not name its network: an endpoint is taken for testnet only when its
  // address says so (testnet.toncenter.com); anything else counts as production, which sandbox
  // mode refuses — the safe side.
  const isTestnet = /testnet/i.test(input.rpcUrl);
  const chain = createTonHttpChain({
    endpoint: input.rpcUrl,
    fetch: input.fetch,
    apiKey: input.apiKey,
    jettons: input.tokens,
    chain: isTestnet ? "test" : "main",
    watchedAddresses: input.watchedAddresses,
  });
  return {
    adapter: chain.adapter,
    sender: chain.sender,
    identify: async () => ({ chain: isTestnet ? "test" : "main", isProduction: !isTestnet, label: isTestnet ? "testnet" : "mainnet" }),
  };
});
