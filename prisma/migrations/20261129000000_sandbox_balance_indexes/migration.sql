-- A sandbox chain's balance of an address is rebuilt from its transactions (metrics, wallets status).
CREATE INDEX "sandbox_transactions_network_to_address_idx" ON "sandbox_transactions"("network", "to_address");

CREATE INDEX "sandbox_transactions_network_from_address_idx" ON "sandbox_transactions"("network", "from_address");
