-- Invoice creation per (merchant, order_id) is serialised by a row lock on its slot.
CREATE TABLE "invoice_order_slots" (
    "merchant_id" UUID NOT NULL,
    "order_id" TEXT NOT NULL,
    "invoice_id" UUID,

    CONSTRAINT "invoice_order_slots_pkey" PRIMARY KEY ("merchant_id","order_id")
);
INSERT INTO "invoice_order_slots" ("merchant_id", "order_id", "invoice_id")
  SELECT DISTINCT ON ("merchant_id", "order_id") "merchant_id", "order_id", "id" FROM "invoices"
  WHERE "order_id" IS NOT NULL ORDER BY "merchant_id", "order_id", "created_at" DESC;
