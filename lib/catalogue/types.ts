/**
 * Types of the currency catalogue. The catalogue is plain data: networks, the assets that can be
 * settled on them, and the currencies an invoice can be priced in. Nothing here does I/O.
 */

/** Identifier of a supported network, spelled exactly as in the API (`network` fields). */
export type NetworkId =
  | "bitcoin"
  | "litecoin"
  | "dogecoin"
  | "ethereum"
  | "bsc"
  | "polygon"
  | "arbitrum"
  | "base"
  | "optimism"
  | "avalanche"
  | "tron"
  | "solana"
  | "ton";

/** Chain family: selects the adapter implementation in `lib/chains`. */
export type NetworkFamily =
  /** Bitcoin-like chains with unspent outputs (bitcoin, litecoin, dogecoin). */
  | "utxo"
  /** Ethereum-compatible chains; one address is valid on all of them. */
  | "evm"
  /** Tron (TRX, TRC-20). */
  | "tron"
  /** Solana (SOL, SPL tokens). */
  | "solana"
  /** TON (Toncoin, jettons). */
  | "ton";

/** One network the gateway can receive and send on. */
export interface Network {
  readonly id: NetworkId;
  readonly family: NetworkFamily;
  /** Human-readable name for pages and the cabinet, e.g. "BNB Smart Chain". */
  readonly displayName: string;
  /** Symbol of the coin that pays the network fee. */
  readonly nativeSymbol: string;
  /** BIP-21 URI scheme of a wallet payment request ("bitcoin"); present only for the `utxo` family. */
  readonly bip21Scheme?: string;
  /** EIP-155 chain id; present only for the `evm` family. */
  readonly evmChainId?: number;
  /** Typical time between blocks in milliseconds; for estimates shown to people, never for correctness. */
  readonly blockTimeMs: number;
  /** Smallest invoice or payout accepted on this network, in USD, as a decimal string with 2 fraction digits. */
  readonly minimumUsd: string;
  /** Whether deposits need a memo/tag; false everywhere here because every invoice gets its own address. */
  readonly hasMemo: boolean;
  /** Whether a transfer out can carry a memo (a TON comment), as payouts to an exchange's shared address need. */
  readonly sendsMemo: boolean;
  /** The name buyers know the network's tokens by ("ERC-20", "BEP-20" on BNB Smart Chain, "TRC-20", "SPL", "Jetton"); "" where it has none. */
  readonly tokenStandard: string;
  /** Whether the network has accounts, so the payer address of a deposit is known (false for UTXO chains). */
  readonly isAccountBased: boolean;
  /** The mainnet block explorer's pages; absent where the network has none. */
  readonly explorer?: ExplorerTemplates;
}

/** URL templates of a block explorer: `{txid}` and `{address}` stand for the value, URL-encoded. */
export interface ExplorerTemplates {
  readonly transaction: string;
  readonly address: string;
}

/** One step of a confirmation policy. */
export interface ConfirmationTier {
  /**
   * Inclusive upper bound of the payment value in USD cents for this tier; `null` for the last tier
   * (no upper bound).
   */
  readonly upToUsdMinor: bigint | null;
  /** Confirmations required before a payment in this value range is credited. */
  readonly confirmations: number;
}

/**
 * Confirmations required by payment value: tiers are sorted by `upToUsdMinor` ascending and the last
 * one has no bound, so every value falls into exactly one tier.
 */
export type ConfirmationPolicy = readonly ConfirmationTier[];

/** Whether an asset is the network's own coin or a token contract on it. */
export type AssetKind =
  /** The network's native coin (BTC on bitcoin, ETH on arbitrum, ...). */
  | "native"
  /** A token contract: ERC-20 / BEP-20, TRC-20, SPL mint or TON jetton master. */
  | "token";

/** One (symbol, network) pair that invoices can be settled in and payouts can be sent in. */
export interface SettlementAsset {
  /** Canonical upper-case symbol, e.g. "USDT". */
  readonly symbol: string;
  readonly network: NetworkId;
  readonly kind: AssetKind;
  /** Contract address, SPL mint or jetton master; present only for tokens. */
  readonly contract?: string;
  /** Decimals of the asset on this network (BSC USDT and USDC: 18). Minor units use these decimals. */
  readonly decimals: number;
  /** Confirmations required to credit a payment, by its USD value. */
  readonly confirmationPolicy: ConfirmationPolicy;
}

/** A settlement symbol with its canonical decimals, independent of the network. */
export interface SettlementSymbol {
  readonly symbol: string;
  /** Canonical decimals of the asset (USDT and USDC: 6, even though BSC uses 18 on chain). */
  readonly decimals: number;
}

/** A currency an invoice amount can be expressed in (`pricing_currencies[]`). */
export interface PricingCurrency {
  readonly symbol: string;
  /** Decimals of amounts written in this currency (fiat: 2, JPY and KRW: 0; coins: canonical decimals). */
  readonly decimals: number;
  /** True for fiat money, which can only be a price currency, never a settlement currency. */
  readonly isFiat: boolean;
}
