-- Split rules: a percentage of each incoming payment goes to a partner, after a refund hold window.
ALTER TABLE "merchants" ADD COLUMN "split_refund_hold_hours" INTEGER NOT NULL DEFAULT 72
  CHECK ("split_refund_hold_hours" BETWEEN 0 AND 2160);

CREATE TABLE "split_rules" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "percent_bps" INTEGER NOT NULL,
    "partner_merchant_id" UUID,
    "address" TEXT,
    "network" TEXT,
    "note" TEXT NOT NULL DEFAULT '',
    "active" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "split_rules_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "split_rules_percent_check" CHECK ("percent_bps" > 0 AND "percent_bps" <= 10000),
    -- Exactly one recipient: another merchant of this service, or an address on a network.
    CONSTRAINT "split_rules_recipient_check" CHECK (
      ("partner_merchant_id" IS NOT NULL AND "address" IS NULL AND "network" IS NULL) OR
      ("partner_merchant_id" IS NULL AND "address" IS NOT NULL AND "network" IS NOT NULL)),
    CONSTRAINT "split_rules_not_self_check" CHECK ("partner_merchant_id" IS NULL OR "partner_merchant_id" <> "merchant_id")
);
CREATE INDEX "split_rules_merchant_id_active_idx" ON "split_rules"("merchant_id", "active");
ALTER TABLE "split_rules" ADD CONSTRAINT "split_rules_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "split_rules" ADD CONSTRAINT "split_rules_partner_merchant_id_fkey" FOREIGN KEY ("partner_merchant_id") REFERENCES "merchants"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- One share per (payment, rule): what the partner is owed of that payment, and where it is.
CREATE TABLE "split_shares" (
    "id" UUID NOT NULL,
    "invoice_id" UUID NOT NULL,
    "rule_id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "partner_merchant_id" UUID,
    "address" TEXT,
    "network" TEXT,
    "asset" TEXT NOT NULL,
    "percent_bps" INTEGER NOT NULL,
    "credited_minor" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "held_minor" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "released_minor" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "returned_minor" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "moves" INTEGER NOT NULL DEFAULT 0,
    "release_at" TIMESTAMPTZ(3) NOT NULL,
    "reason" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "split_shares_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "split_shares_amounts_check" CHECK ("credited_minor" >= 0 AND "held_minor" >= 0 AND "released_minor" >= 0 AND "returned_minor" >= 0)
);
CREATE UNIQUE INDEX "split_shares_invoice_id_rule_id_key" ON "split_shares"("invoice_id", "rule_id");
CREATE INDEX "split_shares_release_at_idx" ON "split_shares"("release_at") WHERE "held_minor" > 0;
CREATE INDEX "split_shares_partner_merchant_id_idx" ON "split_shares"("partner_merchant_id");
ALTER TABLE "split_shares" ADD CONSTRAINT "split_shares_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "split_shares" ADD CONSTRAINT "split_shares_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "split_rules"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- An external share goes out as a payout of kind 'split', tied to the payment it came from.
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_kind_check";
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_kind_check"
  CHECK (("kind" = 'payout' AND "invoice_id" IS NULL) OR ("kind" IN ('refund', 'split') AND "invoice_id" IS NOT NULL));

-- Shares held for partners until the refund window ends.
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_bucket_check";
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_bucket_check"
  CHECK ("bucket" IN ('chain', 'incoming', 'maturing', 'available', 'payout_held', 'split_held', 'fees', 'payout_fees', 'network_fees', 'debt'));
