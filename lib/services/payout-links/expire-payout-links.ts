import type { Db, Tx } from "@/lib/db/client";
import { CLAIMING_TIMEOUT_MS } from "@/lib/domain/payout-link/link-status";
import { endFundedLink, lockLink } from "./payout-link-records";

/** Funded links whose term has passed at `now`, for the expiry pass (lib/jobs/handlers/expire-payout-links). */
export async function listLinksPastTerm(db: Db, now: Date, limit: number): Promise<string[]> {
  const due = await db.payoutLink.findMany({ where: { status: "funded", expiresAt: { lte: now } }, select: { id: true }, take: limit });
  return due.map((link) => link.id);
}

/** A funded link past its term expires, its reserve returned once; false when it was claimed or cancelled meanwhile. */
export async function expirePayoutLink(tx: Tx, id: string, now: Date): Promise<boolean> {
  const link = await lockLink(tx, id);
  if (link.status !== "funded" || link.expiresAt > now) return false;
  await endFundedLink(tx, link, "expired", now);
  return true;
}

/** When a claim still `claiming` at `now` is taken for stuck: CLAIMING_TIMEOUT_MS after it bound its address. */
export function stuckClaimCutoff(now: Date): Date {
  return new Date(now.getTime() - CLAIMING_TIMEOUT_MS);
}

/** Links claiming since before `cutoff`: claims a crash left between binding the address and making the payout. */
export async function listStuckClaims(db: Db, cutoff: Date, limit: number): Promise<string[]> {
  const stuck = await db.payoutLink.findMany({ where: { status: "claiming", claimingAt: { lte: cutoff } }, select: { id: true }, take: limit });
  return stuck.map((link) => link.id);
}

/**
 * A claim stuck in `claiming` goes back to funded for the recipient to claim again: a claim's
 * payout and its `claimed` commit together, so one still claiming has no payout. False when it
 * finished, or was claimed anew, meanwhile.
 */
export async function reapStuckClaim(tx: Tx, id: string, cutoff: Date, now: Date): Promise<boolean> {
  const link = await lockLink(tx, id);
  if (link.status !== "claiming" || !link.claimingAt || link.claimingAt > cutoff) return false;
  await tx.payoutLink.update({ where: { id }, data: { status: "funded", claimAddress: null, claimMemo: null, claimingAt: null, updatedAt: now } });
  return true;
}
