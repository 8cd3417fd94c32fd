/**
 * Which instance of a network an address belongs to. Only the encodings differ: version bytes and
 * HRPs for UTXO chains, the testnet-only flag for TON. EVM, Tron and Solana addresses look the same
 * on every instance.
 */
export type AddressChain =
  /** The public main network. */
  | "main"
  /** The public test network (bitcoin testnet/signet, litecoin testnet, TON testnet, ...). */
  | "test"
  /** A private local chain run by the tests (bitcoind/litecoind -regtest, anvil, sandboxes). */
  | "regtest";

export const ADDRESS_CHAINS: readonly AddressChain[] = ["main", "test", "regtest"];
