import { platformFeeMinor } from "@/lib/domain/invoice/quote";
import { requiredConfirmationsForTransfer } from "@/lib/domain/invoice/transfer-confirmations";

/** A deposit to a static wallet's address, as the wallet's ledger sees it. */
export type WalletDepositStatus =
  /** Seen on chain, waiting for its confirmations. */
  | "confirm_check"
  /** Credited to the merchant, net of the platform fee; announced by `wallet.paid`. */
  | "paid"
  /** Arrived after the wallet was blocked: held, waiting for the blocked-address refund. */
  | "held"
  /** Held, and bound to the refund payout that returns it. */
  | "refunded";

/** What a confirmed-enough deposit becomes, or that it waits. */
export type WalletDepositDecision =
  | { kind: "wait" }
  /** Into blocked_held: never the merchant's. */
  | { kind: "hold" }
  /** Into the merchant's balance: `feeMinor` to the platform, `netMinor` maturing (minor units of the coin). */
  | { kind: "credit"; feeMinor: bigint; netMinor: bigint };

/**
 * Decides a static wallet's deposit that is not credited yet. It waits for the confirmations of
 * its own value (at least the network's minimum); then a deposit first seen after the wallet was
 * blocked is held, and any other is credited with the platform fee taken at reception, as for
 * an invoice: the percentage (rounded up) plus the fixed part, never more than received.
 *
 * @param input.amountMinor the deposit, in the coin's on-chain minor units.
 * @param input.usdUnitMinor one USD in the same units (the wallet's quote), to value the deposit.
 * @param input.fee.fixedMinor the fixed part of the fee in the same units.
 * Example: 100 000 000 minor units of a 6-decimal coin at 150 bps + 300 000 fixed → fee 1 800 000, net 98 200 000.
 */
export function decideWalletDeposit(input: {
  amountMinor: bigint;
  confirmations: number;
  minimumConfirmations: number;
  usdUnitMinor: bigint;
  tierFor(valueUsdMinor: bigint): number;
  seenAt: Date;
  blockedAt: Date | null;
  fee: { percentBps: number; fixedMinor: bigint };
}): WalletDepositDecision {
  const required = requiredConfirmationsForTransfer({
    invoiceRequired: input.minimumConfirmations,
    amountMinor: input.amountMinor,
    payerAmountMinor: input.usdUnitMinor,
    priceUsdMinor: 100n,
    tierFor: input.tierFor,
  });
  if (input.confirmations < required) return { kind: "wait" };
  // spec: static wallets — deposits to a blocked address are held for the merchant to refund.
  if (input.blockedAt !== null && input.seenAt >= input.blockedAt) return { kind: "hold" };
  const feeMinor = platformFeeMinor(input.amountMinor, input.fee.percentBps, input.fee.fixedMinor);
  return { kind: "credit", feeMinor, netMinor: input.amountMinor - feeMinor };
}

/** The status a recorded deposit shows (orphaned deposits are not shown). */
export function walletDepositStatus(deposit: { status: string; isHeld: boolean; refundPayoutId: string | null }): WalletDepositStatus {
  if (deposit.status !== "confirmed") return "confirm_check";
  if (!deposit.isHeld) return "paid";
  return deposit.refundPayoutId === null ? "held" : "refunded";
}
