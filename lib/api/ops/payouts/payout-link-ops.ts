import { z } from "zod";
import { cancelPayoutLink } from "@/lib/services/payout-links/cancel-payout-link";
import { CLAIM_CARD_SCHEMA, CLAIM_RESULT_SCHEMA, CREATED_PAYOUT_LINK_SCHEMA, PAYOUT_LINK_SCHEMA, toClaimCard, toClaimResult, toPayoutLinkObject } from "@/lib/api/serialize/payout-link";
import { beginPayoutLinkClaim, claimedLinkOrThrow, finishPayoutLinkClaim } from "@/lib/services/payout-links/claim-payout-link";
import { claimSchema } from "@/lib/api/requests/payout-link";
import { createPayoutLink, startPayoutLinkBatch } from "@/lib/services/payout-links/create-payout-link";
import { CREATE_PAYOUT_LINK_INPUT, createPayoutLinkSchema } from "@/lib/api/requests/payout-link";
import { getMerchantPayoutLinkOrThrow } from "@/lib/services/payout-links/payout-link-records";
import { listPayoutLinks } from "@/lib/services/payout-links/list-payout-links";
import { readClaimCard } from "@/lib/services/payout-links/read-claim-card";
import { runUnit } from "@/lib/deps/unit-of-work";
import { isAppError, parseInput } from "@/lib/errors";
import { log } from "@/lib/log";
import { defineOperation, defineWork } from "../../operation";
import { actorOf, merchantOf } from "../context";

const LINK_EXAMPLE = {
  link_id: "0e6f2b9c-4a1d-4c3e-8b7f-5d2a9c1e3f40",
  status: "funded",
  amount: "50",
  currency: "USDT",
  network: "tron",
  title: "June bonus",
  note: "Thanks for the great work!",
  reference: "bonus-2025-06-anna",
  email: "anna@example.org",
  expires_at: "2025-06-14T09:00:00.000Z",
  created_at: "2025-06-11T09:00:00.000Z",
};
const CLAIM_TOKEN_EXAMPLE = "q3Zt8mVx2LkP9wR4nB7cY1hJ6fD0sA5eG8uT3iO2pQk";
const CREATED_LINK_EXAMPLE = { ...LINK_EXAMPLE, claim_token: CLAIM_TOKEN_EXAMPLE, claim_url: `https://pay.example.com/pay/claim/${CLAIM_TOKEN_EXAMPLE}` };

/** spec: POST /v1/payout/link — the link with its claim token and URL (answered only here). */
export const createPayoutLinkOp = defineWork({
  ...CREATE_PAYOUT_LINK_INPUT,
  summary: "Create a payout link",
  description: [
    "Reserves `amount` on the mature `available` balance (→ `payout_held`, checked under the balance's row lock) and answers a one-time claim URL to hand to a recipient, who gives an address on the claim page. The claim makes a payout with `order_id` `payoutlink:<link_id>`, the payout fee taken from the amount.",
    "`claim_token` and `claim_url` are answered only here: only the token's SHA-256 is stored. The `Idempotency-Key` header has no effect: deduplicate with `reference`, unique per merchant (a repeat is `payoutlink.duplicate_reference`, 409 — look the link up with the list).",
    "`expires_in_hours` is clamped to 1–720; omitted or 0 gives 1 hour. At expiry (checked every 60 s) or on cancel, the reserve returns to `available`. With `email`, the recipient gets the claim link by e-mail, best effort.",
  ].join("\n\n"),
  response: CREATED_PAYOUT_LINK_SCHEMA,
  errors: ["payoutlink.disabled", "payoutlink.duplicate_reference", "payoutlink.insufficient_funds", "payoutlink.funds_maturing", "payout.frozen", "payout.convert_no_rate"],
  requestExample: { currency: "USDT", network: "tron", amount: "50", reference: "bonus-2025-06-anna", title: "June bonus", note: "Thanks for the great work!", email: "anna@example.org", expires_in_hours: 72 },
  responseExample: CREATED_LINK_EXAMPLE,
  unit: createPayoutLink,
  args: (input, context) => ({ merchantId: merchantOf(context), input, actor: actorOf(context) }),
  answer: ({ link, claimToken }, context) => toPayoutLinkObject(link, { claimToken, publicBaseUrl: context.deps.config.publicBaseUrl }),
});

