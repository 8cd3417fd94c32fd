ALTER TABLE "chain_reconciliations" ADD COLUMN "landed_dead_transfers" INTEGER NOT NULL DEFAULT 0;
