/** Event types `trigger` can make happen on a sandbox chain, and what it does for each. */
export const TRIGGERABLE_EVENTS: Readonly<Record<string, string>> = {
  "invoice.paid": "an invoice paid in full with a sandbox deposit, confirmed by mined blocks",
  "invoice.paid_over": "an invoice paid twice its amount",
  "invoice.wrong_amount": "an invoice paid half its amount, then expired",
  "invoice.expired": "an invoice expired unpaid",
  "wallet.paid": "a static wallet credited with a confirmed sandbox deposit",
  "payout.pending": "a manual payout waiting for approval (the balance funded by a paid invoice when short)",
  "payout.cancelled": "a manual payout, cancelled",
  "payout.approved": "a payout made with the API's rights, approved at once",
  "payout.broadcasting": "a payout sent from the hot wallet",
  "payout.sent": "a payout sent and seen on the sandbox chain",
  "payout.confirmed": "a payout sent and confirmed by mined blocks",
};
