import { z } from "zod";
import {
  cancelPayoutLink,
  claimPayoutLink,
  claimSchema,
  CREATE_PAYOUT_LINK_INPUT,
  createPayoutLink,
  createPayoutLinkBatch,
  getMerchantPayoutLinkOrThrow,
  listPayoutLinks,
  openClaimCard,
  toPayoutLinkObject,
} from "@/lib/services/payout-links/payout-links";
import { defineOperation } from "../../operation";
import { merchantOf } from "../context";

/** spec: POST /v1/payout/link — the link with its claim token and URL (answered only here). */
export const createPayoutLinkOp = defineOperation({
  ...CREATE_PAYOUT_LINK_INPUT,
  handle: async (input, context) => {
    const { link, claimToken } = await createPayoutLink(context.deps, merchantOf(context), input);
    return toPayoutLinkObject(link, { claimToken, publicBaseUrl: context.deps.config.publicBaseUrl });
  },
});

/** spec: POST /v1/payout/link/batch. */
export const createPayoutLinkBatchOp = defineOperation({
  schema: z.object({ links: z.array(z.unknown()) }),
  invalidBody: "payoutlink.bad_request",
  fieldErrors: { links: "payoutlink.empty_batch" },
  handle: (input, context) => createPayoutLinkBatch(context.deps, merchantOf(context), input.links),
});

const linkIdSchema = z.object({ link_id: z.string() });

export const payoutLinkInfoOp = defineOperation({
  schema: linkIdSchema,
  invalidBody: "payoutlink.bad_request",
  fieldErrors: { link_id: "payoutlink.bad_id" },
  handle: async (input, context) => toPayoutLinkObject(await getMerchantPayoutLinkOrThrow(context.deps, merchantOf(context), input.link_id), { publicBaseUrl: context.deps.config.publicBaseUrl, now: context.deps.now() }),
});

export const listPayoutLinksOp = defineOperation({
  // spec: Limits — an invalid limit gives 50 (any type: it is clamped, not refused).
  schema: z.object({ limit: z.unknown().optional(), offset: z.unknown().optional() }),
  invalidBody: "payoutlink.bad_request",
  handle: async (input, context) => ({
    links: (await listPayoutLinks(context.deps, merchantOf(context), input)).map((link) => toPayoutLinkObject(link, { publicBaseUrl: context.deps.config.publicBaseUrl, now: context.deps.now() })),
  }),
});

export const cancelPayoutLinkOp = defineOperation({
  schema: linkIdSchema,
  invalidBody: "payoutlink.bad_request",
  fieldErrors: { link_id: "payoutlink.bad_id" },
  handle: async (input, context) => toPayoutLinkObject(await cancelPayoutLink(context.deps, merchantOf(context), input.link_id), { publicBaseUrl: context.deps.config.publicBaseUrl, now: context.deps.now() }),
});

/** spec: GET /v1/claim/{token} (public) — the claim card. */
export const getClaimCardOp = defineOperation({
  schema: z.object({}),
  invalidBody: "payoutlink.bad_request",
  handle: (_input, context) => openClaimCard(context.deps, context.params.token),
});

/** spec: POST /v1/claim/{token} (public). */
export const claimPayoutLinkOp = defineOperation({
  schema: claimSchema,
  invalidBody: "payoutlink.bad_request",
  fieldErrors: { address: "payout.bad_address", memo: "payout.memo_too_long" },
  handle: (input, context) => claimPayoutLink(context.deps, context.params.token, input),
});
