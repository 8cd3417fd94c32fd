import { formatAmount } from "@/lib/domain/money/amount";

/**
 * How a wallet is asked to pay on one network, from the catalogue's facts: which URI standard the
 * network has and what it needs. Networks without an agreed scheme (Tron) have no target.
 */
export type PaymentUriTarget =
  /** BIP-21: `bitcoin:`, `litecoin:`, `dogecoin:`; the amount in whole coins. */
  | { standard: "bip21"; scheme: string; decimals: number }
  /** EIP-681 on an EVM chain: the native coin in wei, or a token's `transfer` in its minor units. */
  | { standard: "eip681"; chainId: number; tokenContract: string | null; decimals: number }
  /** Solana Pay transfer request: the amount in whole units, an SPL token by its mint. */
  | { standard: "solana-pay"; splMint: string | null; decimals: number }
  /** TON transfer link: nanotons, or a jetton's minor units with its master address. */
  | { standard: "ton"; jettonMaster: string | null; decimals: number };

/**
 * The URI that opens a wallet with the deposit address and the exact amount filled in. The amount
 * is in minor units of the asset and is written exactly, never through a float.
 */
export function buildPaymentUri(target: PaymentUriTarget, address: string, amountMinor: bigint): string {
  if (amountMinor < 0n) throw new RangeError("a payment URI needs a non-negative amount");
  const inWholeUnits = formatAmount(amountMinor, target.decimals);
  switch (target.standard) {
    case "bip21":
      return `${target.scheme}:${address}?amount=${inWholeUnits}`;
    case "eip681":
      return target.tokenContract === null
        ? `ethereum:${address}@${target.chainId}?value=${amountMinor}`
        : `ethereum:${target.tokenContract}@${target.chainId}/transfer?address=${address}&uint256=${amountMinor}`;
    case "solana-pay":
      return `solana:${address}?amount=${inWholeUnits}${target.splMint === null ? "" : `&spl-token=${target.splMint}`}`;
    case "ton":
      // User-friendly TON addresses may hold `+` and `/` (standard base64): encoded for the path.
      return target.jettonMaster === null
        ? `ton://transfer/${encodeURIComponent(address)}?amount=${amountMinor}`
        : `ton://transfer/${encodeURIComponent(address)}?jetton=${encodeURIComponent(target.jettonMaster)}&amount=${amountMinor}`;
  }
}
