import type { Payout } from "@/generated/prisma/client";
import type { AppDeps } from "@/lib/deps/app-deps";
import { isAppError } from "@/lib/errors";
import { getMerchantPayoutOrThrow } from "@/lib/services/payouts/manage-payouts";
import { describeActors, toListItem, type ActorView, type PayoutListItem } from "@/lib/services/payouts/search-payouts";

/** One moment of a payout's life, from what is stored (the payout row, its journals, its transfers, the audit log). */
export type PayoutTimelineEvent =
  /** The row was written; `reserved` is the debit its reserve journal moved to payout_held. */
  | { kind: "created"; at: Date; by: ActorView; reserved: string | null }
  /** from_currency: the merchant's USDT converted right before the reserve. */
  | { kind: "converted"; at: Date; fromAmount: string; fromCurrency: string; fromNetwork: string; rate: string }
  /** Approved: by its creator at once (API, service payouts) or by a second user (manual). */
  | { kind: "approved"; at: Date; by: ActorView; isAtCreation: boolean }
  /** A cabinet user rejected or cancelled it (the audit log). */
  | { kind: "rejected" | "cancelled"; at: Date; by: ActorView }
  /** One on-chain attempt: its transfer as stored now (`at` planned, `updatedAt` its last change). */
  | { kind: "transfer"; at: Date; attempt: number; status: string; txid: string; error: string; updatedAt: Date; replacedTxids: string[] }
  /** The paid journal: confirmed on chain, paid out of the reserve. */
  | { kind: "confirmed"; at: Date; txid: string }
  /** The release journal: the reserve went back; `outcome` says why, `reason` a failure's reason. */
  | { kind: "released"; at: Date; outcome: "cancelled" | "rejected" | "failed"; reason: string };

export interface PayoutDetail extends PayoutListItem {
  /** The static wallet a `wallet_refund` returns the held deposits of. */
  staticWalletId: string | null;
  /** The payout link a claim made this payout from. */
  payoutLinkId: string | null;
  timeline: PayoutTimelineEvent[];
}

/** The order of events that share a moment (a payout made, reserved and approved in one transaction). */
const EVENT_ORDER: Record<PayoutTimelineEvent["kind"], number> = { created: 0, converted: 1, approved: 2, rejected: 3, cancelled: 3, transfer: 4, confirmed: 5, released: 6 };

/**
 * A payout of the merchant with its timeline through to its final status, or null for an id
 * that is not one of the merchant's payouts (another merchant's included).
 */
export async function findPayoutDetail(deps: Pick<AppDeps, "db">, merchantId: string, payoutId: string): Promise<PayoutDetail | null> {
  let row: Payout;
  try {
    row = await getMerchantPayoutOrThrow(deps.db, merchantId, { uuid: payoutId });
  } catch (error) {
    if (isAppError(error) && (error.code === "payout.not_found" || error.code === "payout.bad_uuid")) return null;
    throw error;
  }
  const journalKeys = ["reserve", "convert", "release", "paid"].map((step) => `payout:${row.id}:${step}`);
  const transferKeys = Array.from({ length: row.attempt }, (_, index) => `payout:${row.id}:send:${index + 1}`);
  const [journals, transfers, audits] = await Promise.all([
    deps.db.ledgerJournal.findMany({ where: { reference: { in: journalKeys } }, select: { reference: true, createdAt: true } }),
    deps.db.outgoingTransfer.findMany({
      where: { reference: { in: transferKeys } },
      select: { reference: true, status: true, txid: true, lastError: true, createdAt: true, updatedAt: true, consumes: true },
    }),
    deps.db.cabinetAuditEvent.findMany({
      where: { merchantId, action: { in: ["payout.rejected", "payout.cancelled"] }, outcome: "success", detail: { path: ["payout"], equals: row.id } },
      select: { action: true, userId: true, actorEmail: true, createdAt: true },
      orderBy: { createdAt: "asc" },
    }),
  ]);
  const labels = await describeActors(deps.db, merchantId, [row.createdBy, row.approvedBy ?? ""]);
  const item = toListItem(row, labels);
  const journalAt = (step: string) => journals.find((journal) => journal.reference === `payout:${row.id}:${step}`)?.createdAt ?? null;

  const timeline: PayoutTimelineEvent[] = [];
  const reservedAt = journalAt("reserve");
  timeline.push({ kind: "created", at: row.createdAt, by: item.createdBy, reserved: reservedAt ? item.payout.debit_amount : null });
  const convertedAt = journalAt("convert");
  if (convertedAt && item.payout.convert) {
    const { from_amount, from_currency, from_network, rate } = item.payout.convert;
    timeline.push({ kind: "converted", at: convertedAt, fromAmount: from_amount, fromCurrency: from_currency, fromNetwork: from_network, rate });
  }
  if (row.approvedAt && item.approvedBy) {
    timeline.push({ kind: "approved", at: row.approvedAt, by: item.approvedBy, isAtCreation: row.approvedBy === row.createdBy && row.approvedAt.getTime() === row.createdAt.getTime() });
  }
  for (const audit of audits) {
    const by = { actor: audit.userId ? `user:${audit.userId}` : "", label: audit.actorEmail };
    timeline.push({ kind: audit.action === "payout.rejected" ? "rejected" : "cancelled", at: audit.createdAt, by });
  }
  for (const transfer of transfers) {
    const attempt = Number(transfer.reference.slice(transfer.reference.lastIndexOf(":") + 1));
    // Earlier signings replaced with a higher fee while it waited unmined.
    const replacedTxids = transfer.consumes ? ((JSON.parse(transfer.consumes) as { supersedes?: string[] }).supersedes ?? []) : [];
    timeline.push({ kind: "transfer", at: transfer.createdAt, attempt, status: transfer.status, txid: transfer.txid ?? "", error: transfer.lastError, updatedAt: transfer.updatedAt, replacedTxids });
  }
  const paidAt = journalAt("paid");
  if (paidAt) timeline.push({ kind: "confirmed", at: paidAt, txid: row.txid });
  const releasedAt = journalAt("release");
  if (releasedAt) {
    // spec: Payout status — rejected before approval and given up after it both end `failed`.
    const outcome = row.status === "cancelled" ? "cancelled" : row.approvedAt ? "failed" : "rejected";
    timeline.push({ kind: "released", at: releasedAt, outcome, reason: outcome === "failed" ? row.waitReason : "" });
  }
  timeline.sort((a, b) => a.at.getTime() - b.at.getTime() || EVENT_ORDER[a.kind] - EVENT_ORDER[b.kind]);

  return {
    ...item,
    staticWalletId: row.staticWalletId,
    payoutLinkId: row.createdBy.startsWith("payoutlink:") ? row.createdBy.slice("payoutlink:".length) : null,
    timeline,
  };
}
