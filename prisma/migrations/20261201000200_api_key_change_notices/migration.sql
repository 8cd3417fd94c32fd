-- Web processes keep authenticated API keys in memory (lib/auth/api-key-cache.ts). Every change
-- that can alter a signed request's verdict announces itself, whoever writes it (API, cabinet,
-- CLI, another process): a key's row, a merchant's allow-list switch, an allow-list entry. The
-- notice names the merchant, read from the column the trigger gives as its argument. NOTIFY is
-- delivered at commit, and only if the transaction commits.
CREATE FUNCTION announce_api_key_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('gateway_api_key_changes', to_jsonb(COALESCE(NEW, OLD)) ->> TG_ARGV[0]);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER api_keys_announce_change
  AFTER UPDATE OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION announce_api_key_change('merchant_id');

CREATE TRIGGER allowlist_entries_announce_change
  AFTER INSERT OR UPDATE OR DELETE ON allowlist_entries
  FOR EACH ROW EXECUTE FUNCTION announce_api_key_change('merchant_id');

CREATE TRIGGER merchants_announce_allowlist_change
  AFTER UPDATE OF allowlist_enabled OR DELETE ON merchants
  FOR EACH ROW EXECUTE FUNCTION announce_api_key_change('id');
