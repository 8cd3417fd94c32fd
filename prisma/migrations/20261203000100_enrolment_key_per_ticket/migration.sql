-- The TOTP key an enrolment shows belongs to its ticket, not to the user: whoever else learns an
-- unenrolled user's password gets a ticket, and a key, of their own, never the one the user scans.
ALTER TABLE "cabinet_sign_in_tickets" ADD COLUMN "enrolment_secret_ciphertext" TEXT;
