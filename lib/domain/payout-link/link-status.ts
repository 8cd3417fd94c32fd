import type { PayoutLink } from "@/generated/prisma/client";

/** spec: Payout link status. */
export type PayoutLinkStatus = "funded" | "claiming" | "claimed" | "expired" | "cancelled";

export const PAYOUT_LINK_STATUSES = ["funded", "claiming", "claimed", "expired", "cancelled"] as const satisfies readonly PayoutLinkStatus[];

/** spec: Limits — 1 to 720 hours; omitted or 0 gives 1 hour. */
export function clampLinkHours(hours: number | undefined): number {
  if (hours === undefined || !Number.isFinite(hours) || hours < 1) return 1;
  return Math.min(Math.floor(hours), 720);
}

/** spec: stuck `claiming` over 15 minutes is resolved by the reaper. */
export const CLAIMING_TIMEOUT_MS = 15 * 60_000;

/** A funded link whose term passed is expired for the recipient, even before the poller gets to it. */
export function effectiveStatus(link: PayoutLink, now: Date): PayoutLinkStatus {
  return link.status === "funded" && link.expiresAt <= now ? "expired" : (link.status as PayoutLinkStatus);
}

/** The claim page of a link: what the recipient is sent. */
export function claimPageUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/pay/claim/${token}`;
}
