-- Payout links (crypto checks): a reserve a recipient claims with an address, by a one-time token.
CREATE TABLE "payout_links" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "status" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "amount_minor" DECIMAL(78,0) NOT NULL,
    "title" TEXT NOT NULL DEFAULT '',
    "note" TEXT NOT NULL DEFAULT '',
    "reference" TEXT,
    "email" TEXT,
    "token_hash" TEXT NOT NULL,
    "batch_id" UUID,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "claim_address" TEXT,
    "claim_memo" TEXT,
    "claiming_at" TIMESTAMPTZ(3),
    "payout_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "payout_links_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "payout_links_status_check" CHECK ("status" IN ('funded', 'claiming', 'claimed', 'expired', 'cancelled')),
    CONSTRAINT "payout_links_amount_check" CHECK ("amount_minor" > 0),
    -- Bound to an address from the claim on; a payout once claimed.
    CONSTRAINT "payout_links_claim_check" CHECK (
      ("status" IN ('funded', 'expired', 'cancelled') AND "payout_id" IS NULL) OR
      ("status" = 'claiming' AND "claim_address" IS NOT NULL AND "payout_id" IS NULL) OR
      ("status" = 'claimed' AND "claim_address" IS NOT NULL AND "payout_id" IS NOT NULL))
);
CREATE UNIQUE INDEX "payout_links_token_hash_key" ON "payout_links"("token_hash");
CREATE UNIQUE INDEX "payout_links_merchant_id_reference_key" ON "payout_links"("merchant_id", "reference");
CREATE INDEX "payout_links_merchant_id_created_at_idx" ON "payout_links"("merchant_id", "created_at");
CREATE INDEX "payout_links_status_expires_at_idx" ON "payout_links"("status", "expires_at");
ALTER TABLE "payout_links" ADD CONSTRAINT "payout_links_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
