-- Outgoing transfers become durable records: signed bytes and consumed chain resources are
-- stored before any broadcast; nonces, seqnos and outpoints are held by the database.
ALTER TABLE "outgoing_transfers" ADD COLUMN "change_address" TEXT;
ALTER TABLE "outgoing_transfers" ADD COLUMN "memo" TEXT;
ALTER TABLE "outgoing_transfers" ADD COLUMN "raw_transaction" TEXT;
ALTER TABLE "outgoing_transfers" ADD COLUMN "consumes" TEXT;
ALTER TABLE "outgoing_transfers" ADD COLUMN "nonce" INTEGER;
ALTER TABLE "outgoing_transfers" ADD COLUMN "seqno" INTEGER;
ALTER TABLE "outgoing_transfers" ADD COLUMN "broadcasts" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "outgoing_transfers" ADD COLUMN "is_released" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "outgoing_transfers" ALTER COLUMN "status" SET DEFAULT 'planned';
-- Earlier states: waiting rows are planned; a send in progress or done is followed by its txid.
UPDATE "outgoing_transfers" SET "status" = 'planned' WHERE "status" = 'pending' OR ("status" = 'sending' AND "txid" IS NULL);
UPDATE "outgoing_transfers" SET "status" = 'broadcast' WHERE "status" IN ('sent', 'sending');
ALTER TABLE "outgoing_transfers" ADD CONSTRAINT "outgoing_transfers_status_check"
  CHECK ("status" IN ('planned', 'signed', 'broadcast', 'seen', 'confirmed', 'failed', 'replaced'));
ALTER TABLE "outgoing_transfers" ADD CONSTRAINT "outgoing_transfers_signed_check"
  CHECK ("status" IN ('planned', 'failed') OR ("txid" IS NOT NULL AND ("raw_transaction" IS NOT NULL OR "consumes" IS NULL)));
CREATE INDEX "outgoing_transfers_network_txid_idx" ON "outgoing_transfers"("network", "txid");
CREATE INDEX "outgoing_transfers_network_from_address_status_idx" ON "outgoing_transfers"("network", "from_address", "status");
-- A nonce or seqno is held by one live transaction of an address at a time.
CREATE UNIQUE INDEX "outgoing_transfers_live_nonce_key" ON "outgoing_transfers"("network", "from_address", "nonce")
  WHERE "nonce" IS NOT NULL AND NOT "is_released" AND "status" <> 'replaced';
CREATE UNIQUE INDEX "outgoing_transfers_live_seqno_key" ON "outgoing_transfers"("network", "from_address", "seqno")
  WHERE "seqno" IS NOT NULL AND NOT "is_released" AND "status" NOT IN ('replaced', 'confirmed', 'failed');

CREATE TABLE "outgoing_outpoints" (
    "network" TEXT NOT NULL,
    "outpoint" TEXT NOT NULL,
    "transfer_id" UUID NOT NULL,

    CONSTRAINT "outgoing_outpoints_pkey" PRIMARY KEY ("network","outpoint")
);
CREATE INDEX "outgoing_outpoints_transfer_id_idx" ON "outgoing_outpoints"("transfer_id");

CREATE TABLE "signer_leases" (
    "network" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "owner" TEXT NOT NULL,
    "until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "signer_leases_pkey" PRIMARY KEY ("network","address")
);
