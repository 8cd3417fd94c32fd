import { z } from "zod";
import type { PayoutLink } from "@/generated/prisma/client";
import { findSettlementAsset } from "@/lib/catalogue";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { formatAmount } from "@/lib/domain/money/amount";
import { claimPageUrl, effectiveStatus, PAYOUT_LINK_STATUSES, type PayoutLinkStatus } from "@/lib/domain/payout-link/link-status";
import { coarsePayoutStatus, isFinalPayoutStatus, type PayoutStatus } from "@/lib/domain/payout/transition";

/** spec: Payout link (without the token and URL, which only the create call answers). */
export const PAYOUT_LINK_SCHEMA = z
  .object({
    link_id: z.guid().describe("The link's identifier."),
    status: z
      .enum(PAYOUT_LINK_STATUSES)
      .describe("`funded` (reserved, claimable), `claiming` (a claim is being made), `claimed`, `expired` or `cancelled`; a funded link past its term reads `expired` before the poller ends it."),
    amount: z.string().describe("The reserved amount, a decimal string in `currency`."),
    currency: z.string().describe("Currency symbol, e.g. `USDT`."),
    network: z.string().describe("Network id, e.g. `tron`."),
    title: z.string().describe("As given at creation; empty when none."),
    note: z.string().describe("As given at creation; empty when none."),
    reference: z.string().describe("As given at creation; empty when none."),
    email: z.string().describe("As given at creation; empty when none."),
    expires_at: z.iso.datetime().describe("When the link expires and its reserve returns (RFC 3339, UTC)."),
    created_at: z.iso.datetime().describe("Creation time (RFC 3339, UTC)."),
    batch_id: z.guid().optional().describe("Present on links made by /v1/payout/link/batch; shared by the links of one call."),
    payout_id: z.guid().optional().describe("After a claim: the payout it made (its `order_id` is `payoutlink:<link_id>`)."),
    claim_address: z.string().optional().describe("After a claim: the address it was claimed to."),
  })
  .meta({ id: "PayoutLink", description: "A payout link (crypto check): a reserved amount a recipient claims to an address of their choice." });

/** spec: the create call alone answers the claim token and URL: only the token's SHA-256 is stored. */
export const CREATED_PAYOUT_LINK_SCHEMA = PAYOUT_LINK_SCHEMA.extend({
  claim_token: z.string().describe("The one-time claim token (256 bits, base64url). Answered only here: it cannot be recovered."),
  claim_url: z.url().describe("The claim page to hand to the recipient. Answered only here."),
}).meta({ id: "CreatedPayoutLink", description: "A payout link just made, with its claim token and URL." });

/** spec: Payout link — the object; the token and URL only when just made, the claim after one. */
export function toPayoutLinkObject(
  link: PayoutLink,
  options: { claimToken?: string; publicBaseUrl: string; now?: Date },
): z.output<typeof PAYOUT_LINK_SCHEMA> & Partial<Pick<z.output<typeof CREATED_PAYOUT_LINK_SCHEMA>, "claim_token" | "claim_url">> {
  const decimals = findSettlementAsset(link.currency, link.network)?.decimals ?? 0;
  return {
    link_id: link.id,
    status: options.now ? effectiveStatus(link, options.now) : (link.status as PayoutLinkStatus),
    amount: formatAmount(toMinor(link.amountMinor), decimals),
    currency: link.currency,
    network: link.network,
    title: link.title,
    note: link.note,
    reference: link.reference ?? "",
    email: link.email ?? "",
    expires_at: link.expiresAt.toISOString(),
    created_at: link.createdAt.toISOString(),
    ...(options.claimToken ? { claim_token: options.claimToken, claim_url: claimPageUrl(options.publicBaseUrl, options.claimToken) } : {}),
    ...(link.batchId ? { batch_id: link.batchId } : {}),
    ...(link.payoutId ? { payout_id: link.payoutId, claim_address: link.claimAddress ?? "" } : {}),
  };
}

