-- The event log behind the webhooks: one row per event, written in the transaction of the state
-- change whether or not anything is delivered, and kept 30 days. Deliveries point at their event;
-- rows recorded before this migration have none, and a delivery outlives its event (the link is
-- cleared when the event is deleted).
CREATE TABLE "webhook_events" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "object_id" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "webhook_events_merchant_id_created_at_id_idx" ON "webhook_events"("merchant_id", "created_at", "id");
CREATE INDEX "webhook_events_merchant_id_object_id_created_at_idx" ON "webhook_events"("merchant_id", "object_id", "created_at");
CREATE INDEX "webhook_events_created_at_idx" ON "webhook_events"("created_at");
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "webhook_deliveries" ADD COLUMN "event_id" UUID;
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE SET NULL ON UPDATE CASCADE;
