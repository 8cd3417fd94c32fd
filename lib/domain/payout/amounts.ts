/** A payout's three amounts, in the asset's minor units. */
export interface PayoutAmounts {
  /** What the recipient receives. */
  amount: bigint;
  /** The payout fee the merchant pays. */
  fee: bigint;
  /** What leaves the merchant's balance: amount + fee. */
  debit: bigint;
}

/**
 * spec: POST /v1/payout `is_subtract` (the same as /v1/payout/calculate). With the fee on top
 * (`isSubtract`) the recipient gets the requested amount and the balance gives it plus the fee;
 * otherwise the balance gives the requested amount and the recipient gets it less the fee —
 * refused ("below_fee") when nothing would be left.
 */
export function computePayoutAmounts(input: { requested: bigint; fee: bigint; isSubtract: boolean }): PayoutAmounts | "below_fee" {
  if (input.requested <= 0n || input.fee < 0n) throw new RangeError("a payout needs a positive amount and a fee of zero or more");
  if (input.isSubtract) return { amount: input.requested, fee: input.fee, debit: input.requested + input.fee };
  if (input.requested <= input.fee) return "below_fee";
  return { amount: input.requested - input.fee, fee: input.fee, debit: input.requested };
}

/** What a reservation may take from a balance: all of it from available, or why not. */
export type ReserveVerdict = "ok" | "in_debt" | "funds_maturing" | "insufficient_funds";

/**
 * spec: payout errors — the mature part pays (`available`); an amount that maturing funds would
 * cover once mature is `funds_maturing`, any other shortfall `insufficient_funds`; a merchant
 * with a debt (a reversal it could not cover) pays nothing out until it is repaid.
 */
export function judgeReserve(balance: { available: bigint; maturing: bigint; debt: bigint }, debit: bigint): ReserveVerdict {
  if (balance.debt < 0n) return "in_debt";
  if (balance.available >= debit) return "ok";
  return balance.available + balance.maturing >= debit ? "funds_maturing" : "insufficient_funds";
}
