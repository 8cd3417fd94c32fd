-- Payment links: a merchant's public card and checkout, each checkout a new invoice.
CREATE TABLE "payment_links" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "amount_mode" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "amount_fixed" TEXT,
    "amount_min" TEXT,
    "amount_max" TEXT,
    "pinned_currency" TEXT,
    "pinned_network" TEXT,
    "url_callback" TEXT,
    "url_return" TEXT,
    "url_success" TEXT,
    "is_active" BOOLEAN NOT NULL DEFAULT true,
    "expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payment_links_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "payment_links_mode_check" CHECK (
      ("amount_mode" = 'fixed' AND "amount_fixed" IS NOT NULL AND "amount_min" IS NULL AND "amount_max" IS NULL) OR
      ("amount_mode" = 'open' AND "amount_fixed" IS NULL) OR
      ("amount_mode" = 'range' AND "amount_fixed" IS NULL AND ("amount_min" IS NOT NULL OR "amount_max" IS NOT NULL)))
);
CREATE INDEX "payment_links_merchant_id_created_at_idx" ON "payment_links"("merchant_id", "created_at");
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The link an invoice was checked out from.
ALTER TABLE "invoices" ADD COLUMN "payment_link_id" UUID;
CREATE INDEX "invoices_payment_link_id_idx" ON "invoices"("payment_link_id");
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_payment_link_id_fkey" FOREIGN KEY ("payment_link_id") REFERENCES "payment_links"("id") ON DELETE SET NULL ON UPDATE CASCADE;