/** spec: POST /v1/payout/link/batch. */
export const createPayoutLinkBatchOp = defineOperation({
  schema: z.object({ links: z.array(z.unknown()) }),
  invalidBody: "payoutlink.bad_request",
  fieldErrors: { links: "payoutlink.empty_batch" },
  summary: "Create up to 500 payout links at once",
  description:
    "Each element is made as POST /v1/payout/link would make it, in order, each reserved in its own transaction; the links of one call share a `batch_id`. `results` is aligned with `links` by index: a made link with its claim token and URL, or the element's error code and message (a duplicate `reference` fails only its own element). The `Idempotency-Key` header has no effect.",
  documentedRequest: z.object({ links: z.array(createPayoutLinkSchema).describe("1 to 500 links, each as the body of POST /v1/payout/link.") }),
  response: z.object({
    created: z.int().describe("Links made."),
    total: z.int().describe("Elements received."),
    results: z
      .array(
        z.union([
          z.object({ ok: z.literal(true), link: CREATED_PAYOUT_LINK_SCHEMA }).meta({ id: "PayoutLinkBatchCreated", description: "An element that made its link." }),
          z
            .object({
              ok: z.literal(false),
              error: z.string().describe("The error code the single call would answer, e.g. `payoutlink.insufficient_funds`."),
              message: z.string().describe("The message, for people."),
            })
            .meta({ id: "PayoutLinkBatchFailed", description: "An element that made no link." }),
        ]),
      )
      .describe("One result per element, in request order."),
  }),
  errors: ["payoutlink.disabled", "payoutlink.batch_too_large"],
  requestExample: {
    links: [
      { currency: "USDT", network: "tron", amount: "50", reference: "bonus-2025-06-anna", title: "June bonus" },
      { currency: "USDT", network: "tron", amount: "75", reference: "bonus-2025-06-ben", title: "June bonus" },
    ],
  },
  responseExample: {
    created: 1,
    total: 2,
    results: [
      { ok: true, link: { ...CREATED_LINK_EXAMPLE, note: "", email: "", batch_id: "7c1e5a3b-9d2f-4b6e-a8c0-1f3d5b7e9a2c" } },
      { ok: false, error: "payoutlink.insufficient_funds", message: "The available balance does not cover the link." },
    ],
  },
  handle: async (input, context) => {
    const { deps } = context;
    const batchId = startPayoutLinkBatch(deps, input.links);
    // Each element in its own unit, in order: one that fails answers for itself, never losing the tokens of those made before.
    const results: ({ ok: true; link: ReturnType<typeof toPayoutLinkObject> } | { ok: false; error: string; message: string })[] = [];
    for (const element of input.links) {
      try {
        const request = { merchantId: merchantOf(context), input: parseInput(CREATE_PAYOUT_LINK_INPUT, element), actor: actorOf(context), batchId };
        const { link, claimToken } = await runUnit(deps, createPayoutLink, request);
        results.push({ ok: true, link: toPayoutLinkObject(link, { claimToken, publicBaseUrl: deps.config.publicBaseUrl }) });
      } catch (error) {
        if (!isAppError(error)) log.error("payout link batch element failed", { error });
        results.push(isAppError(error) ? { ok: false, error: error.code, message: error.message } : { ok: false, error: "internal.error", message: "internal error; this link was not created" });
      }
    }
    return { created: results.filter((result) => result.ok).length, total: input.links.length, results };
  },
});

const linkIdSchema = z.object({ link_id: z.string().describe("The link's `link_id` (UUID).") });

