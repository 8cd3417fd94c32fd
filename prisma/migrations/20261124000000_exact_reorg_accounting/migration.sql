-- Credits are numbered per transfer, so a re-inclusion in the same block credits again.
ALTER TABLE "chain_transfers" ADD COLUMN "credits" INTEGER NOT NULL DEFAULT 0;
UPDATE "chain_transfers" SET "credits" = 1 WHERE "status" = 'confirmed';
ALTER TABLE "chain_transfers" ADD COLUMN "review_reason" TEXT;
UPDATE "chain_transfers" SET "review_reason" = 'other_asset' WHERE "invoice_id" IS NULL;
ALTER TABLE "chain_transfers" ADD CONSTRAINT "chain_transfers_status_check" CHECK ("status" IN ('seen', 'confirmed', 'orphaned'));

-- Confirmations sized by each transfer's value.
ALTER TABLE "invoices" ADD COLUMN "price_usd_minor" DECIMAL(78,0);

-- Invoices whose evaluation failed, set aside so the watcher moves on.
CREATE TABLE "invoice_reviews" (
    "invoice_id" UUID NOT NULL,
    "network" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 1,
    "last_error" TEXT NOT NULL,
    "first_failed_at" TIMESTAMPTZ(3) NOT NULL,
    "last_failed_at" TIMESTAMPTZ(3) NOT NULL,
    "resolved_at" TIMESTAMPTZ(3),

    CONSTRAINT "invoice_reviews_pkey" PRIMARY KEY ("invoice_id")
);
CREATE INDEX "invoice_reviews_resolved_at_idx" ON "invoice_reviews"("resolved_at");

-- One address counter per key tree: every EVM network derives from the same key (coin type 60),
-- so they share one counter and an address is never handed out on two EVM networks.
ALTER TABLE "address_counters" RENAME COLUMN "network" TO "key_tree";
INSERT INTO "address_counters" ("key_tree", "next_index")
  SELECT 'evm', MAX("next_index") FROM "address_counters"
  WHERE "key_tree" IN ('ethereum', 'bsc', 'polygon', 'arbitrum', 'base', 'optimism', 'avalanche')
  HAVING COUNT(*) > 0;
DELETE FROM "address_counters" WHERE "key_tree" IN ('ethereum', 'bsc', 'polygon', 'arbitrum', 'base', 'optimism', 'avalanche');

-- The ledger's buckets, and their signs, held by the database too: a merchant bucket never goes
-- below zero, except debt, which never goes above it.
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_bucket_check"
  CHECK ("bucket" IN ('chain', 'incoming', 'maturing', 'available', 'payout_held', 'fees', 'network_fees', 'debt'));
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_sign_check"
  CHECK (("owner" = 'platform' AND "bucket" <> 'debt') OR ("owner" <> 'platform' AND "bucket" NOT IN ('chain', 'fees', 'network_fees') AND
         CASE WHEN "bucket" = 'debt' THEN "balance" <= 0 ELSE "balance" >= 0 END));