/** spec: Public claim card, with the designed fields of a claimed link. */
export const CLAIM_CARD_SCHEMA = z
  .object({
    status: PAYOUT_LINK_SCHEMA.shape.status,
    amount: z.string().describe("The amount of the check, a decimal string in `currency`; the payout fee comes out of it."),
    currency: z.string().describe("Currency symbol, e.g. `USDT`."),
    network: z.string().describe("The network the address must be on."),
    title: z.string().describe("The merchant's title; empty when none."),
    note: z.string().describe("The merchant's message; empty when none."),
    expires_at: z.iso.datetime().describe("When the check expires (RFC 3339, UTC)."),
    claimable: z.boolean().describe("True while the status is `funded` and the term has not passed."),
    memo_supported: z.boolean().describe("Whether the network takes a memo (TON), for the claim form."),
    claim_address: z.string().optional().describe("After a claim: the address it was claimed to."),
    payout_status: z.enum(["check", "process", "paid", "fail", "cancel"]).optional().describe("After a claim: the payout's coarse status."),
    payout_is_final: z.boolean().optional().describe("After a claim: whether the payout's status is terminal."),
    txid: z.string().optional().describe("After a claim: the payout's transaction hash; empty until sent."),
    receive_amount: z.string().optional().describe("After a claim: what the address receives, `amount` less the payout fee (decimal string in `currency`)."),
    commission: z.string().optional().describe("After a claim: the payout fee taken from `amount` (decimal string in `currency`)."),
  })
  .meta({ id: "ClaimCard", description: "The public card of a payout link: nothing merchant-private." });

/** What a claim card shows: the link as its token's holder may see it, and the payout a claim made. */
export interface ClaimCardFacts {
  link: PayoutLink;
  status: PayoutLinkStatus;
  /** Whether the network takes a memo (TON), for the claim form. */
  memoSupported: boolean;
  /** The payout a claim made, once there is one: what it delivers and the fee taken from the check. */
  payout: { status: PayoutStatus; txid: string; receiveMinor: bigint; feeMinor: bigint } | null;
}

/**
 * spec: GET /v1/claim/{token} — the public claim card. Designed: after a claim the card shows the
 * recipient where their money is — the address it was claimed to, the payout's coarse status
 * (`check`, `process`, `paid`, `fail`, `cancel`), its transaction once sent, and what arrives
 * (`receive_amount`) after the fee (`commission`) taken from the check.
 */
export function toClaimCard(facts: ClaimCardFacts): z.output<typeof CLAIM_CARD_SCHEMA> {
  const { link, payout } = facts;
  const decimals = findSettlementAsset(link.currency, link.network)?.decimals ?? 0;
  return {
    status: facts.status,
    amount: formatAmount(toMinor(link.amountMinor), decimals),
    currency: link.currency,
    network: link.network,
    title: link.title,
    note: link.note,
    expires_at: link.expiresAt.toISOString(),
    claimable: facts.status === "funded",
    memo_supported: facts.memoSupported,
    ...(payout
      ? {
          claim_address: link.claimAddress ?? "",
          payout_status: coarsePayoutStatus(payout.status),
          payout_is_final: isFinalPayoutStatus(payout.status),
          txid: payout.txid,
          receive_amount: formatAmount(payout.receiveMinor, decimals),
          commission: formatAmount(payout.feeMinor, decimals),
        }
      : {}),
  };
}

/** spec: POST /v1/claim/{token} — the answer of a claim. */
export const CLAIM_RESULT_SCHEMA = z
  .object({
    status: z.literal("claimed"),
    payout_id: z.guid().describe("The payout the claim made; a repeat with the same address answers the same one."),
    amount: z.string().describe("The amount of the check, a decimal string in `currency`; the payout fee comes out of it."),
    currency: z.string(),
    network: z.string(),
    address: z.string().describe("The address the check is bound to, in the network's canonical form."),
  })
  .meta({ id: "ClaimResult", description: "A claimed payout link and the payout it made." });

/** spec: POST /v1/claim/{token} — a claimed link and the payout it made. */
export function toClaimResult(link: PayoutLink): z.output<typeof CLAIM_RESULT_SCHEMA> {
  const decimals = findSettlementAsset(link.currency, link.network)?.decimals ?? 0;
  return { status: "claimed" as const, payout_id: link.payoutId!, amount: formatAmount(toMinor(link.amountMinor), decimals), currency: link.currency, network: link.network, address: link.claimAddress! };
}
