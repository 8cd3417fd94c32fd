-- A new authenticator key being set up from the Account page belongs to the session that asked for
-- it (sealed to that session), and replaces the user's key only once a code from it is confirmed.
ALTER TABLE "cabinet_sessions" ADD COLUMN "pending_totp_secret_ciphertext" TEXT;
ALTER TABLE "cabinet_sessions" ADD COLUMN "pending_totp_expires_at" TIMESTAMPTZ(3);
