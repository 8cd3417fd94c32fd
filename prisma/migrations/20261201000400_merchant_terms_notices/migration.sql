-- A signed request also carries its merchant's invoice terms, read with its key (fee and
-- tolerance, lib/auth/api-keys.ts), so web processes that keep keys must hear of a change to
-- them as they hear of one to the allow-list switch.
DROP TRIGGER merchants_announce_allowlist_change ON merchants;

CREATE TRIGGER merchants_announce_change
  AFTER UPDATE OF allowlist_enabled, fee_percent_bps, fee_fixed_usd_minor, accuracy_bps OR DELETE ON merchants
  FOR EACH ROW EXECUTE FUNCTION announce_api_key_change('id');
