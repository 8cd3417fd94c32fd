-- from_currency: a payout funded by converting the merchant's USDT at a quoted rate.
ALTER TABLE "payouts" ADD COLUMN "convert_from_currency" TEXT;
ALTER TABLE "payouts" ADD COLUMN "convert_from_network" TEXT;
ALTER TABLE "payouts" ADD COLUMN "convert_from_amount" DECIMAL(78,0);
ALTER TABLE "payouts" ADD COLUMN "convert_rate" TEXT;
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_convert_check" CHECK (
  ("convert_from_currency" IS NULL AND "convert_from_network" IS NULL AND "convert_from_amount" IS NULL AND "convert_rate" IS NULL) OR
  ("convert_from_currency" IS NOT NULL AND "convert_from_network" IS NOT NULL AND "convert_from_amount" > 0 AND "convert_rate" IS NOT NULL));

-- The platform's side of conversions: what it took in one asset and gave in another.
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_bucket_check";
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_bucket_check"
  CHECK ("bucket" IN ('chain', 'incoming', 'maturing', 'available', 'payout_held', 'split_held', 'fees', 'payout_fees', 'network_fees', 'conversions', 'debt'));
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_sign_check";
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_sign_check"
  CHECK (("owner" = 'platform' AND "bucket" <> 'debt') OR ("owner" <> 'platform' AND "bucket" NOT IN ('chain', 'fees', 'payout_fees', 'network_fees', 'conversions') AND
         CASE WHEN "bucket" = 'debt' THEN "balance" <= 0 ELSE "balance" >= 0 END));
