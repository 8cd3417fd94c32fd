import type { ApiKeyKind } from "@/lib/auth/api-key-identity";
import type { OperationEntry } from "./operation";
import { getCurrenciesOp } from "./ops/catalogue/get-currencies";
import { listPaymentServicesOp, listPayoutServicesOp } from "./ops/catalogue/list-services";
import { listExchangeRatesOp } from "./ops/catalogue/list-exchange-rates";
import {
  getWebhookOp,
  legacyTestingWebhookOp,
  listWebhookDeliveriesOp,
  registerWebhookOp,
  rotateWebhookSecretOp,
  testPaymentWebhookOp,
  testPayoutWebhookOp,
  testWalletWebhookOp,
} from "./ops/webhooks/webhook-ops";
import { createPaymentOp, paymentHistoryOp, paymentInfoOp, paymentListOp, paymentQrOp, paymentResendOp, sendPaymentEmailOp } from "./ops/payments/payment-ops";
import { blockStaticWalletOp, createStaticWalletOp, listStaticWalletsOp, refundBlockedWalletOp, staticWalletInfoOp, staticWalletQrOp } from "./ops/wallets/wallet-ops";
import { listAcceptedOp, setAcceptedOp } from "./ops/payments/accepted-ops";
import { batchInfoOp, createPaymentBatchOp, createPayoutBatchOp, createRefundBatchOp } from "./ops/payments/batch-ops";
import { getHostedPaymentOp, sandboxPayOp, selectHostedPaymentOp } from "./ops/payments/pay-ops";
import { checkoutPaymentLinkOp, createPaymentLinkOp, getPublicLinkOp, listPaymentLinksOp, paymentLinkInfoOp, togglePaymentLinkOp } from "./ops/payments/payment-link-ops";
import { sandboxDepositOp, sandboxExpireOp, sandboxMineOp } from "./ops/sandbox/sandbox-ops";
import {
  approvePayoutOp,
  balanceOp,
  calculatePayoutOp,
  cancelPayoutOp,
  createPayoutOp,
  getPayoutFeeConfigOp,
  listPayoutsOp,
  massPayoutOp,
  listAutoWithdrawOp,
  setAutoWithdrawOp,
  deleteAutoWithdrawOp,
  payoutInfoOp,
  setPayoutFeeConfigOp,
} from "./ops/payouts/payout-ops";
import { createRefundOp, getAutorefundOp, getRefundFeeConfigOp, resolvePaymentOp, setAutorefundOp, setRefundFeeConfigOp } from "./ops/refunds/refund-ops";
import { cancelPayoutLinkOp, claimPayoutLinkOp, createPayoutLinkBatchOp, createPayoutLinkOp, getClaimCardOp, listPayoutLinksOp, payoutLinkInfoOp } from "./ops/payouts/payout-link-ops";
import { createSplitRuleOp, deleteSplitRuleOp, getSplitConfigOp, listSplitRulesOp, setSplitConfigOp } from "./ops/splits/split-ops";
import { openApiDocumentOp } from "./ops/meta/openapi-op";
import { eventInfoOp, listEventsOp, redeliverEventOp } from "./ops/events/events-ops";
import { addAllowlistEntryOp, enableAllowlistOp, listAllowlistOp, removeAllowlistEntryOp } from "./ops/allowlist/allowlist-ops";

// Who may call what (spec: operator contract §2). `unified` may call everything signed.
const PAYMENT_KEYS: readonly ApiKeyKind[] = ["unified", "payment"];
const PAYOUT_KEYS: readonly ApiKeyKind[] = ["unified", "payout"];
const UNIFIED_ONLY: readonly ApiKeyKind[] = ["unified"];
// Batches serve both sides (payment, refund and payout batches); the owner check is per batch.
const UNIFIED_AND_SPLIT: readonly ApiKeyKind[] = ["unified", "payment", "payout"];

const PUBLIC = { kind: "public" } as const;
const signed = (keys: readonly ApiKeyKind[]) => ({ kind: "signed", keys }) as const;

/**
 * THE operation table: every /v1 operation, its method and path, who may call it, whether it
 * honours Idempotency-Key, and how its result is wrapped. The conformance tests iterate it.
 */
