-- Four eyes for money out the service makes on someone's behalf: the payout answers to whoever
-- asked for it (a link's creator, who set the auto-withdraw or split rule), not to the service.
ALTER TABLE "payouts" ADD COLUMN "asked_by" TEXT NOT NULL DEFAULT '';
ALTER TABLE "payout_links" ADD COLUMN "created_by" TEXT NOT NULL DEFAULT '';
ALTER TABLE "auto_withdraw_rules" ADD COLUMN "updated_by" TEXT NOT NULL DEFAULT '';
ALTER TABLE "split_rules" ADD COLUMN "created_by" TEXT NOT NULL DEFAULT '';
