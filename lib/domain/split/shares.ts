/**
 * Split shares as pure arithmetic: a rule's percentage in basis points, a share's target, and
 * the moves that bring a share to its target. Amounts are minor units of the payment's asset.
 */

/** spec: the sum of a merchant's split rules is at most 100 %. */
export const MAX_SPLIT_BPS = 10_000;

/** spec: `percent` above 0, at most 100, in steps of 0.01 — as basis points, or null when it is not. */
export function percentToBps(percent: number): number | null {
  if (!Number.isFinite(percent) || percent <= 0 || percent > 100) return null;
  const bps = Math.round(percent * 100);
  // 12.34 × 100 is 1233.9999999999998 in binary; a third decimal is not a rounding error. A
  // percentage too small to differ from 0 by that measure (1e-10) is not 0.01 or more either.
  if (bps < 1 || Math.abs(bps - percent * 100) > 1e-6) return null;
  return bps;
}

/** The float the spec shows (`percent`), exact for every 0.01 step. */
export function bpsToPercent(bps: number): number {
  return bps / 100;
}

/**
 * spec: "The share is computed from the amount actually received net of refunds": the rule's
 * percentage of what the payment credited the merchant less what was refunded of it, rounded
 * down (the odd minor unit stays with the merchant).
 */
export function shareTarget(creditedMinor: bigint, refundedMinor: bigint, percentBps: number): bigint {
  const base = creditedMinor - refundedMinor;
  return base <= 0n ? 0n : (base * BigInt(percentBps)) / BigInt(MAX_SPLIT_BPS);
}

/** Where a share's money is. */
export interface ShareAmounts {
  /** In the merchant's split_held, waiting for the refund window. */
  held: bigint;
  /** Given to the partner (internal) or sent (external). */
  released: bigint;
  /** Could not go out (below the fee, a blocked address): back with the merchant. */
  returned: bigint;
}

export interface ShareMoves {
  /** Into held, from the money the caller offers (`room`). */
  hold: bigint;
  /** Out of held, back to the merchant. */
  unhold: bigint;
  /** Struck off what was returned (no money moves: the merchant has it). */
  forgive: bigint;
  /** Taken back from the partner it was released to (internal shares only). */
  clawBack: bigint;
}

/**
 * The moves that bring a share to `target`. A share grows into held, as far as `room` reaches
 * (what the settlement or the merchant's available offers). It shrinks from held first, then
 * from what was returned, then — only when `isReversible` (an internal partner) — from what the
 * partner received; an external share already sent cannot shrink below what was sent.
 */
export function planShareMoves(share: ShareAmounts & { isReversible: boolean }, target: bigint, room: bigint): ShareMoves {
  const moves: ShareMoves = { hold: 0n, unhold: 0n, forgive: 0n, clawBack: 0n };
  const total = share.held + share.released + share.returned;
  if (target > total) {
    moves.hold = min(target - total, room > 0n ? room : 0n);
    return moves;
  }
  let excess = total - target;
  moves.unhold = min(excess, share.held);
  excess -= moves.unhold;
  moves.forgive = min(excess, share.returned);
  excess -= moves.forgive;
  if (share.isReversible) moves.clawBack = min(excess, share.released);
  return moves;
}

/** A share's amounts after its moves. */
export function applyShareMoves(share: ShareAmounts, moves: ShareMoves): ShareAmounts {
  return {
    held: share.held + moves.hold - moves.unhold,
    released: share.released - moves.clawBack,
    returned: share.returned - moves.forgive,
  };
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
