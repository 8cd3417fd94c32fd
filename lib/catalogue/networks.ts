import type { ExplorerTemplates, Network, NetworkId } from "@/lib/catalogue/types";

/**
 * Every supported network. Chain ids and block times come from shared/spec/networks.md §1 and §4.
 *
 * `minimumUsd` is our own choice (spec: Limits — "Network minimum amounts: not shown"): it keeps an
 * invoice or payout well above what moving the money costs on that network, so a sweep or payout
 * never eats most of the amount.
 */
export const NETWORKS: readonly Network[] = [
  {
    id: "bitcoin",
    family: "utxo",
    displayName: "Bitcoin",
    bip21Scheme: "bitcoin",
    nativeSymbol: "BTC",
    blockTimeMs: 600_000,
    // A consolidating input costs around a dollar when the mempool is busy.
    minimumUsd: "5.00",
    hasMemo: false,
    sendsMemo: false,
    tokenStandard: "",
    isAccountBased: false,
    explorer: { transaction: "https://mempool.space/tx/{txid}", address: "https://mempool.space/address/{address}" },
  },
  {
    id: "litecoin",
    family: "utxo",
    displayName: "Litecoin",
    bip21Scheme: "litecoin",
    nativeSymbol: "LTC",
    blockTimeMs: 150_000,
    minimumUsd: "1.00",
    hasMemo: false,
    sendsMemo: false,
    tokenStandard: "",
    isAccountBased: false,
    explorer: { transaction: "https://blockchair.com/litecoin/transaction/{txid}", address: "https://blockchair.com/litecoin/address/{address}" },
  },
  {
    id: "dogecoin",
    family: "utxo",
    displayName: "Dogecoin",
    bip21Scheme: "dogecoin",
    nativeSymbol: "DOGE",
    blockTimeMs: 60_000,
    minimumUsd: "1.00",
    hasMemo: false,
    sendsMemo: false,
    tokenStandard: "",
    isAccountBased: false,
    explorer: { transaction: "https://blockchair.com/dogecoin/transaction/{txid}", address: "https://blockchair.com/dogecoin/address/{address}" },
  },
  {
    id: "ethereum",
    family: "evm",
    displayName: "Ethereum",
    nativeSymbol: "ETH",
    evmChainId: 1,
    blockTimeMs: 12_000,
    // An ERC-20 sweep plus the gas top-up of a fresh deposit address costs dollars at busy times.
    minimumUsd: "5.00",
    hasMemo: false,
    sendsMemo: false,
    tokenStandard: "ERC-20",
    isAccountBased: true,
    explorer: { transaction: "https://etherscan.io/tx/{txid}", address: "https://etherscan.io/address/{address}" },
  },
  {
    id: "bsc",
    family: "evm",
    displayName: "BNB Smart Chain",
    nativeSymbol: "BNB",
    evmChainId: 56,
    // BEP-619 (0.45 s), the value in force per networks.md §4.
    blockTimeMs: 450,
    minimumUsd: "1.00",
    hasMemo: false,
    sendsMemo: false,
    tokenStandard: "BEP-20",
    isAccountBased: true,
    explorer: { transaction: "https://bscscan.com/tx/{txid}", address: "https://bscscan.com/address/{address}" },
  },
  {
    id: "polygon",
    family: "evm",
    displayName: "Polygon",
    nativeSymbol: "POL",
    evmChainId: 137,
    blockTimeMs: 2_000,
    minimumUsd: "1.00",
    hasMemo: false,
    sendsMemo: false,
    tokenStandard: "ERC-20",
    isAccountBased: true,
    explorer: { transaction: "https://polygonscan.com/tx/{txid}", address: "https://polygonscan.com/address/{address}" },
  },
  {
    id: "arbitrum",
    family: "evm",
    displayName: "Arbitrum One",
    nativeSymbol: "ETH",
    evmChainId: 42161,
    blockTimeMs: 250,
    minimumUsd: "1.00",
    hasMemo: false,
    sendsMemo: false,
    tokenStandard: "ERC-20",
    isAccountBased: true,
    explorer: { transaction: "https://arbiscan.io/tx/{txid}", address: "https://arbiscan.io/address/{address}" },
  },
  {
    id: "base",
    family: "evm",
    displayName: "Base",
    nativeSymbol: "ETH",
    evmChainId: 8453,
    blockTimeMs: 2_000,
    minimumUsd: "1.00",
    hasMemo: false,
    sendsMemo: false,
    tokenStandard: "ERC-20",
    isAccountBased: true,
    explorer: { transaction: "https://basescan.org/tx/{txid}", address: "https://basescan.org/address/{address}" },
  },
  {
    id: "optimism",
    family: "evm",
    displayName: "OP Mainnet",
    nativeSymbol: "ETH",
    evmChainId: 10,
    blockTimeMs: 2_000,
    minimumUsd: "1.00",
    hasMemo: false,
    sendsMemo: false,
    tokenStandard: "ERC-20",
    isAccountBased: true,
    explorer: { transaction: "https://optimistic.etherscan.io/tx/{txid}", address: "https://optimistic.etherscan.io/address/{address}" },
  },
  {
    id: "avalanche",
    family: "evm",
    displayName: "Avalanche C-Chain",
    nativeSymbol: "AVAX",
    evmChainId: 43114,
    // networks.md §4 has no sourced value (dynamic since Granite); 2 s is the long-standing typical value.
    blockTimeMs: 2_000,
    minimumUsd: "1.00",
    hasMemo: false,
    sendsMemo: false,
    tokenStandard: "ERC-20",
    isAccountBased: true,
    explorer: { transaction: "https://snowtrace.io/tx/{txid}", address: "https://snowtrace.io/address/{address}" },
  },
  {
    id: "tron",
    family: "tron",
    displayName: "Tron",
    nativeSymbol: "TRX",
    blockTimeMs: 3_000,
    // A TRC-20 transfer without staked energy burns several TRX, so 1 USD would be mostly fee.
    minimumUsd: "2.00",
    hasMemo: false,
    sendsMemo: false,
    tokenStandard: "TRC-20",
    isAccountBased: true,
    explorer: { transaction: "https://tronscan.org/#/transaction/{txid}", address: "https://tronscan.org/#/address/{address}" },
  },
  {
    id: "solana",
    family: "solana",
    displayName: "Solana",
    nativeSymbol: "SOL",
    blockTimeMs: 400,
    minimumUsd: "1.00",
    hasMemo: false,
    sendsMemo: false,
    tokenStandard: "SPL",
    isAccountBased: true,
    explorer: { transaction: "https://solscan.io/tx/{txid}", address: "https://solscan.io/account/{address}" },
  },
  {
    id: "ton",
    family: "ton",
    displayName: "TON",
    nativeSymbol: "TON",
    // About 400 ms since Catchain 2.0 (2026-04-09), networks.md §4.
    blockTimeMs: 400,
    minimumUsd: "1.00",
    // Each invoice has its own address, so no comment/forward_payload is needed (networks.md §4).
    hasMemo: false,
    sendsMemo: true,
    tokenStandard: "Jetton",
    isAccountBased: true,
    explorer: { transaction: "https://tonviewer.com/transaction/{txid}", address: "https://tonviewer.com/{address}" },
  },
];

