import { createHash, randomBytes, randomUUID } from "node:crypto";
import { z } from "zod";
import type { PayoutLink } from "@/generated/prisma/client";
import type { Db, Tx } from "@/lib/db/client";
import { withTransaction } from "@/lib/db/transaction";
import { findSettlementAsset, isSettlementSymbol, normalizeNetworkId, normalizeSymbol, type NetworkId } from "@/lib/catalogue";
import { addressChainOf } from "@/lib/chains/registry";
import { networkAvailability } from "@/lib/chains/network-sources";
import { judgeReserve } from "@/lib/domain/payout/amounts";
import { coarsePayoutStatus, isFinalPayoutStatus, type PayoutStatus } from "@/lib/domain/payout/transition";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { AppError, isAppError, parseInput, type InputSpec } from "@/lib/errors";
import { log } from "@/lib/log";
import { lockSpendableBalance } from "@/lib/ledger/balances";
import { lockAccounts, postJournals } from "@/lib/ledger/post";
import { assetKey, payoutLinkHeldJournal, payoutReservedJournal } from "@/lib/ledger/postings";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { isUuid } from "@/lib/domain/input/uuid";
import { optionalText } from "@/lib/domain/input/optional-fields";
import { screenDestination } from "@/lib/services/compliance/screening";
import { inBalanceTurn } from "@/lib/services/money-out/record-new-payout";
import { quoteFee, type PayoutDeps } from "@/lib/services/money-out/payout-terms";
import { assertNotGatewayAddress } from "@/lib/services/money-out/gateway-addresses";
import { checkAddressOn, sendsMemo } from "@/lib/services/money-out/payout-destination";
import { assertPayoutsNotFrozen } from "@/lib/services/money-out/payout-freeze";
import { writePayout, type PayoutWriterDeps } from "@/lib/services/money-out/write-payout";
import type { GatewayConfig } from "@/lib/config/env";
import { queueEmail } from "@/lib/email/outbox";
import { payoutLinkEmail } from "@/lib/email/templates";

export type PayoutLinkDeps = PayoutDeps & { config: PayoutDeps["config"] & Pick<GatewayConfig, "publicBaseUrl" | "payoutLinksEnabled" | "email"> };

/** spec: Payout link status. */
export type PayoutLinkStatus = "funded" | "claiming" | "claimed" | "expired" | "cancelled";

/** spec: Limits — 1 to 720 hours; omitted or 0 gives 1 hour. */
export function clampLinkHours(hours: number | undefined): number {
  if (hours === undefined || !Number.isFinite(hours) || hours < 1) return 1;
  return Math.min(Math.floor(hours), 720);
}

/** spec: stuck `claiming` over 15 minutes is resolved by the reaper. */
export const CLAIMING_TIMEOUT_MS = 15 * 60_000;

export const createPayoutLinkSchema = z
  .object({
    currency: z.string().describe("Crypto currency to reserve and pay out, e.g. `USDT`; fiat is impossible."),
    network: z.string().describe("Payout network id, e.g. `tron`."),
    amount: z.string().describe("Amount the link holds, a decimal string in `currency`; above the payout fee, which the recipient bears."),
    reference: optionalText.describe("Deduplication key, unique per merchant, at most 128 characters: a repeat is `payoutlink.duplicate_reference`."),
    title: optionalText.describe("Shown to the recipient, at most 200 characters."),
    note: optionalText.describe("Message to the recipient (claim page and e-mail), at most 1000 characters."),
    email: z
      .preprocess((value) => (value === "" || value === null ? undefined : value), z.email().max(254).optional())
      .describe("When set, the recipient is e-mailed the claim link, best effort: a failed delivery does not undo the link."),
    expires_in_hours: z.number().optional().describe("Lifetime in hours, clamped to 1–720 (fractions dropped); omitted or 0 gives 1 hour."),
  })
  .meta({ id: "PayoutLinkRequest", description: "A payout link to create, alone or as an element of a link batch." });

