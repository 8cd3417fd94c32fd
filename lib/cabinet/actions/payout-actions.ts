import { randomUUID } from "node:crypto";
import { z } from "zod";
import { toPayoutObject } from "@/lib/api/serialize/payout";
import { CREATE_PAYOUT_INPUT, createPayoutBodySchema } from "@/lib/api/requests/payout";
import { createPayout } from "@/lib/services/payouts/create-payout";
import { cancelPayout, decidePendingPayout } from "@/lib/services/payouts/manage-payouts";
import { defineCabinetAction } from "../action-table";

/** How the payout services name a cabinet user (`created_by`, `approved_by`). */
export const userActor = (userId: string) => `user:${userId}`;

const payoutLookup = { schema: z.object({ uuid: z.uuid() }), invalidBody: "payout.bad_uuid" as const };

/** A manual payout: the same rules as POST /v1/payout, but waiting for another user's approval. */
export const createManualPayout = defineCabinetAction({
  permission: "money",
  audit: "payout.created",
  input: { ...CREATE_PAYOUT_INPUT, schema: createPayoutBodySchema.pick({ amount: true, currency: true, network: true, address: true, memo: true, order_id: true }) },
  run: async ({ deps, actor }, input) =>
    toPayoutObject(
      await createPayout(deps, actor.merchantId, { ...input, order_id: input.order_id || `cabinet-${randomUUID()}`, source: "manual" }, { actor: userActor(actor.userId) }),
    ),
  describe: (_input, result) => ({ payout: (result as { uuid: string }).uuid }),
});

export const approvePayout = defineCabinetAction({
  permission: "money",
  audit: "payout.approved",
  input: payoutLookup,
  run: async ({ deps, actor }, input) => toPayoutObject(await decidePendingPayout(deps, actor.merchantId, { uuid: input.uuid, approve: true }, userActor(actor.userId))),
  describe: (input) => ({ payout: input.uuid }),
});

export const rejectPayout = defineCabinetAction({
  permission: "money",
  audit: "payout.rejected",
  input: payoutLookup,
  run: async ({ deps, actor }, input) => toPayoutObject(await decidePendingPayout(deps, actor.merchantId, { uuid: input.uuid, approve: false }, userActor(actor.userId))),
  describe: (input) => ({ payout: input.uuid }),
});

export const cancelPendingPayout = defineCabinetAction({
  permission: "money",
  audit: "payout.cancelled",
  input: payoutLookup,
  run: async ({ deps, actor }, input) => toPayoutObject(await cancelPayout(deps, actor.merchantId, { uuid: input.uuid })),
  describe: (input) => ({ payout: input.uuid }),
});
