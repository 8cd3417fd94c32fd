-- One policy for every kind of money out: why a pending payout is held, when the service approves
-- one that waits, when a control last loosened (freeze), and the owner's thresholds per asset.
ALTER TABLE "payouts" ADD COLUMN "hold_reason" TEXT NOT NULL DEFAULT '';
ALTER TABLE "payouts" ADD COLUMN "auto_approve_at" TIMESTAMPTZ(3);
CREATE INDEX "payouts_auto_approve_at_idx" ON "payouts"("auto_approve_at");
ALTER TABLE "merchants" ADD COLUMN "controls_changed_at" TIMESTAMPTZ(3);

CREATE TABLE "money_out_thresholds" (
    "merchant_id" UUID NOT NULL,
    "asset" TEXT NOT NULL,
    "per_payout_minor" DECIMAL(78,0),
    "per_day_minor" DECIMAL(78,0),
    "updated_by" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "money_out_thresholds_pkey" PRIMARY KEY ("merchant_id","asset")
);
ALTER TABLE "money_out_thresholds" ADD CONSTRAINT "money_out_thresholds_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
