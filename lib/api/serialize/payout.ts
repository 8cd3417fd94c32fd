export { toPayoutObject, type PayoutObject } from "@/lib/services/payouts/payout-view";
