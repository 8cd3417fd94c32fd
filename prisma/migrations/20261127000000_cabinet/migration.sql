-- The merchant cabinet: people who sign in (with a password and a TOTP second factor), their
-- recovery codes, sign-in tickets, sessions, failed-attempt throttles, team invitations and the
-- audit log. A merchant's cabinet credentials move from the merchants table to its owner user.
CREATE TABLE "cabinet_users" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "totp_secret_ciphertext" TEXT,
    "totp_enabled_at" TIMESTAMPTZ(3),
    "last_totp_step" BIGINT,
    "disabled_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cabinet_users_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cabinet_users_role_check" CHECK ("role" IN ('owner', 'admin', 'finance', 'viewer')),
    CONSTRAINT "cabinet_users_totp_check" CHECK ("totp_enabled_at" IS NULL OR "totp_secret_ciphertext" IS NOT NULL)
);
CREATE UNIQUE INDEX "cabinet_users_email_key" ON "cabinet_users"("email");
CREATE INDEX "cabinet_users_merchant_id_idx" ON "cabinet_users"("merchant_id");
ALTER TABLE "cabinet_users" ADD CONSTRAINT "cabinet_users_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "cabinet_users" ("id", "merchant_id", "email", "password_hash", "role", "created_at", "updated_at")
SELECT gen_random_uuid(), "id", "email", "password_hash", 'owner', "created_at", "updated_at"
FROM "merchants" WHERE "email" IS NOT NULL AND "password_hash" IS NOT NULL;

DROP INDEX IF EXISTS "merchants_email_key";
ALTER TABLE "merchants" DROP COLUMN "email";
ALTER TABLE "merchants" DROP COLUMN "password_hash";

CREATE TABLE "cabinet_recovery_codes" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "code_hash" TEXT NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cabinet_recovery_codes_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "cabinet_recovery_codes_user_id_code_hash_key" ON "cabinet_recovery_codes"("user_id", "code_hash");
ALTER TABLE "cabinet_recovery_codes" ADD CONSTRAINT "cabinet_recovery_codes_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "cabinet_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "cabinet_sign_in_tickets" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "token_hash" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cabinet_sign_in_tickets_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cabinet_sign_in_tickets_purpose_check" CHECK ("purpose" IN ('code', 'enrol', 'enrolled'))
);
CREATE UNIQUE INDEX "cabinet_sign_in_tickets_token_hash_key" ON "cabinet_sign_in_tickets"("token_hash");
CREATE INDEX "cabinet_sign_in_tickets_user_id_idx" ON "cabinet_sign_in_tickets"("user_id");
ALTER TABLE "cabinet_sign_in_tickets" ADD CONSTRAINT "cabinet_sign_in_tickets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "cabinet_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "cabinet_sessions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "ip_address" TEXT NOT NULL DEFAULT '',
    "user_agent" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "cabinet_sessions_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "cabinet_sessions_user_id_idx" ON "cabinet_sessions"("user_id");
ALTER TABLE "cabinet_sessions" ADD CONSTRAINT "cabinet_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "cabinet_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "cabinet_throttles" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "window_started_at" TIMESTAMPTZ(3) NOT NULL,
    "locked_until" TIMESTAMPTZ(3),

    CONSTRAINT "cabinet_throttles_pkey" PRIMARY KEY ("key")
);

CREATE TABLE "cabinet_invitations" (
    "id" UUID NOT NULL,
    "merchant_id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "invited_by" UUID NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "accepted_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cabinet_invitations_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cabinet_invitations_role_check" CHECK ("role" IN ('admin', 'finance', 'viewer'))
);
CREATE UNIQUE INDEX "cabinet_invitations_token_hash_key" ON "cabinet_invitations"("token_hash");
CREATE INDEX "cabinet_invitations_merchant_id_created_at_idx" ON "cabinet_invitations"("merchant_id", "created_at");
ALTER TABLE "cabinet_invitations" ADD CONSTRAINT "cabinet_invitations_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "cabinet_audit_events" (
    "id" UUID NOT NULL,
    "merchant_id" UUID,
    "user_id" UUID,
    "actor_email" TEXT NOT NULL DEFAULT '',
    "action" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "ip_address" TEXT NOT NULL DEFAULT '',
    "user_agent" TEXT NOT NULL DEFAULT '',
    "detail" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cabinet_audit_events_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "cabinet_audit_events_outcome_check" CHECK ("outcome" IN ('success', 'failure', 'refused'))
);
CREATE INDEX "cabinet_audit_events_merchant_id_created_at_idx" ON "cabinet_audit_events"("merchant_id", "created_at");
ALTER TABLE "cabinet_audit_events" ADD CONSTRAINT "cabinet_audit_events_merchant_id_fkey" FOREIGN KEY ("merchant_id") REFERENCES "merchants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The cabinet's overview (paid volume by the moment invoices became final) and an invoice's page
-- (its webhook deliveries) look these up per merchant.
CREATE INDEX "invoices_merchant_id_final_at_idx" ON "invoices"("merchant_id", "final_at");
CREATE INDEX "webhook_deliveries_merchant_id_object_id_idx" ON "webhook_deliveries"("merchant_id", "object_id");