export const OPERATIONS: readonly OperationEntry[] = [
  // Invoices
  { method: "POST", path: "/v1/payment", auth: signed(PAYMENT_KEYS), idempotent: true, envelope: "standard", operation: createPaymentOp },
  { method: "POST", path: "/v1/payment/info", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: paymentInfoOp },
  { method: "POST", path: "/v1/payment/list", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: paymentListOp },
  { method: "POST", path: "/v1/payment/send-email", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: sendPaymentEmailOp },
  { method: "POST", path: "/v1/payment/resend", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: paymentResendOp },
  { method: "POST", path: "/v1/payment/history", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: paymentHistoryOp },
  { method: "POST", path: "/v1/payment/qr", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: paymentQrOp },
  { method: "POST", path: "/v1/payment/batch", auth: signed(PAYMENT_KEYS), idempotent: true, envelope: "standard", operation: createPaymentBatchOp },
  { method: "POST", path: "/v1/batch/info", auth: signed(UNIFIED_AND_SPLIT), idempotent: false, envelope: "standard", operation: batchInfoOp },
  { method: "POST", path: "/v1/payment/accepted/list", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: listAcceptedOp },
  { method: "POST", path: "/v1/payment/accepted/set", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: setAcceptedOp },

  // Payment links
  { method: "POST", path: "/v1/payment/link", auth: signed(PAYMENT_KEYS), idempotent: true, envelope: "standard", operation: createPaymentLinkOp },
  { method: "POST", path: "/v1/payment/link/list", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: listPaymentLinksOp },
  { method: "POST", path: "/v1/payment/link/info", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: paymentLinkInfoOp },
  { method: "POST", path: "/v1/payment/link/toggle", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: togglePaymentLinkOp },
  { method: "GET", path: "/v1/link/{id}", auth: PUBLIC, idempotent: false, envelope: "standard", operation: getPublicLinkOp },
  { method: "POST", path: "/v1/link/{id}/checkout", auth: PUBLIC, idempotent: false, envelope: "standard", operation: checkoutPaymentLinkOp },

  // Static wallets (operator contract §2: payment keys may call them)
  { method: "POST", path: "/v1/wallet", auth: signed(PAYMENT_KEYS), idempotent: true, envelope: "standard", operation: createStaticWalletOp },
  { method: "POST", path: "/v1/wallet/info", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: staticWalletInfoOp },
  { method: "POST", path: "/v1/wallet/list", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: listStaticWalletsOp },
  { method: "POST", path: "/v1/wallet/qr", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: staticWalletQrOp },
  { method: "POST", path: "/v1/wallet/block", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: blockStaticWalletOp },
  { method: "POST", path: "/v1/wallet/blocked-address-refund", auth: signed(PAYMENT_KEYS), idempotent: true, envelope: "standard", operation: refundBlockedWalletOp },

  // Refunds
  { method: "POST", path: "/v1/payment/refund", auth: signed(PAYMENT_KEYS), idempotent: true, envelope: "standard", operation: createRefundOp },
  { method: "POST", path: "/v1/refund/batch", auth: signed(PAYMENT_KEYS), idempotent: true, envelope: "standard", operation: createRefundBatchOp },
  { method: "POST", path: "/v1/payment/resolve", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: resolvePaymentOp },
  { method: "POST", path: "/v1/payment/autorefund/get", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: getAutorefundOp },
  { method: "POST", path: "/v1/payment/autorefund/set", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: setAutorefundOp },
  { method: "POST", path: "/v1/refund/fee-config/get", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: getRefundFeeConfigOp },
  { method: "POST", path: "/v1/refund/fee-config/set", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: setRefundFeeConfigOp },

  // Payouts and balances
  { method: "POST", path: "/v1/payout", auth: signed(PAYOUT_KEYS), idempotent: true, envelope: "standard", operation: createPayoutOp },
  { method: "POST", path: "/v1/payout/batch", auth: signed(PAYOUT_KEYS), idempotent: true, envelope: "standard", operation: createPayoutBatchOp },
  { method: "POST", path: "/v1/payout/mass", auth: signed(PAYOUT_KEYS), idempotent: true, envelope: "standard", operation: massPayoutOp },
  { method: "POST", path: "/v1/payout/info", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: payoutInfoOp },
  { method: "POST", path: "/v1/payout/list", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: listPayoutsOp },
  { method: "POST", path: "/v1/payout/approve", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: approvePayoutOp },
  { method: "POST", path: "/v1/payout/cancel", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: cancelPayoutOp },
  { method: "POST", path: "/v1/payout/calculate", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: calculatePayoutOp },
  { method: "POST", path: "/v1/payout/fee-config/get", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: getPayoutFeeConfigOp },
  { method: "POST", path: "/v1/payout/fee-config/set", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: setPayoutFeeConfigOp },
  { method: "POST", path: "/v1/auto-withdraw/list", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: listAutoWithdrawOp },
  { method: "POST", path: "/v1/auto-withdraw/set", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: setAutoWithdrawOp },
  { method: "POST", path: "/v1/auto-withdraw/delete", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: deleteAutoWithdrawOp },
  { method: "POST", path: "/v1/balance", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: balanceOp },

  // Payout links (spec: Idempotency-Key has no effect; deduplication is by reference)
  { method: "POST", path: "/v1/payout/link", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: createPayoutLinkOp },
  { method: "POST", path: "/v1/payout/link/batch", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: createPayoutLinkBatchOp },
  { method: "POST", path: "/v1/payout/link/list", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: listPayoutLinksOp },
  { method: "POST", path: "/v1/payout/link/info", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: payoutLinkInfoOp },
  { method: "POST", path: "/v1/payout/link/cancel", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: cancelPayoutLinkOp },
  { method: "GET", path: "/v1/claim/{token}", auth: PUBLIC, idempotent: false, envelope: "standard", operation: getClaimCardOp },
  { method: "POST", path: "/v1/claim/{token}", auth: PUBLIC, idempotent: false, envelope: "standard", operation: claimPayoutLinkOp },

  // Split rules (they send money to partners: payout keys)
  { method: "POST", path: "/v1/split/rule", auth: signed(PAYOUT_KEYS), idempotent: true, envelope: "standard", operation: createSplitRuleOp },
  { method: "POST", path: "/v1/split/rule/list", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: listSplitRulesOp },
  { method: "POST", path: "/v1/split/rule/delete", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: deleteSplitRuleOp },
  { method: "POST", path: "/v1/split/config/get", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: getSplitConfigOp },
  { method: "POST", path: "/v1/split/config/set", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: setSplitConfigOp },

  // Hosted payment page (public)
  { method: "GET", path: "/v1/pay/{id}", auth: PUBLIC, idempotent: false, envelope: "standard", operation: getHostedPaymentOp },
  { method: "POST", path: "/v1/pay/{id}/select", auth: PUBLIC, idempotent: false, envelope: "standard", operation: selectHostedPaymentOp },
  { method: "POST", path: "/v1/pay/{id}/sandbox-pay", auth: PUBLIC, idempotent: false, envelope: "standard", operation: sandboxPayOp },

  // Sandbox chains (operator contract §3); 404 when sandbox mode is off
  { method: "POST", path: "/v1/sandbox/deposit", auth: signed(UNIFIED_ONLY), idempotent: false, envelope: "standard", operation: sandboxDepositOp },
  { method: "POST", path: "/v1/sandbox/mine", auth: signed(UNIFIED_ONLY), idempotent: false, envelope: "standard", operation: sandboxMineOp },
  { method: "POST", path: "/v1/sandbox/expire", auth: signed(UNIFIED_ONLY), idempotent: false, envelope: "standard", operation: sandboxExpireOp },

  // Catalogue
  { method: "GET", path: "/v1/currencies", auth: PUBLIC, idempotent: false, envelope: "bare", operation: getCurrenciesOp },
  { method: "POST", path: "/v1/payment/services", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: listPaymentServicesOp },
  { method: "POST", path: "/v1/payout/services", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: listPayoutServicesOp },
  { method: "POST", path: "/v1/exchange-rate/list", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: listExchangeRatesOp },

  // Webhooks
  { method: "POST", path: "/v1/webhooks", auth: signed(UNIFIED_ONLY), idempotent: false, envelope: "created", operation: registerWebhookOp },
  { method: "POST", path: "/v1/webhooks/info", auth: signed(UNIFIED_ONLY), idempotent: false, envelope: "standard", operation: getWebhookOp },
  { method: "POST", path: "/v1/webhooks/rotate-secret", auth: signed(UNIFIED_ONLY), idempotent: false, envelope: "standard", operation: rotateWebhookSecretOp },
  { method: "POST", path: "/v1/webhooks/deliveries", auth: signed(UNIFIED_ONLY), idempotent: false, envelope: "standard", operation: listWebhookDeliveriesOp },
  { method: "POST", path: "/v1/payment/testing-webhook", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: legacyTestingWebhookOp },
  { method: "POST", path: "/v1/test-webhook/payment", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: testPaymentWebhookOp },
  { method: "POST", path: "/v1/test-webhook/wallet", auth: signed(PAYMENT_KEYS), idempotent: false, envelope: "standard", operation: testWalletWebhookOp },
  { method: "POST", path: "/v1/test-webhook/payout", auth: signed(PAYOUT_KEYS), idempotent: false, envelope: "standard", operation: testPayoutWebhookOp },

  // Events (every webhook event, kept 30 days; redelivery is not idempotent: each call is a new delivery)
  { method: "POST", path: "/v1/events/list", auth: signed(UNIFIED_ONLY), idempotent: false, envelope: "standard", operation: listEventsOp },
  { method: "POST", path: "/v1/events/info", auth: signed(UNIFIED_ONLY), idempotent: false, envelope: "standard", operation: eventInfoOp },
  { method: "POST", path: "/v1/events/redeliver", auth: signed(UNIFIED_ONLY), idempotent: false, envelope: "standard", operation: redeliverEventOp },

  // IP allow-list
  { method: "POST", path: "/v1/api-allowlist/list", auth: signed(UNIFIED_ONLY), idempotent: false, envelope: "standard", operation: listAllowlistOp },
  { method: "POST", path: "/v1/api-allowlist/add", auth: signed(UNIFIED_ONLY), idempotent: false, envelope: "standard", operation: addAllowlistEntryOp },
  { method: "POST", path: "/v1/api-allowlist/remove", auth: signed(UNIFIED_ONLY), idempotent: false, envelope: "standard", operation: removeAllowlistEntryOp },
  { method: "POST", path: "/v1/api-allowlist/enable", auth: signed(UNIFIED_ONLY), idempotent: false, envelope: "standard", operation: enableAllowlistOp },

  // This API's own document
  { method: "GET", path: "/v1/openapi.json", auth: PUBLIC, idempotent: false, envelope: "bare", operation: openApiDocumentOp },
];
