import { randomUUID } from "node:crypto";
import { z } from "zod";
import { toPayoutObject } from "@/lib/api/serialize/payout";
import { CREATE_PAYOUT_INPUT, createPayoutBodySchema } from "@/lib/api/requests/payout";
import { createPayout } from "@/lib/services/payouts/create-payout";
import { cancelPayout, decidePendingPayout } from "@/lib/services/payouts/manage-payouts";
import { defineCabinetUnit } from "../action-table";

/** How the payout services name a cabinet user (`created_by`, `approved_by`). */
export const userActor = (userId: string) => `user:${userId}`;

const payoutLookup = { schema: z.object({ uuid: z.uuid() }), invalidBody: "payout.bad_uuid" as const };

/** A manual payout: the same rules as POST /v1/payout, but waiting for another user's approval. */
export const createManualPayout = defineCabinetUnit({
  permission: "money",
  audit: "payout.created",
  input: { ...CREATE_PAYOUT_INPUT, schema: createPayoutBodySchema.pick({ amount: true, currency: true, network: true, address: true, memo: true, order_id: true }) },
  unit: createPayout,
  args: ({ actor }, input) => ({ merchantId: actor.merchantId, input: { ...input, order_id: input.order_id || `cabinet-${randomUUID()}`, source: "manual" as const }, actor: userActor(actor.userId) }),
  answer: toPayoutObject,
  describe: (_input, result) => ({ payout: (result as { uuid: string }).uuid }),
});

export const approvePayout = defineCabinetUnit({
  permission: "money",
  audit: "payout.approved",
  input: payoutLookup,
  unit: decidePendingPayout,
  args: ({ actor }, input) => ({ merchantId: actor.merchantId, input: { uuid: input.uuid, approve: true }, actor: userActor(actor.userId) }),
  answer: toPayoutObject,
  describe: (input) => ({ payout: input.uuid }),
});

export const rejectPayout = defineCabinetUnit({
  permission: "money",
  audit: "payout.rejected",
  input: payoutLookup,
  unit: decidePendingPayout,
  args: ({ actor }, input) => ({ merchantId: actor.merchantId, input: { uuid: input.uuid, approve: false }, actor: userActor(actor.userId) }),
  answer: toPayoutObject,
  describe: (input) => ({ payout: input.uuid }),
});

export const cancelPendingPayout = defineCabinetUnit({
  permission: "money",
  audit: "payout.cancelled",
  input: payoutLookup,
  unit: cancelPayout,
  args: ({ actor }, input) => ({ merchantId: actor.merchantId, lookup: { uuid: input.uuid } }),
  answer: toPayoutObject,
  describe: (input) => ({ payout: input.uuid }),
});