const NETWORKS_BY_ID: ReadonlyMap<string, Network> = new Map(NETWORKS.map((network) => [network.id, network]));

/** Lists every supported network in catalogue order. */
export function listNetworks(): readonly Network[] {
  return NETWORKS;
}

/**
 * Finds a network by its exact lower-case id (`"bsc"`); returns null for unknown ids.
 * Normalise user input with `normalizeNetworkId` first.
 */
export function findNetwork(id: string): Network | null {
  return NETWORKS_BY_ID.get(id) ?? null;
}

/** A network's name for people ("BNB Smart Chain" for `bsc`); the id itself for an unknown one. */
export function networkDisplayName(id: string): string {
  return findNetwork(id)?.displayName ?? id;
}

/**
 * The mainnet explorer's page of a transaction or an address on the network, or null where the
 * catalogue has no explorer. Whether the network is served by mainnet is the caller's question.
 * Example: `explorerUrl("bitcoin", "transaction", "ab12")` → "https://mempool.space/tx/ab12".
 */
export function explorerUrl(networkId: string, kind: keyof ExplorerTemplates, value: string): string | null {
  const template = findNetwork(networkId)?.explorer?.[kind];
  if (!template || value === "") return null;
  return template.replace(kind === "transaction" ? "{txid}" : "{address}", encodeURIComponent(value));
}

/** Tells whether a string is the exact id of a supported network. */
export function isNetworkId(id: string): id is NetworkId {
  return NETWORKS_BY_ID.has(id);
}
