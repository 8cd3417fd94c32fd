-- Deposit addresses derived (and their QR codes rendered) ahead of demand by the address-pool.fill
-- job; invoice creation takes the lowest index of its network and chain. The primary key is the
-- key tree's index, the same counter inline derivation uses, so one address can exist only once.
CREATE TABLE "deposit_address_pool" (
    "key_tree" TEXT NOT NULL,
    "address_index" INTEGER NOT NULL,
    "chain" TEXT NOT NULL,
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "qr_code" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deposit_address_pool_pkey" PRIMARY KEY ("key_tree","address_index")
);

CREATE INDEX "deposit_address_pool_network_chain_address_index_idx" ON "deposit_address_pool"("network", "chain", "address_index");

-- Which pools to keep filled: every take refreshes its row (at most once a minute), and pools
-- not taken from for a while are left alone, so only networks in use are derived ahead.
CREATE TABLE "deposit_address_pool_demand" (
    "network" TEXT NOT NULL,
    "chain" TEXT NOT NULL,
    "last_taken_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deposit_address_pool_demand_pkey" PRIMARY KEY ("network","chain")
);
