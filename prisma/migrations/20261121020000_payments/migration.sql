-- AlterTable
ALTER TABLE "merchants" ADD COLUMN "fee_percent_bps" INTEGER,
ADD COLUMN "fee_fixed_usd_minor" DECIMAL(78,0),
ADD COLUMN "accuracy_bps" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "invoices" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "order_id" TEXT,
    "status" TEXT NOT NULL,
    "is_final" BOOLEAN NOT NULL DEFAULT false,
    "price_currency" TEXT NOT NULL,
    "price_amount_minor" DECIMAL(78,0) NOT NULL,
    "payer_currency" TEXT,
    "network" TEXT,
    "address" TEXT,
    "address_index" INTEGER,
    "rate" TEXT,
    "rate_source" TEXT,
    "rate_expires_at" TIMESTAMPTZ(3),
    "payer_amount_minor" DECIMAL(78,0),
    "amount_paid_minor" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "settled_minor" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "fee_percent_bps" INTEGER NOT NULL,
    "fee_fixed_usd_minor" DECIMAL(78,0) NOT NULL,
    "fee_fixed_asset_minor" DECIMAL(78,0),
    "accuracy_bps" INTEGER NOT NULL,
    "subtract_percent" INTEGER NOT NULL DEFAULT 0,
    "is_payment_multiple" BOOLEAN NOT NULL DEFAULT true,
    "lifetime_seconds" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "confirmations" INTEGER NOT NULL DEFAULT 0,
    "required_confirmations" INTEGER NOT NULL DEFAULT 0,
    "txid" TEXT NOT NULL DEFAULT '',
    "payer_address" TEXT NOT NULL DEFAULT '',
    "url_callback" TEXT,
    "url_return" TEXT,
    "url_success" TEXT,
    "additional_data" TEXT,
    "payer_email" TEXT,
    "theme" TEXT,
    "settlements" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_accounts" (
    "id" UUID NOT NULL,
    "owner" TEXT NOT NULL,
    "asset" TEXT NOT NULL,
    "bucket" TEXT NOT NULL,
    "balance" DECIMAL(78,0) NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_journals" (
    "id" UUID NOT NULL,
    "reference" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_journals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ledger_postings" (
    "id" UUID NOT NULL,
    "journal_id" UUID NOT NULL,
    "account_id" UUID NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_postings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "maturity_lots" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "asset" TEXT NOT NULL,
    "amount" DECIMAL(78,0) NOT NULL,
    "matures_at" TIMESTAMPTZ(3) NOT NULL,
    "matured_at" TIMESTAMPTZ(3),
    "reference" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "maturity_lots_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chain_transfers" (
    "id" UUID NOT NULL,
    "network" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "txid" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "to_address" TEXT NOT NULL,
    "from_address" TEXT NOT NULL DEFAULT '',
    "amount_minor" DECIMAL(78,0) NOT NULL,
    "block_height" INTEGER,
    "block_hash" TEXT,
    "confirmations" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'seen',
    "invoice_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chain_transfers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "address_counters" (
    "network" TEXT NOT NULL,
    "next_index" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "address_counters_pkey" PRIMARY KEY ("network")
);

-- CreateTable
CREATE TABLE "chain_cursors" (
    "network" TEXT NOT NULL,
    "height" INTEGER NOT NULL,
    "block_hash" TEXT NOT NULL DEFAULT '',
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chain_cursors_pkey" PRIMARY KEY ("network")
);

-- CreateTable
CREATE TABLE "sandbox_blocks" (
    "network" TEXT NOT NULL,
    "height" INTEGER NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_blocks_pkey" PRIMARY KEY ("network","height")
);

