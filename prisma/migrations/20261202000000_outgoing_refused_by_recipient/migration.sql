-- A transfer the recipient refused (a bounced TON message): sending the same again would be
-- refused again, so its purpose fails instead of trying again.
ALTER TABLE outgoing_transfers ADD COLUMN is_refused_by_recipient BOOLEAN NOT NULL DEFAULT false;
