import type { PaymentLink } from "@/generated/prisma/client";

/** How a link's amount is set. */
export const AMOUNT_MODES = ["fixed", "open", "range"] as const;
export type AmountMode = (typeof AMOUNT_MODES)[number];

/** The buyer's checkout page of a link: `{pay_url}/link/{id}`. */
export function checkoutPageUrl(publicBaseUrl: string, linkId: string): string {
  return `${publicBaseUrl}/pay/link/${linkId}`;
}

/** Whether a link's term is over: it takes no more checkouts. */
export function isExpired(link: Pick<PaymentLink, "expiresAt">, now: Date): boolean {
  return link.expiresAt !== null && link.expiresAt <= now;
}
