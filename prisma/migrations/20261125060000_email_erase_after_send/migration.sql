-- An e-mail that carries a secret (a payout link's claim URL) keeps its body only until it is sent.
ALTER TABLE "outbound_emails" ADD COLUMN "erase_after_send" BOOLEAN NOT NULL DEFAULT false;
