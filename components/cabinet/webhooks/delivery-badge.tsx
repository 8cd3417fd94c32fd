import { StatusBadge } from "@/components/cabinet/page-kit";

/** A webhook delivery's status in the words of the delivery log. */
export const DELIVERY_BADGE_WORDS: Record<string, string> = { pending: "Pending", retrying: "Retrying", delivered: "Delivered", dead: "Dead" };

/** A delivery's status pill: `retrying` for a pending delivery that already failed. */
export function DeliveryBadge({ status }: { status: string }) {
  return <StatusBadge status={status} label={DELIVERY_BADGE_WORDS[status]} />;
}
