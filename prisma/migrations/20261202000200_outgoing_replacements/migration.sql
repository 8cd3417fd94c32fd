-- How many times a transaction stuck unmined was signed again with a higher fee (the earlier
-- txids are kept in `consumes`): shown to the operator, counted in /metrics.
ALTER TABLE outgoing_transfers ADD COLUMN replacements INTEGER NOT NULL DEFAULT 0;