export const payoutLinkInfoOp = defineOperation({
  schema: linkIdSchema,
  invalidBody: "payoutlink.bad_request",
  fieldErrors: { link_id: "payoutlink.bad_id" },
  summary: "Get a payout link",
  description: "The link without its claim token and URL. After a claim it carries `payout_id` (the payout the claim made) and `claim_address`. Another merchant's link is `payoutlink.not_found`.",
  response: PAYOUT_LINK_SCHEMA,
  errors: ["payoutlink.disabled", "payoutlink.not_found"],
  requestExample: { link_id: "0e6f2b9c-4a1d-4c3e-8b7f-5d2a9c1e3f40" },
  responseExample: { ...LINK_EXAMPLE, status: "claimed", payout_id: "5b0a3f4e-8c1d-4e2a-9f6b-2d7c8e9a1b3c", claim_address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8" },
  handle: async (input, context) => toPayoutLinkObject(await getMerchantPayoutLinkOrThrow(context.deps, merchantOf(context), input.link_id), { publicBaseUrl: context.deps.config.publicBaseUrl, now: context.deps.now() }),
});

export const listPayoutLinksOp = defineOperation({
  // spec: Limits — an invalid limit gives 50 (any type: it is clamped, not refused).
  schema: z.object({
    limit: z.unknown().optional().describe("Page size, a whole number 1–200; anything else (of any type) gives 50."),
    offset: z.unknown().optional().describe("Links to skip; anything but a positive number gives 0."),
  }),
  invalidBody: "payoutlink.bad_request",
  summary: "List payout links",
  description: "The merchant's payout links, newest first, without claim tokens and URLs. `limit` outside 1–200 (or not a whole number) gives 50.",
  response: z.object({ links: z.array(PAYOUT_LINK_SCHEMA) }),
  errors: ["payoutlink.disabled"],
  requestExample: { limit: 50, offset: 0 },
  responseExample: { links: [LINK_EXAMPLE] },
  handle: async (input, context) => ({
    links: (await listPayoutLinks(context.deps, merchantOf(context), input)).map((link) => toPayoutLinkObject(link, { publicBaseUrl: context.deps.config.publicBaseUrl, now: context.deps.now() })),
  }),
});

export const cancelPayoutLinkOp = defineWork({
  schema: linkIdSchema,
  invalidBody: "payoutlink.bad_request",
  fieldErrors: { link_id: "payoutlink.bad_id" },
  summary: "Cancel a payout link",
  description:
    "Only a `funded` link can be cancelled: it becomes `cancelled` and its reserve returns to `available` (once). If a claim finished first, the call answers the link as `claimed`, with its `payout_id`; nothing is returned twice. Any other status is `payoutlink.not_funded`.",
  response: PAYOUT_LINK_SCHEMA,
  errors: ["payoutlink.disabled", "payoutlink.not_found", "payoutlink.not_funded"],
  requestExample: { link_id: "0e6f2b9c-4a1d-4c3e-8b7f-5d2a9c1e3f40" },
  responseExample: { ...LINK_EXAMPLE, status: "cancelled" },
  unit: cancelPayoutLink,
  args: (input, context) => ({ merchantId: merchantOf(context), linkId: input.link_id }),
  answer: (link, context) => toPayoutLinkObject(link, { publicBaseUrl: context.deps.config.publicBaseUrl, now: context.deps.now() }),
});

/** spec: GET /v1/claim/{token} (public) — the claim card. */
export const getClaimCardOp = defineOperation({
  schema: z.object({}),
  invalidBody: "payoutlink.bad_request",
  summary: "Open a claim card (public)",
  description:
    "What the recipient of a payout link sees: the amount, the asset, the merchant's title and note, the term, and whether it can be claimed. The one-time token in the path (256 bits) is the only credential; nothing merchant-private is shown. After a claim, the card also shows the address and the payout's progress.",
  response: CLAIM_CARD_SCHEMA,
  errors: ["payoutlink.disabled", "payoutlink.not_found"],
  responseExample: { status: "funded", amount: "50", currency: "USDT", network: "tron", title: "June bonus", note: "Thanks for the great work!", expires_at: "2025-06-14T09:00:00.000Z", claimable: true, memo_supported: false },
  handle: async (_input, context) => toClaimCard(await readClaimCard(context.deps, context.params.token)),
});

/** spec: POST /v1/claim/{token} (public). */
export const claimPayoutLinkOp = defineOperation({
  schema: claimSchema,
  invalidBody: "payoutlink.bad_request",
  fieldErrors: { address: "payout.bad_address", memo: "payout.memo_too_long" },
  summary: "Claim a payout link (public)",
  description: [
    "Pays the check to `address` on its network: a payout with `order_id` `payoutlink:<link_id>`, the payout fee taken from the amount, which emits the ordinary `payout.*` events. The first address binds the check: a repeat with the same address answers the same `payout_id` and makes no second payout; another address is `payoutlink.claim_in_progress`.",
    "A claim that cannot finish (an address that fails screening or belongs to this service, no fee quote) leaves the link `funded`, so another address may be tried.",
  ].join("\n\n"),
  response: CLAIM_RESULT_SCHEMA,
  errors: [
    "payoutlink.disabled",
    "payoutlink.not_found",
    "payoutlink.no_address",
    "payout.address_network_mismatch",
    "payout.memo_unsupported",
    "payoutlink.claim_in_progress",
    "payoutlink.cancelled",
    "payoutlink.expired",
    "payoutlink.destination_internal",
    "compliance.blocked",
    "compliance.unavailable",
    "payout.convert_no_rate",
    "payout.amount_below_fee",
  ],
  requestExample: { address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8" },
  responseExample: { status: "claimed", payout_id: "5b0a3f4e-8c1d-4e2a-9f6b-2d7c8e9a1b3c", amount: "50", currency: "USDT", network: "tron", address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8" },
  handle: async (input, context) => {
    const begun = await runUnit(context.deps, beginPayoutLinkClaim, { token: context.params.token, input });
    if (begun.status === "claimed") return toClaimResult(begun);
    return toClaimResult(claimedLinkOrThrow(await runUnit(context.deps, finishPayoutLinkClaim, begun)));
  },
});
