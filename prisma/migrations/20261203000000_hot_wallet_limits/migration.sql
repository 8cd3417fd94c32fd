-- Hot wallet limits: what the hot wallet holds above an operator's maximum leaves for a cold
-- address as an outgoing transfer of kind 'cold'. One such transfer per asset may be on its way
-- at a time, however many planners race: the database refuses a second.
CREATE UNIQUE INDEX outgoing_transfers_live_cold_key ON outgoing_transfers (network, currency)
  WHERE kind = 'cold' AND status IN ('planned', 'signed', 'broadcast', 'seen');

-- The last check of each limited asset (the wallet.to-cold job and `gateway wallets to-cold`):
-- what /metrics and `wallets status` show.
CREATE TABLE hot_wallet_limit_checks (
  network TEXT NOT NULL,
  currency TEXT NOT NULL,
  checked_at TIMESTAMPTZ(3) NOT NULL,
  max_minor DECIMAL(78, 0) NOT NULL,
  held_minor DECIMAL(78, 0),
  reserved_minor DECIMAL(78, 0) NOT NULL,
  excess_minor DECIMAL(78, 0) NOT NULL,
  transfer_id UUID,
  note TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (network, currency)
);

-- The platform's cold storage: what it moved from its hot wallet to the operator's cold address.
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_bucket_check";
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_bucket_check"
  CHECK ("bucket" IN ('chain', 'incoming', 'maturing', 'available', 'payout_held', 'split_held', 'blocked_held', 'fees', 'payout_fees', 'network_fees', 'conversions', 'cold', 'debt'));
ALTER TABLE "ledger_accounts" DROP CONSTRAINT "ledger_accounts_sign_check";
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_sign_check"
  CHECK (("owner" = 'platform' AND "bucket" <> 'debt') OR ("owner" <> 'platform' AND "bucket" NOT IN ('chain', 'fees', 'payout_fees', 'network_fees', 'conversions', 'cold') AND
         CASE WHEN "bucket" = 'debt' THEN "balance" <= 0 ELSE "balance" >= 0 END));
