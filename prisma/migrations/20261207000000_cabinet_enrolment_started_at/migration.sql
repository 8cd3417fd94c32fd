-- The 7 days a cabinet user has to enrol TOTP run from this time: the user's creation, or the
-- operator's reset of its second factor (`gateway user reset`), which starts them again.
ALTER TABLE "cabinet_users" ADD COLUMN "enrolment_started_at" TIMESTAMPTZ(3);
UPDATE "cabinet_users" SET "enrolment_started_at" = "created_at";
ALTER TABLE "cabinet_users" ALTER COLUMN "enrolment_started_at" SET NOT NULL;
ALTER TABLE "cabinet_users" ALTER COLUMN "enrolment_started_at" SET DEFAULT CURRENT_TIMESTAMP;
