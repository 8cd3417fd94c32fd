-- The dispatcher's claim takes each merchant's oldest due deliveries: a short range scan per
-- merchant instead of sorting every due delivery on each claim. Pending rows only, so the
-- delivered history does not grow it.
CREATE INDEX "webhook_deliveries_pending_by_merchant_idx" ON "webhook_deliveries"("merchant_id", "next_attempt_at", "created_at") WHERE "status" = 'pending';
