-- A transfer the hot wallet cannot fund yet stays planned (nothing was signed) and is tried again
-- after a backoff, instead of a failed row per try.
ALTER TABLE "outgoing_transfers" ADD COLUMN "retry_at" TIMESTAMPTZ(3);
