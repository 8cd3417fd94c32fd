-- Static wallets: a permanent deposit address for a merchant's customer (order_id) in one coin on
-- one network. Every confirmed deposit is credited once, net of the platform fee; once the wallet
-- is blocked, later deposits are held for the blocked-address refund instead.
CREATE TABLE "static_wallets" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "order_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "address_index" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'active',
    "url_callback" TEXT,
    "fee_percent_bps" INTEGER NOT NULL,
    "fee_fixed_usd_minor" DECIMAL(78,0) NOT NULL,
    "fee_fixed_asset_minor" DECIMAL(78,0) NOT NULL,
    "usd_unit_minor" DECIMAL(78,0) NOT NULL,
    "refunds" INTEGER NOT NULL DEFAULT 0,
    "blocked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "static_wallets_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "static_wallets_status_check" CHECK (("status" = 'active' AND "blocked_at" IS NULL) OR ("status" = 'blocked' AND "blocked_at" IS NOT NULL)),
    CONSTRAINT "static_wallets_fee_check" CHECK ("fee_percent_bps" >= 0 AND "fee_fixed_usd_minor" >= 0 AND "fee_fixed_asset_minor" >= 0 AND "usd_unit_minor" > 0)
);
CREATE UNIQUE INDEX "static_wallets_merchant_id_order_id_currency_network_key" ON "static_wallets"("merchant_id", "order_id", "currency", "network");
CREATE UNIQUE INDEX "static_wallets_network_address_key" ON "static_wallets"("network", "address");
CREATE INDEX "static_wallets_merchant_id_created_at_idx" ON "static_wallets"("merchant_id", "created_at");
ALTER TABLE "static_wallets" ADD CONSTRAINT "static_wallets_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A deposit to a static wallet's address: linked to the wallet instead of an invoice; held when
-- it arrived after the wallet was blocked, and then bound to the refund payout that returns it.
ALTER TABLE "chain_transfers" ADD COLUMN "static_wallet_id" UUID;
ALTER TABLE "chain_transfers" ADD COLUMN "is_held" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "chain_transfers" ADD COLUMN "refund_payout_id" UUID;
ALTER TABLE "chain_transfers" ADD CONSTRAINT "chain_transfers_owner_check" CHECK ("invoice_id" IS NULL OR "static_wallet_id" IS NULL);
ALTER TABLE "chain_transfers" ADD CONSTRAINT "chain_transfers_held_check" CHECK ("is_held" OR "refund_payout_id" IS NULL);
CREATE INDEX "chain_transfers_static_wallet_id_idx" ON "chain_transfers"("static_wallet_id");
CREATE INDEX "chain_transfers_refund_payout_id_idx" ON "chain_transfers"("refund_payout_id");
ALTER TABLE "chain_transfers" ADD CONSTRAINT "chain_transfers_static_wallet_id_fkey" FOREIGN KEY ("static_wallet_id") REFERENCES "static_wallets"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The held deposits of a blocked wallet go back as a payout of kind 'wallet_refund'.
ALTER TABLE "payouts" ADD COLUMN "static_wallet_id" UUID;
CREATE INDEX "payouts_static_wallet_id_idx" ON "payouts"("static_wallet_id");
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_static_wallet_id_fkey" FOREIGN KEY ("static_wallet_id") REFERENCES "static_wallets"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
ALTER TABLE "payouts" DROP CONSTRAINT "payouts_kind_check";
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_kind_check"
  CHECK (("kind" = 'payout' AND "invoice_id" IS NULL AND "static_wallet_id" IS NULL) OR
         ("kind" IN ('refund', 'split') AND "invoice_id" IS NOT NULL AND "static_wallet_id" IS NULL) OR
         ("kind" = 'wallet_refund' AND "invoice_id" IS NULL AND "static_wallet_id" IS NOT NULL));
ALTER TABLE "chain_transfers" ADD CONSTRAINT "chain_transfers_refund_payout_id_fkey" FOREIGN KEY ("refund_payout_id") REFERENCES "payouts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Deposits held for a blocked wallet's refund: never the merchant's to spend.
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_bucket_check";
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_bucket_check"
  CHECK ("bucket" IN ('chain', 'incoming', 'maturing', 'available', 'payout_held', 'split_held', 'blocked_held', 'fees', 'payout_fees', 'network_fees', 'conversions', 'debt'));
