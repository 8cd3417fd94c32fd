-- The last reconciliation of each asset against its chain (the ledger.reconcile job and
-- `gateway ledger reconcile`): what /metrics and `wallets status` show.
CREATE TABLE chain_reconciliations (
  network TEXT NOT NULL,
  currency TEXT NOT NULL,
  checked_at TIMESTAMPTZ(3) NOT NULL,
  chain_minor DECIMAL(78, 0),
  ledger_minor DECIMAL(78, 0) NOT NULL,
  shortfall_minor DECIMAL(78, 0) NOT NULL,
  surplus_minor DECIMAL(78, 0) NOT NULL,
  unproven_payouts INTEGER NOT NULL,
  is_drift BOOLEAN NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (network, currency)
);
