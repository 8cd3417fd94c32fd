-- Payouts: money a merchant sends out of its balance, sent as outgoing transfers.
ALTER TABLE "merchants" ADD COLUMN "payout_fee_on_top" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "merchants" ADD COLUMN "refund_fee_payer" TEXT NOT NULL DEFAULT 'merchant' CHECK ("refund_fee_payer" IN ('merchant', 'customer'));
ALTER TABLE "outgoing_transfers" ADD COLUMN "is_short_of_funds" BOOLEAN NOT NULL DEFAULT false;
-- One live outgoing transfer per transaction: identical bytes never pay for two purposes.
CREATE UNIQUE INDEX "outgoing_transfers_live_txid_key" ON "outgoing_transfers"("network", "txid")
  WHERE "txid" IS NOT NULL AND "status" NOT IN ('failed', 'replaced');

CREATE TABLE "payouts" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "order_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'payout',
    "invoice_id" UUID,
    "source" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "memo" TEXT,
    "amount_minor" DECIMAL(78,0) NOT NULL,
    "fee_minor" DECIMAL(78,0) NOT NULL,
    "debit_minor" DECIMAL(78,0) NOT NULL,
    "requested_amount" TEXT NOT NULL,
    "is_subtract" BOOLEAN NOT NULL,
    "url_callback" TEXT,
    "created_by" TEXT NOT NULL,
    "approved_by" TEXT,
    "approved_at" TIMESTAMPTZ(3),
    "txid" TEXT NOT NULL DEFAULT '',
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "failed_attempts" INTEGER NOT NULL DEFAULT 0,
    "wait_reason" TEXT NOT NULL DEFAULT '',
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payouts_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "payouts_status_check" CHECK ("status" IN ('pending', 'approved', 'broadcasting', 'sent', 'confirmed', 'failed', 'cancelled')),
    CONSTRAINT "payouts_source_check" CHECK ("source" IN ('api', 'manual')),
    CONSTRAINT "payouts_kind_check" CHECK (("kind" = 'payout' AND "invoice_id" IS NULL) OR ("kind" = 'refund' AND "invoice_id" IS NOT NULL)),
    CONSTRAINT "payouts_amounts_check" CHECK ("amount_minor" > 0 AND "fee_minor" >= 0 AND "debit_minor" = "amount_minor" + "fee_minor")
);
CREATE UNIQUE INDEX "payouts_merchant_id_order_id_key" ON "payouts"("merchant_id", "order_id");
CREATE INDEX "payouts_merchant_id_created_at_idx" ON "payouts"("merchant_id", "created_at");
CREATE INDEX "payouts_network_status_idx" ON "payouts"("network", "status");
CREATE INDEX "payouts_invoice_id_idx" ON "payouts"("invoice_id");
-- spec: refunds are idempotent by (payment, address, amount) while the refund is live.
CREATE UNIQUE INDEX "payouts_live_refund_key" ON "payouts"("invoice_id", "address", "requested_amount")
  WHERE "kind" = 'refund' AND "status" NOT IN ('failed', 'cancelled');
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Payout fees are platform income, apart from the fees taken at reception.
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_bucket_check";
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_bucket_check"
  CHECK ("bucket" IN ('chain', 'incoming', 'maturing', 'available', 'payout_held', 'fees', 'payout_fees', 'network_fees', 'debt'));
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_sign_check";
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_sign_check"
  CHECK (("owner" = 'platform' AND "bucket" <> 'debt') OR ("owner" <> 'platform' AND "bucket" NOT IN ('chain', 'fees', 'payout_fees', 'network_fees') AND
         CASE WHEN "bucket" = 'debt' THEN "balance" <= 0 ELSE "balance" >= 0 END));

-- A payout batch's payouts are created by whoever submitted it.
ALTER TABLE "batches" ADD COLUMN "created_by" TEXT;

-- The operator's deny list: addresses no payout, refund or claim may go to.
CREATE TABLE "compliance_blocks" (
    "id" UUID NOT NULL,
    "address" TEXT NOT NULL,
    "network" TEXT NOT NULL DEFAULT '*',
    "reason" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "compliance_blocks_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "compliance_blocks_address_network_key" ON "compliance_blocks"("address", "network");

-- Auto-withdraw: rules, and the matured credits they send out.
CREATE TABLE "auto_withdraw_rules" (
    "merchant_id" UUID NOT NULL,
    "currency" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "min_minor" DECIMAL(78,0) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "auto_withdraw_rules_pkey" PRIMARY KEY ("merchant_id","currency","network"),
    CONSTRAINT "auto_withdraw_rules_min_check" CHECK ("min_minor" >= 0)
);
CREATE TABLE "auto_withdrawals" (
    "lot_id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "currency" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "amount_minor" DECIMAL(78,0) NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'due',
    "payout_id" UUID,
    "reason" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "auto_withdrawals_pkey" PRIMARY KEY ("lot_id"),
    CONSTRAINT "auto_withdrawals_status_check" CHECK ("status" IN ('due', 'paid_out', 'skipped', 'blocked'))
);
CREATE INDEX "auto_withdrawals_status_idx" ON "auto_withdrawals"("status");

-- Payments that ended under- or overpaid: how they were settled, and the autorefund settings.
ALTER TABLE "invoices" ADD COLUMN "resolution" TEXT CHECK ("resolution" IN ('accepted', 'refunded'));
ALTER TABLE "merchants" ADD COLUMN "autorefund_underpaid_since" TIMESTAMPTZ(3);
ALTER TABLE "merchants" ADD COLUMN "autorefund_overpaid_since" TIMESTAMPTZ(3);
ALTER TABLE "invoices" ADD COLUMN "final_at" TIMESTAMPTZ(3);
UPDATE "invoices" SET "final_at" = "updated_at" WHERE "is_final";
CREATE TABLE "auto_refund_attempts" (
    "invoice_id" UUID NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "is_given_up" BOOLEAN NOT NULL DEFAULT false,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "last_error" TEXT NOT NULL DEFAULT '',
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "auto_refund_attempts_pkey" PRIMARY KEY ("invoice_id")
);

-- A merchant's own wallets, where transfers to a personal wallet go.
CREATE TABLE "personal_wallets" (
    "merchant_id" UUID NOT NULL,
    "currency" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "personal_wallets_pkey" PRIMARY KEY ("merchant_id","currency","network")
);
