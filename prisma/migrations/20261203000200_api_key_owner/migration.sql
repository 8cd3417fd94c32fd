-- Every API key answers to a person: the cabinet user who made (or last rotated) it, or the
-- operator for keys the CLI made. Four eyes compare people, not credentials.
ALTER TABLE "api_keys" ADD COLUMN "owner" TEXT NOT NULL DEFAULT 'operator';
