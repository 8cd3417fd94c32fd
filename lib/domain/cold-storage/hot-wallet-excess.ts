/**
 * What an asset's hot wallet holds above its operator-set maximum, which may leave for cold
 * storage. All amounts are in the asset's minor units.
 */
export interface HotWalletFigures {
  /** What the books say the hot wallet holds: the service's custody less deposits not swept yet. */
  ledgerHeld: bigint;
  /** What the chain says the hot wallet holds now. */
  chainHeld: bigint;
  /** What live payouts and payout links hold (merchants' payout_held): it stays for them. */
  reserved: bigint;
  /** The service's other transfers from the hot wallet still on their way, and their fees when the asset pays them. */
  inFlight: bigint;
  /** What the move itself may cost when the asset pays its own fee (the native coin); else 0. */
  feeReserve: bigint;
  /** The operator's maximum. */
  max: bigint;
}

/**
 * The excess: the lesser of the books' and the chain's view of the hot wallet (never coins the
 * books do not know — an operator's top-up for gas stays; never coins the chain does not show),
 * less what payouts reserve, what is already leaving and the move's own fee, above the maximum.
 * Zero when within the limit. Example: books 12 000, chain 11 900, reserved 3 000, max 5 000 →
 * 11 900 − 3 000 − 5 000 = 3 900.
 */
export function hotWalletExcess(figures: HotWalletFigures): bigint {
  const held = figures.ledgerHeld < figures.chainHeld ? figures.ledgerHeld : figures.chainHeld;
  const free = held - figures.reserved - figures.inFlight - figures.feeReserve;
  const excess = free - figures.max;
  return excess > 0n ? excess : 0n;
}