export const CREATE_PAYOUT_LINK_INPUT: InputSpec<typeof createPayoutLinkSchema> = {
  schema: createPayoutLinkSchema,
  invalidBody: "payoutlink.bad_request",
  fieldErrors: { currency: "payoutlink.unknown_currency", network: "payoutlink.unknown_currency", amount: "payoutlink.bad_amount", email: "email.bad_address", reference: "payoutlink.bad_request" },
};

/** The token in a claim URL: 256 random bits; only its SHA-256 is kept. */
function newClaimToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token) };
}

function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function claimPageUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}/pay/claim/${token}`;
}

const MAX_TITLE = 200;
const MAX_NOTE = 1000;
const MAX_REFERENCE = 128;

/** What a create call asks for, checked before the database. */
interface LinkTerms {
  currency: string;
  network: NetworkId;
  amountMinor: bigint;
  decimals: number;
  reference: string | null;
  title: string;
  note: string;
  email: string | null;
  hours: number;
}

async function checkLinkTerms(deps: PayoutLinkDeps, merchantId: string, input: z.output<typeof createPayoutLinkSchema>): Promise<LinkTerms> {
  const currency = normalizeSymbol(input.currency);
  const network = normalizeNetworkId(input.network);
  // spec: a crypto asset on a payout network; fiat impossible.
  if (!isSettlementSymbol(currency) || !findSettlementAsset(currency, network)) throw new AppError("payoutlink.unknown_currency", `${input.currency} on ${input.network} is not paid out by this service.`);
  if (!networkAvailability(deps.config)(network).payout) throw new AppError("payoutlink.unknown_currency", `${currency} on ${network} is not paid out by this service.`);
  const asset = findSettlementAsset(currency, network)!;
  const amountMinor = parseAmount(input.amount, asset.decimals);
  if (amountMinor === null || amountMinor <= 0n) throw new AppError("payoutlink.bad_amount", `amount must be a positive amount of ${currency} with at most ${asset.decimals} decimals.`);
  // The recipient bears the payout fee: a check the fee would swallow is worth nothing.
  if (amountMinor <= (await quoteFee(deps, { asset }))) throw new AppError("payoutlink.bad_amount", "amount must be above the payout fee the recipient bears.");
  const title = input.title ?? "";
  const note = input.note ?? "";
  const reference = input.reference ?? null;
  if (title.length > MAX_TITLE || note.length > MAX_NOTE || (reference !== null && reference.length > MAX_REFERENCE)) {
    throw new AppError("payoutlink.bad_request", `title, note and reference are at most ${MAX_TITLE}, ${MAX_NOTE} and ${MAX_REFERENCE} characters.`);
  }
  await assertPayoutsNotFrozen(deps, merchantId);
  return { currency, network: network as NetworkId, amountMinor, decimals: asset.decimals, reference, title, note, email: input.email ?? null, hours: clampLinkHours(input.expires_in_hours) };
}

/**
 * spec: POST /v1/payout/link. In one transaction, under the balance's row lock: the link and its
 * reserve `available → payout_held` (journal `link:<id>:reserve`). The claim token is made here
 * and answered once: only its hash is stored. A `reference` already used by the merchant is
 * `payoutlink.duplicate_reference` (409), naming the existing link.
 */
export async function createPayoutLink(
  deps: PayoutLinkDeps,
  merchantId: string,
  input: z.output<typeof createPayoutLinkSchema>,
  options: { actor: string; batchId?: string },
): Promise<{ link: PayoutLink; claimToken: string }> {
  assertLinksEnabled(deps);
  const terms = await checkLinkTerms(deps, merchantId, input);
  if (terms.reference !== null) await refuseTakenReference(deps.db, merchantId, terms.reference);
  const { token, hash } = newClaimToken();
  const now = deps.now();
  const asset = assetKey(terms.currency, terms.network);
  const link = await inBalanceTurn(merchantId, asset, () =>
    withTransaction(deps.db, async (tx) => {
      const id = randomUUID();
      const { count } = await tx.payoutLink.createMany({
        data: [
          {
            id,
            merchantId,
            status: "funded",
            currency: terms.currency,
            network: terms.network,
            amountMinor: terms.amountMinor.toString(),
            title: terms.title,
            note: terms.note,
            reference: terms.reference,
            email: terms.email,
            tokenHash: hash,
            batchId: options.batchId ?? null,
            createdBy: options.actor,
            expiresAt: new Date(now.getTime() + terms.hours * 3_600_000),
            createdAt: now,
            updatedAt: now,
          },
        ],
        skipDuplicates: true,
      });
      // The reference was taken meanwhile (the unique index waited for that creator to commit).
      if (count === 0) await refuseTakenReference(tx, merchantId, terms.reference!);
      const verdict = judgeReserve(await lockSpendableBalance(tx, merchantId, asset), terms.amountMinor);
      if (verdict === "funds_maturing") throw new AppError("payoutlink.funds_maturing");
      if (verdict !== "ok") throw new AppError("payoutlink.insufficient_funds");
      await postJournals(tx, [payoutLinkHeldJournal({ linkId: id, merchantId, asset, amount: terms.amountMinor, step: "reserve" })], now);
      const link = await tx.payoutLink.findUniqueOrThrow({ where: { id } });
      // Best effort (spec): queued with the link, sent by the outbox; no e-mail service, no e-mail.
      if (terms.email && deps.config.email.mode !== "off") {
        const amount = formatAmount(terms.amountMinor, terms.decimals);
        const message = payoutLinkEmail({ amount, currency: terms.currency, network: terms.network, title: terms.title, note: terms.note, expiresAt: link.expiresAt }, claimPageUrl(deps.config.publicBaseUrl, token));
        await queueEmail(tx, deps.config, { merchantId, recipient: terms.email, ...message, eraseAfterSend: true }, now);
      }
      return link;
    }),
  );
  return { link, claimToken: token };
}

async function refuseTakenReference(db: Db | Tx, merchantId: string, reference: string): Promise<void> {
  const existing = await db.payoutLink.findUnique({ where: { merchantId_reference: { merchantId, reference } }, select: { id: true } });
  if (existing) throw new AppError("payoutlink.duplicate_reference", `reference ${reference} is payout link ${existing.id}.`);
}

/** spec: Limits — a payout link batch takes at most 500 elements. */
export const MAX_LINK_BATCH = 500;

/**
 * spec: POST /v1/payout/link/batch — each element made as the single call would, in its own
 * transaction, in order; the results aligned by index, the links sharing one `batch_id`.
 */
export async function createPayoutLinkBatch(deps: PayoutLinkDeps, merchantId: string, elements: unknown[], actor: string) {
  assertLinksEnabled(deps);
  if (elements.length === 0) throw new AppError("payoutlink.empty_batch");
  if (elements.length > MAX_LINK_BATCH) throw new AppError("payoutlink.batch_too_large");
  const batchId = randomUUID();
  const results: ({ ok: true; link: ReturnType<typeof toPayoutLinkObject> } | { ok: false; error: string; message: string })[] = [];
  for (const element of elements) {
    try {
      const { link, claimToken } = await createPayoutLink(deps, merchantId, parseInput(CREATE_PAYOUT_LINK_INPUT, element), { actor, batchId });
      results.push({ ok: true, link: toPayoutLinkObject(link, { claimToken, publicBaseUrl: deps.config.publicBaseUrl }) });
    } catch (error) {
      // Never lose the tokens of the links made before: every element answers for itself.
      if (!isAppError(error)) log.error("payout link batch element failed", { error });
      results.push(isAppError(error) ? { ok: false, error: error.code, message: error.message } : { ok: false, error: "internal.error", message: "internal error; this link was not created" });
    }
  }
  return { created: results.filter((result) => result.ok).length, total: elements.length, results };
}

const PAYOUT_LINK_STATUSES = ["funded", "claiming", "claimed", "expired", "cancelled"] as const satisfies readonly PayoutLinkStatus[];

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

export async function getMerchantPayoutLinkOrThrow(deps: PayoutLinkDeps, merchantId: string, linkId: string): Promise<PayoutLink> {
  assertLinksEnabled(deps);
  if (!isUuid(linkId)) throw new AppError("payoutlink.bad_id");
  const link = await deps.db.payoutLink.findFirst({ where: { id: linkId.toLowerCase(), merchantId } });
  if (!link) throw new AppError("payoutlink.not_found");
  return link;
}

/** Past this many links a list page is empty anyway; it keeps the offset a database integer. */
const MAX_LIST_OFFSET = 1_000_000_000;

/** spec: POST /v1/payout/link/list — `{limit, offset}`, limit outside 1–200 becomes 50, newest first. */
export async function listPayoutLinks(deps: PayoutLinkDeps, merchantId: string, input: { limit?: unknown; offset?: unknown }): Promise<PayoutLink[]> {
  assertLinksEnabled(deps);
  const limit = typeof input.limit === "number" && Number.isInteger(input.limit) && input.limit >= 1 && input.limit <= 200 ? input.limit : 50;
  const offset = typeof input.offset === "number" && Number.isFinite(input.offset) && input.offset > 0 ? Math.min(Math.floor(input.offset), MAX_LIST_OFFSET) : 0;
  return deps.db.payoutLink.findMany({ where: { merchantId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: limit, skip: offset });
}

/**
 * spec: POST /v1/payout/link/cancel — only a funded link: `cancelled`, its reserve returned once
 * (`link:<id>:release`). A link a claim finished first answers as claimed (with its payout);
 * anything else is `payoutlink.not_funded`.
 */
export async function cancelPayoutLink(deps: PayoutLinkDeps, merchantId: string, linkId: string): Promise<PayoutLink> {
  const found = await getMerchantPayoutLinkOrThrow(deps, merchantId, linkId);
  if (found.status !== "funded" && found.status !== "claiming") throw new AppError("payoutlink.not_funded", `The link is ${found.status}.`);
  return withTransaction(deps.db, async (tx) => {
    const link = await lockLink(tx, found.id);
    // spec: a claim that completed while this cancel waited wins; the cancel answers the claimed link.
    if (link.status === "claimed") return link;
    if (link.status !== "funded") throw new AppError("payoutlink.not_funded", `The link is ${link.status}.`);
    return endFundedLink(tx, link, "cancelled", deps.now());
  });
}

/** funded → cancelled or expired, the reserve back to available, in the caller's transaction (the link locked). */
async function endFundedLink(tx: Tx, link: PayoutLink, status: "cancelled" | "expired", now: Date): Promise<PayoutLink> {
  const asset = assetKey(link.currency, link.network);
  await postJournals(tx, [payoutLinkHeldJournal({ linkId: link.id, merchantId: link.merchantId, asset, amount: toMinor(link.amountMinor), step: "release" })], now);
  return tx.payoutLink.update({ where: { id: link.id }, data: { status, updatedAt: now } });
}

async function lockLink(tx: Tx, id: string): Promise<PayoutLink> {
  await tx.$queryRaw`SELECT id FROM payout_links WHERE id = ${id}::uuid FOR UPDATE`;
  return tx.payoutLink.findUniqueOrThrow({ where: { id } });
}

/** The link a claim token names, or `payoutlink.not_found`. */
async function findByToken(deps: PayoutLinkDeps, token: string): Promise<PayoutLink> {
  assertLinksEnabled(deps);
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw new AppError("payoutlink.not_found");
  const link = await deps.db.payoutLink.findUnique({ where: { tokenHash: hashToken(token) } });
  if (!link) throw new AppError("payoutlink.not_found");
  return link;
}

/** A funded link whose term passed is expired for the recipient, even before the poller gets to it. */
function effectiveStatus(link: PayoutLink, now: Date): PayoutLinkStatus {
  return link.status === "funded" && link.expiresAt <= now ? "expired" : (link.status as PayoutLinkStatus);
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
  })
  .meta({ id: "ClaimCard", description: "The public card of a payout link: nothing merchant-private." });

/** spec: GET /v1/claim/{token} — the public claim card. */
export async function openClaimCard(deps: PayoutLinkDeps, token: string) {
  const link = await findByToken(deps, token);
  const status = effectiveStatus(link, deps.now());
  const decimals = findSettlementAsset(link.currency, link.network)?.decimals ?? 0;
  return {
    status,
    amount: formatAmount(toMinor(link.amountMinor), decimals),
    currency: link.currency,
    network: link.network,
    title: link.title,
    note: link.note,
    expires_at: link.expiresAt.toISOString(),
    claimable: status === "funded",
    /** Designed: whether the network takes a memo (TON), for the claim page's form. */
    memo_supported: sendsMemo(link.network),
    ...(await describeClaimedPayout(deps, link)),
  };
}

/**
 * Designed: after a claim the card shows the recipient where their money is — the address it was
 * claimed to, the payout's coarse status (`check`, `process`, `paid`, `fail`, `cancel`) and its
 * transaction once sent. Only the token's holder sees the card.
 */
async function describeClaimedPayout(deps: PayoutLinkDeps, link: PayoutLink) {
  if (!link.payoutId) return {};
  const payout = await deps.db.payout.findUnique({ where: { id: link.payoutId }, select: { status: true, txid: true } });
  if (!payout) return {};
  const status = payout.status as PayoutStatus;
  return { claim_address: link.claimAddress ?? "", payout_status: coarsePayoutStatus(status), payout_is_final: isFinalPayoutStatus(status), txid: payout.txid };
}

export const claimSchema = z.object({
  address: z
    .preprocess((value) => (value === "" || value === null ? undefined : value), z.string().max(256).optional())
    .describe("Required: the address to pay, on the check's network. The first address binds the check."),
  memo: z
    .preprocess((value) => (value === "" || value === null ? undefined : value), z.string().max(120).optional())
    .describe("Destination tag or memo, at most 120 characters; only on networks that take one (`memo_supported` on the card)."),
});

/**
 * spec: POST /v1/claim/{token}. The first address binds the link: funded → claiming (a
 * transaction of its own), then — after the address is screened and the fee quoted — one
 * transaction makes the payout (`order_id` `payoutlink:<link_id>`, the fee from the amount)
 * take the link's reserve over and marks the link claimed. A repeat with the same address answers
 * that payout; another address is `payoutlink.claim_in_progress`. A claim that cannot finish
 * (blocked address, no rate) puts the link back to funded.
 */
export async function claimPayoutLink(deps: PayoutLinkDeps, token: string, input: z.output<typeof claimSchema>) {
  const found = await findByToken(deps, token);
  const address = (input.address ?? "").trim();
  if (address === "") throw new AppError("payoutlink.no_address");
  const network = found.network as NetworkId;
  const normalized = checkAddressOn(network, address, addressChainOf(deps.config, network));
  const memo = input.memo === undefined ? null : input.memo;
  if (memo !== null && !sendsMemo(network)) throw new AppError("payout.memo_unsupported", `${network} transfers carry no memo.`);
  if (memo !== null && memo.length > 120) throw new AppError("payout.memo_too_long");

  const begun = await withTransaction(deps.db, async (tx) => {
    const link = await lockLink(tx, found.id);
    if (link.status === "claimed" || link.status === "claiming") {
      if (link.claimAddress !== normalized) throw new AppError("payoutlink.claim_in_progress", "The link is bound to the address it was first claimed with.");
      return link;
    }
    if (link.status === "cancelled") throw new AppError("payoutlink.cancelled");
    if (link.status === "expired" || link.expiresAt <= deps.now()) throw new AppError("payoutlink.expired");
    return tx.payoutLink.update({ where: { id: link.id }, data: { status: "claiming", claimAddress: normalized, claimMemo: memo, claimingAt: deps.now(), updatedAt: deps.now() } });
  });
  if (begun.status === "claimed") return claimResult(begun);

  let fee: bigint;
  try {
    await assertNotGatewayAddress(deps, { network, address: normalized }, "payoutlink.destination_internal");
    await screenDestination(deps, { network, address: normalized });
    fee = await quoteFee(deps, { asset: findSettlementAsset(begun.currency, network)! });
  } catch (error) {
    // Not bound to an address it cannot be paid to: the recipient may try another.
    if (isAppError(error)) await releaseClaim(deps.db, begun, deps.now());
    throw error;
  }
  const finished = await inBalanceTurn(begun.merchantId, assetKey(begun.currency, network), () =>
    withTransaction(deps.db, (tx) => finishClaim(tx, deps, begun.id, fee)),
  );
  if (finished === "below_fee") {
    await releaseClaim(deps.db, begun, deps.now());
    throw new AppError("payout.amount_below_fee", "The payout fee now exceeds the link's amount; try again later.");
  }
  return claimResult(finished);
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

function claimResult(link: PayoutLink): z.output<typeof CLAIM_RESULT_SCHEMA> {
  const decimals = findSettlementAsset(link.currency, link.network)?.decimals ?? 0;
  return { status: "claimed" as const, payout_id: link.payoutId!, amount: formatAmount(toMinor(link.amountMinor), decimals), currency: link.currency, network: link.network, address: link.claimAddress! };
}

/** claiming → funded, the address released (this claim could not finish; a later claim is left alone). */
async function releaseClaim(db: Db, link: Pick<PayoutLink, "id" | "claimAddress" | "claimingAt">, now: Date): Promise<void> {
  await db.payoutLink.updateMany({
    where: { id: link.id, status: "claiming", claimAddress: link.claimAddress, claimingAt: link.claimingAt },
    data: { status: "funded", claimAddress: null, claimMemo: null, claimingAt: null, updatedAt: now },
  });
}

/**
 * Inside one transaction, the link locked: the payout `payoutlink:<link_id>` (approved, the fee
 * from the amount), the reserve handed over — `link:<id>:release` and `payout:<id>:reserve`,
 * both under the balance's locks — and the link claimed. A link another call finished answers
 * as it is.
 */
async function finishClaim(tx: Tx, deps: PayoutWriterDeps, linkId: string, fee: bigint): Promise<PayoutLink | "below_fee"> {
  const now = deps.now();
  const link = await lockLink(tx, linkId);
  if (link.status === "claimed") return link;
  // The reaper put it back (a claim that took longer than its timeout): the recipient claims again.
  if (link.status !== "claiming") throw new AppError("payoutlink.claim_in_progress", `The link is ${link.status}; claim again.`);
  const amount = toMinor(link.amountMinor);
  if (amount <= fee) return "below_fee";
  const asset = assetKey(link.currency, link.network);
  const merchant = (bucket: "available" | "payout_held" | "debt" | "maturing") => ({ owner: link.merchantId, asset, bucket });
  await lockAccounts(tx, [merchant("available"), merchant("debt"), merchant("maturing"), merchant("payout_held")], now);
  const payoutId = randomUUID();
  // The link's hold becomes the payout's reserve; the money-out policy decides whether it goes out
  // at once or waits (a freeze, the owner's threshold).
  const written = await writePayout(tx, deps, {
    row: {
      id: payoutId,
      merchantId: link.merchantId,
      orderId: `payoutlink:${link.id}`,
      source: "api",
      currency: link.currency,
      network: link.network,
      address: link.claimAddress!,
      memo: link.claimMemo,
      amountMinor: (amount - fee).toString(),
      feeMinor: fee.toString(),
      debitMinor: amount.toString(),
      requestedAmount: amount.toString(),
      isSubtract: false,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    },
    kind: "link_claim",
    actor: `payoutlink:${link.id}`,
    askedBy: link.createdBy,
    reserve: {
      journals: [
        payoutLinkHeldJournal({ linkId: link.id, merchantId: link.merchantId, asset, amount, step: "release" }),
        payoutReservedJournal({ payoutId, merchantId: link.merchantId, asset, debit: amount }),
      ],
    },
  });
  // The order id is the service's own (refused to merchants): taken only if this claim ran before.
  if (!written) throw new Error(`payout payoutlink:${link.id} exists while the link is claiming`);
  return tx.payoutLink.update({ where: { id: link.id }, data: { status: "claimed", payoutId, updatedAt: now } });
}

/**
 * Periodic job (every 60 s): funded links past their term expire, their reserve returned once;
 * claims stuck in `claiming` over 15 minutes (a crash between binding the address and making the
 * payout, which commits with `claimed`) are put back to funded.
 */
export async function expireAndReapPayoutLinks(deps: Pick<PayoutLinkDeps, "db" | "now">, limit = 500): Promise<{ expired: number; reaped: number }> {
  const now = deps.now();
  const due = await deps.db.payoutLink.findMany({ where: { status: "funded", expiresAt: { lte: now } }, select: { id: true }, take: limit });
  let expired = 0;
  for (const { id } of due) {
    try {
      const ended = await withTransaction(deps.db, async (tx) => {
        const link = await lockLink(tx, id);
        if (link.status !== "funded" || link.expiresAt > now) return false; // claimed or cancelled meanwhile
        await endFundedLink(tx, link, "expired", now);
        return true;
      });
      if (ended) expired++;
    } catch (error) {
      log.warn("payout link not expired; the next pass retries", { linkId: id, error });
    }
  }
  const cutoff = new Date(now.getTime() - CLAIMING_TIMEOUT_MS);
  const stuck = await deps.db.payoutLink.findMany({ where: { status: "claiming", claimingAt: { lte: cutoff } }, select: { id: true }, take: limit });
  let reaped = 0;
  for (const { id } of stuck) {
    try {
      // A claim's payout and its `claimed` commit together: one still claiming has no payout, and
      // goes back to funded for the recipient to claim again.
      const didReap = await withTransaction(deps.db, async (tx) => {
        const link = await lockLink(tx, id);
        if (link.status !== "claiming" || !link.claimingAt || link.claimingAt > cutoff) return false; // finished, or claimed anew meanwhile
        await tx.payoutLink.update({ where: { id }, data: { status: "funded", claimAddress: null, claimMemo: null, claimingAt: null, updatedAt: now } });
        return true;
      });
      if (didReap) {
        reaped++;
        log.warn("payout link claim stuck in claiming put back to funded", { linkId: id });
      }
    } catch (error) {
      log.warn("payout link not reaped; the next pass retries", { linkId: id, error });
    }
  }
  return { expired, reaped };
}

/** The sandbox's `POST /v1/sandbox/expire` with a link_id: the term treated as reached, the expiry run. */
export async function expirePayoutLinkNow(deps: PayoutLinkDeps, merchantId: string, linkId: string): Promise<PayoutLink> {
  const link = await getMerchantPayoutLinkOrThrow(deps, merchantId, linkId);
  const now = deps.now();
  if (link.status === "funded") await deps.db.payoutLink.updateMany({ where: { id: link.id, status: "funded" }, data: { expiresAt: now } });
  await expireAndReapPayoutLinks({ db: deps.db, now: () => now });
  return deps.db.payoutLink.findUniqueOrThrow({ where: { id: link.id } });
}

function assertLinksEnabled(deps: { config: { payoutLinksEnabled: boolean } }): void {
  if (!deps.config.payoutLinksEnabled) throw new AppError("payoutlink.disabled");
}
