-- Every status column holds only the statuses of its lifecycle.
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_status_check"
  CHECK ("status" IN ('select', 'check', 'confirm_check', 'wrong_amount_waiting', 'paid', 'paid_over', 'wrong_amount', 'cancel'));
ALTER TABLE "batches" ADD CONSTRAINT "batches_status_check" CHECK ("status" IN ('pending', 'processing', 'completed'));
ALTER TABLE "batch_items" ADD CONSTRAINT "batch_items_status_check" CHECK ("status" IN ('pending', 'processing', 'done', 'error'));
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'delivered', 'dead'));
ALTER TABLE "outbound_emails" ADD CONSTRAINT "outbound_emails_status_check" CHECK ("status" IN ('pending', 'sending', 'sent', 'kept', 'failed'));