-- CreateTable
CREATE TABLE "sandbox_transactions" (
    "id" UUID NOT NULL,
    "network" TEXT NOT NULL,
    "txid" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "from_address" TEXT NOT NULL,
    "to_address" TEXT NOT NULL,
    "amount_minor" DECIMAL(78,0) NOT NULL,
    "block_height" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "accepted_methods" (
    "merchant_id" UUID NOT NULL,
    "currency" TEXT NOT NULL,
    "network" TEXT NOT NULL,

    CONSTRAINT "accepted_methods_pkey" PRIMARY KEY ("merchant_id","currency","network")
);

-- CreateTable
CREATE TABLE "batches" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "on_error" TEXT NOT NULL,
    "total" INTEGER NOT NULL,
    "succeeded" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "lease_until" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "batches_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "batch_items" (
    "batch_id" UUID NOT NULL,
    "idx" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "order_id" TEXT,
    "request" TEXT NOT NULL,
    "result" TEXT,
    "error" TEXT,

    CONSTRAINT "batch_items_pkey" PRIMARY KEY ("batch_id","idx")
);

-- CreateTable
CREATE TABLE "outbound_emails" (
    "id" UUID NOT NULL,
    "merchant_id" UUID,
    "recipient" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "html" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT NOT NULL DEFAULT '',
    "lease_until" TIMESTAMPTZ(3),
    "sent_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbound_emails_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outgoing_transfers" (
    "id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "reference" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "from_address" TEXT NOT NULL,
    "from_index" INTEGER NOT NULL,
    "to_address" TEXT NOT NULL,
    "amount_minor" DECIMAL(78,0) NOT NULL,
    "covered_minor" DECIMAL(78,0) NOT NULL,
    "fee_minor" DECIMAL(78,0),
    "txid" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outgoing_transfers_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "outgoing_transfers_reference_key" ON "outgoing_transfers"("reference");

-- CreateIndex
CREATE INDEX "outgoing_transfers_network_status_idx" ON "outgoing_transfers"("network", "status");

-- CreateIndex
CREATE INDEX "invoices_merchant_id_order_id_idx" ON "invoices"("merchant_id", "order_id");

-- CreateIndex
CREATE INDEX "invoices_merchant_id_created_at_idx" ON "invoices"("merchant_id", "created_at");

-- CreateIndex
CREATE INDEX "invoices_status_expires_at_idx" ON "invoices"("status", "expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "invoices_network_address_key" ON "invoices"("network", "address");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_accounts_owner_asset_bucket_key" ON "ledger_accounts"("owner", "asset", "bucket");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_journals_reference_key" ON "ledger_journals"("reference");

-- CreateIndex
CREATE INDEX "ledger_postings_journal_id_idx" ON "ledger_postings"("journal_id");

-- CreateIndex
CREATE INDEX "ledger_postings_account_id_idx" ON "ledger_postings"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "maturity_lots_reference_key" ON "maturity_lots"("reference");

-- CreateIndex
CREATE INDEX "maturity_lots_matured_at_matures_at_idx" ON "maturity_lots"("matured_at", "matures_at");

-- CreateIndex
CREATE INDEX "chain_transfers_invoice_id_idx" ON "chain_transfers"("invoice_id");

-- CreateIndex
CREATE INDEX "chain_transfers_network_status_idx" ON "chain_transfers"("network", "status");

-- CreateIndex
CREATE UNIQUE INDEX "chain_transfers_network_txid_position_key" ON "chain_transfers"("network", "txid", "position");

-- CreateIndex
CREATE UNIQUE INDEX "sandbox_transactions_txid_key" ON "sandbox_transactions"("txid");

-- CreateIndex
CREATE INDEX "sandbox_transactions_network_block_height_idx" ON "sandbox_transactions"("network", "block_height");

-- CreateIndex
CREATE INDEX "batches_status_idx" ON "batches"("status");

-- CreateIndex
CREATE INDEX "outbound_emails_status_created_at_idx" ON "outbound_emails"("status", "created_at");

-- AddForeignKey
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_journal_id_fkey" FOREIGN KEY ("journal_id") REFERENCES "ledger_journals"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "ledger_accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "chain_transfers" ADD CONSTRAINT "chain_transfers_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "accepted_methods" ADD CONSTRAINT "accepted_methods_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "batches" ADD CONSTRAINT "batches_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "batch_items" ADD CONSTRAINT "batch_items_batch_id_fkey" FOREIGN KEY ("batch_id") REFERENCES "batches"("id") ON DELETE CASCADE ON UPDATE CASCADE;
