-- One filler at a time per pool: address-pool.fill claims a pool's row (until claimed_until)
-- before it counts and tops the pool up, so fillers that race (several workers, a retried run)
-- leave the pool as one filler would, instead of each adding the shortfall.
CREATE TABLE "deposit_address_pool_fills" (
    "network" TEXT NOT NULL,
    "chain" TEXT NOT NULL,
    "claimed_until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "deposit_address_pool_fills_pkey" PRIMARY KEY ("network","chain")
);
