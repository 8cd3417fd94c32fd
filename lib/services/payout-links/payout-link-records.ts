import { createHash, randomBytes } from "node:crypto";
import type { PayoutLink } from "@/generated/prisma/client";
import type { GatewayConfig } from "@/lib/config/env";
import type { Db, Tx } from "@/lib/db/client";
import { isUuid } from "@/lib/domain/input/uuid";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { AppError } from "@/lib/errors";
import { postJournals } from "@/lib/ledger/post";
import { assetKey, payoutLinkHeldJournal } from "@/lib/ledger/postings";
import type { PayoutDeps } from "@/lib/services/money-out/payout-terms";

/** What the payout-link services use. */
export type PayoutLinkDeps = PayoutDeps & { config: PayoutDeps["config"] & Pick<GatewayConfig, "publicBaseUrl" | "payoutLinksEnabled" | "email"> };

export function assertLinksEnabled(deps: { config: { payoutLinksEnabled: boolean } }): void {
  if (!deps.config.payoutLinksEnabled) throw new AppError("payoutlink.disabled");
}

/** The token in a claim URL: 256 random bits; only its SHA-256 is kept. */
export function newClaimToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token) };
}

function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** The link, locked for the caller's transaction. */
export async function lockLink(tx: Tx, id: string): Promise<PayoutLink> {
  await tx.$queryRaw`SELECT id FROM payout_links WHERE id = ${id}::uuid FOR UPDATE`;
  return tx.payoutLink.findUniqueOrThrow({ where: { id } });
}

/** The link a claim token names, or `payoutlink.not_found`. */
export async function findPayoutLinkByToken(deps: PayoutLinkDeps, token: string): Promise<PayoutLink> {
  assertLinksEnabled(deps);
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw new AppError("payoutlink.not_found");
  const link = await deps.db.payoutLink.findUnique({ where: { tokenHash: hashToken(token) } });
  if (!link) throw new AppError("payoutlink.not_found");
  return link;
}

/** A merchant's link by id: another merchant's is `payoutlink.not_found`. */
export async function getMerchantPayoutLinkOrThrow(deps: PayoutLinkDeps, merchantId: string, linkId: string): Promise<PayoutLink> {
  assertLinksEnabled(deps);
  if (!isUuid(linkId)) throw new AppError("payoutlink.bad_id");
  const link = await deps.db.payoutLink.findFirst({ where: { id: linkId.toLowerCase(), merchantId } });
  if (!link) throw new AppError("payoutlink.not_found");
  return link;
}

/** funded → cancelled or expired, the reserve back to available, in the caller's transaction (the link locked). */
export async function endFundedLink(tx: Tx, link: PayoutLink, status: "cancelled" | "expired", now: Date): Promise<PayoutLink> {
  const asset = assetKey(link.currency, link.network);
  await postJournals(tx, [payoutLinkHeldJournal({ linkId: link.id, merchantId: link.merchantId, asset, amount: toMinor(link.amountMinor), step: "release" })], now);
  return tx.payoutLink.update({ where: { id: link.id }, data: { status, updatedAt: now } });
}

/** claiming → funded, the address released (this claim could not finish; a later claim is left alone). */
export async function releaseClaim(db: Db | Tx, link: Pick<PayoutLink, "id" | "claimAddress" | "claimingAt">, now: Date): Promise<void> {
  await db.payoutLink.updateMany({
    where: { id: link.id, status: "claiming", claimAddress: link.claimAddress, claimingAt: link.claimingAt },
    data: { status: "funded", claimAddress: null, claimMemo: null, claimingAt: null, updatedAt: now },
  });
}
