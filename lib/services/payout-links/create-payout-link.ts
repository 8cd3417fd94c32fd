import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { PayoutLink } from "@/generated/prisma/client";
import { findSettlementAsset, isSettlementSymbol, normalizeNetworkId, normalizeSymbol, type NetworkId } from "@/lib/catalogue";
import { networkAvailability } from "@/lib/chains/network-sources";
import type { Db, Tx } from "@/lib/db/client";
import type { UnitOfWork } from "@/lib/deps/unit-of-work";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { claimPageUrl, clampLinkHours } from "@/lib/domain/payout-link/link-status";
import { judgeReserve } from "@/lib/domain/payout/amounts";
import { queueEmail } from "@/lib/email/outbox";
import { payoutLinkEmail } from "@/lib/email/templates";
import { AppError } from "@/lib/errors";
import { lockSpendableBalance } from "@/lib/ledger/balances";
import { postJournals } from "@/lib/ledger/post";
import { assetKey, payoutLinkHeldJournal } from "@/lib/ledger/postings";
import { assertPayoutsNotFrozen } from "@/lib/services/money-out/payout-freeze";
import { quoteFee } from "@/lib/services/money-out/payout-terms";
import { balanceTurn } from "@/lib/services/money-out/record-new-payout";
import { assertLinksEnabled, newClaimToken, type PayoutLinkDeps } from "./payout-link-records";
import type { createPayoutLinkSchema } from "@/lib/api/requests/payout-link";

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

/** A create call: the merchant, the link asked for, who asks, and the batch it belongs to. */
export interface CreateLinkRequest {
  merchantId: string;
  input: z.output<typeof createPayoutLinkSchema>;
  actor: string;
  batchId?: string;
}

/** A link checked before the database, with its claim token. */
export interface LinkPlan {
  merchantId: string;
  actor: string;
  batchId: string | null;
  terms: LinkTerms;
  asset: string;
  token: string;
  tokenHash: string;
  now: Date;
}

/**
 * spec: POST /v1/payout/link. In one transaction, under the balance's row lock (and in its turn):
 * the link and its reserve `available → payout_held` (journal `link:<id>:reserve`). The claim
 * token is made before and answered once: only its hash is stored. A `reference` already used by
 * the merchant is `payoutlink.duplicate_reference` (409), naming the existing link.
 */
export const createPayoutLink = {
  prepare: planPayoutLink,
  turnOf: (plan: LinkPlan) => balanceTurn(plan.merchantId, plan.asset),
  execute: writePayoutLink,
} satisfies UnitOfWork<CreateLinkRequest, LinkPlan, { link: PayoutLink; claimToken: string }>;

async function planPayoutLink(deps: PayoutLinkDeps, { merchantId, input, actor, batchId }: CreateLinkRequest): Promise<LinkPlan> {
  assertLinksEnabled(deps);
  const terms = await checkLinkTerms(deps, merchantId, input);
  if (terms.reference !== null) await refuseTakenReference(deps.db, merchantId, terms.reference);
  const { token, hash } = newClaimToken();
  return { merchantId, actor, batchId: batchId ?? null, terms, asset: assetKey(terms.currency, terms.network), token, tokenHash: hash, now: deps.now() };
}

async function writePayoutLink(tx: Tx, deps: Pick<PayoutLinkDeps, "config">, plan: LinkPlan): Promise<{ link: PayoutLink; claimToken: string }> {
  const { merchantId, terms, asset, token, now } = plan;
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
        tokenHash: plan.tokenHash,
        batchId: plan.batchId,
        createdBy: plan.actor,
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
  return { link, claimToken: token };
}

async function refuseTakenReference(db: Db | Tx, merchantId: string, reference: string): Promise<void> {
  const existing = await db.payoutLink.findUnique({ where: { merchantId_reference: { merchantId, reference } }, select: { id: true } });
  if (existing) throw new AppError("payoutlink.duplicate_reference", `reference ${reference} is payout link ${existing.id}.`);
}

/** spec: Limits — a payout link batch takes at most 500 elements. */
export const MAX_LINK_BATCH = 500;

/** spec: POST /v1/payout/link/batch — the checks of the whole batch before any element is made; its batch_id. */
export function startPayoutLinkBatch(deps: { config: { payoutLinksEnabled: boolean } }, elements: unknown[]): string {
  assertLinksEnabled(deps);
  if (elements.length === 0) throw new AppError("payoutlink.empty_batch");
  if (elements.length > MAX_LINK_BATCH) throw new AppError("payoutlink.batch_too_large");
  return randomUUID();
}
