-- E-mail alerts a cabinet user chose (one row per kind), and each alert sent once per store:
-- the key names what it was about (a payout, an invoice, an endpoint's failure, a debt).
CREATE TABLE "cabinet_alert_subscriptions" (
    "user_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cabinet_alert_subscriptions_pkey" PRIMARY KEY ("user_id", "kind")
);
ALTER TABLE "cabinet_alert_subscriptions" ADD CONSTRAINT "cabinet_alert_subscriptions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "cabinet_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "cabinet_alerts_sent" (
    "merchant_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "subject_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cabinet_alerts_sent_pkey" PRIMARY KEY ("merchant_id", "kind", "subject_key")
);
ALTER TABLE "cabinet_alerts_sent" ADD CONSTRAINT "cabinet_alerts_sent_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;
