export {
  PAYOUT_CONVERSION_SCHEMA,
  PAYOUT_SCHEMA,
  REFUND_ELEMENT_SCHEMA,
  REFUND_SCHEMA,
  toPayoutObject,
  toRefundElement,
  toRefundObject,
  type PayoutObject,
} from "@/lib/services/payouts/payout-view";
