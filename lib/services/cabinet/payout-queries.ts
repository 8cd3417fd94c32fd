import type { Payout, Prisma, StaticWallet } from "@/generated/prisma/client";
import type { AppDeps } from "@/lib/deps/app-deps";
import { findNetwork, findSettlementAsset, listSettlementAssets, normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import { networkAvailability } from "@/lib/chains/network-sources";
import type { Db } from "@/lib/db/client";
import { formatAmount } from "@/lib/domain/money/amount";
import { coarsePayoutStatus, PAYOUT_STATUSES, type CoarsePayoutStatus, type PayoutStatus } from "@/lib/domain/payout/transition";
import { isAppError } from "@/lib/errors";
import { listBalances } from "@/lib/services/balances/list-balances";
import { listServiceEntries } from "@/lib/services/catalogue/list-service-entries";
import { toCsvLine } from "@/lib/services/cabinet/invoice-search";
import { isUuid } from "@/lib/domain/input/uuid";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { after, decodeCursor, encodeCursor } from "@/lib/db/keyset-cursor";
import { getMerchantPayoutOrThrow, listPayouts } from "@/lib/services/payouts/manage-payouts";
import { sendsMemo } from "@/lib/services/money-out/payout-destination";
import { toPayoutObject, type PayoutObject } from "@/lib/api/serialize/payout";
import { WAITED_APPROVER } from "@/lib/services/payouts/manage-payouts";

// The cabinet's reads around money going out: the payout list with its filters and CSV export,
// one payout's timeline from what is stored, the assets a form may offer, and what static
// wallets received. Every query names the merchant.

/** The coarse statuses of the API (spec: Payout status), in the order the cabinet offers them. */
export const COARSE_PAYOUT_STATUSES: readonly CoarsePayoutStatus[] = ["check", "process", "paid", "fail", "cancel"];

/** What a payout row pays (spec: Payout `kind`). */
export const PAYOUT_KINDS = ["payout", "refund", "split", "wallet_refund"] as const;
export type PayoutKind = (typeof PAYOUT_KINDS)[number];

export function isPayoutKind(value: string): value is PayoutKind {
  return (PAYOUT_KINDS as readonly string[]).includes(value);
}

/** The cabinet's payout filters: those of /v1/payout/list, plus the kind and the approval queue. */
export interface PayoutSearchFilters {
  /** Any of these coarse statuses. */
  status?: CoarsePayoutStatus[];
  /** Only manual payouts waiting for a second user's approval (internal status `pending`); wins over `status`. */
  isAwaitingApproval?: boolean;
  /** A coin symbol, any case. */
  coin?: string;
  network?: string;
  kind?: PayoutKind;
}

/** Who did something to a payout: the stored actor (`user:<id>`, `key:<public id>`, …) and words for people. */
export interface ActorView {
  actor: string;
  label: string;
}

/** A payout as the cabinet lists it: the API object, and who created and approved it. */
export interface PayoutListItem {
  payout: PayoutObject;
  createdBy: ActorView;
  approvedBy: ActorView | null;
  approvedAt: string | null;
  /** Why a pending payout is held by the money-out policy, and when the service approves it if nobody decides; null when not held. */
  hold: { reason: "manual" | "threshold" | "freeze"; autoApproveAt: string | null } | null;
}

export interface PayoutSearchPage {
  items: PayoutListItem[];
  /** The same cursor as /v1/payout/list's `next_cursor`; null on the last page. */
  nextCursor: string | null;
}

export const MAX_PAYOUT_PAGE = 100;
/** Rows read per query while exporting. */
const EXPORT_PAGE_SIZE = 500;

/** listPayouts' filters (internal statuses, canonical coin and network) for the cabinet's. */
function toListFilters(filters: PayoutSearchFilters): { status?: string[]; currency?: string; network?: string } {
  const coarse = filters.status && filters.status.length > 0 ? filters.status : undefined;
  const status: PayoutStatus[] | undefined = filters.isAwaitingApproval ? ["pending"] : coarse && PAYOUT_STATUSES.filter((value) => coarse.includes(coarsePayoutStatus(value)));
  return {
    status,
    currency: filters.coin?.trim() ? normalizeSymbol(filters.coin.trim()) : undefined,
    network: filters.network?.trim() ? normalizeNetworkId(filters.network.trim()) : undefined,
  };
}

/**
 * The rows of a page. Without a kind it is listPayouts itself (the rows, order and cursors of
 * /v1/payout/list). listPayouts takes no kind, so with one its conditions are written again here
 * with the kind added; the integration test holds the two together.
 */
async function findPayoutPage(db: Db, merchantId: string, filters: PayoutSearchFilters, page: { limit: number; cursor?: string }): Promise<{ items: Payout[]; nextCursor: string | null }> {
  const listFilters = toListFilters(filters);
  if (!filters.kind) return listPayouts(db, merchantId, listFilters, page);
  const position = page.cursor ? decodeCursor(page.cursor, "payout.bad_cursor") : null;
  const where: Prisma.PayoutWhereInput = {
    merchantId,
    kind: filters.kind,
    ...(listFilters.status ? { status: { in: listFilters.status } } : {}),
    ...(listFilters.currency ? { currency: listFilters.currency } : {}),
    ...(listFilters.network ? { network: listFilters.network } : {}),
    ...after(position),
  };
  const rows = await db.payout.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: page.limit + 1 });
  const items = rows.slice(0, page.limit);
  return { items, nextCursor: rows.length > page.limit ? encodeCursor(items[items.length - 1]) : null };
}

/** A page of the merchant's payouts, newest first, each with who created and approved it. */
export async function searchPayouts(deps: Pick<AppDeps, "db">, merchantId: string, filters: PayoutSearchFilters, page: { limit: number; cursor?: string }): Promise<PayoutSearchPage> {
  const limit = Math.min(Math.max(Math.trunc(page.limit) || 1, 1), MAX_PAYOUT_PAGE);
  const rows = await findPayoutPage(deps.db, merchantId, filters, { limit, cursor: page.cursor });
  const labels = await describeActors(deps.db, merchantId, rows.items.flatMap((row) => [row.createdBy, row.approvedBy ?? ""]));
  return { items: rows.items.map((row) => toListItem(row, labels)), nextCursor: rows.nextCursor };
}

function toListItem(row: Payout, labels: Map<string, string>): PayoutListItem {
  return {
    payout: toPayoutObject(row),
    createdBy: actorView(row.createdBy, labels),
    approvedBy: row.approvedBy ? actorView(row.approvedBy, labels) : null,
    approvedAt: row.approvedAt?.toISOString() ?? null,
    hold: row.status === "pending" && row.holdReason !== "" ? { reason: row.holdReason as "manual" | "threshold" | "freeze", autoApproveAt: row.autoApproveAt?.toISOString() ?? null } : null,
  };
}

/** Manual payouts waiting for approval (what the approval queue lists). */
export async function countPayoutsAwaitingApproval(db: Db, merchantId: string): Promise<number> {
  return db.payout.count({ where: { merchantId, status: "pending" } });
}

const CSV_COLUMNS = [
  "uuid",
  "order_id",
  "kind",
  "source",
  "status",
  "internal_status",
  "amount",
  "commission",
  "receive_amount",
  "debit_amount",
  "currency",
  "network",
  "address",
  "memo",
  "txid",
  "is_subtract",
  "wait_reason",
  "payment_uuid",
  "created_by",
  "approved_by",
  "approved_at",
  "created_at",
  "updated_at",
] as const;

/**
 * The whole filtered view as CSV (RFC 4180, formula-looking cells neutralised): a header, then
 * one line per payout in the list's order, each yielded string one line with its CRLF. Reads
 * along the keyset cursor, so payouts created during the export are not in it and none repeats.
 */
export async function* exportPayoutsCsv(deps: Pick<AppDeps, "db">, merchantId: string, filters: PayoutSearchFilters): AsyncGenerator<string, void, undefined> {
  yield toCsvLine(CSV_COLUMNS);
  let cursor: string | undefined;
  do {
    const page = await findPayoutPage(deps.db, merchantId, filters, { limit: EXPORT_PAGE_SIZE, cursor });
    const labels = await describeActors(deps.db, merchantId, page.items.flatMap((row) => [row.createdBy, row.approvedBy ?? ""]));
    for (const row of page.items) {
      const payout = toPayoutObject(row);
      yield toCsvLine([
        payout.uuid,
        payout.order_id,
        payout.kind,
        payout.source,
        payout.status,
        payout.internal_status,
        payout.amount,
        payout.commission,
        payout.receive_amount,
        payout.debit_amount,
        payout.currency,
        payout.network,
        payout.address,
        payout.memo,
        payout.txid,
        String(payout.is_subtract),
        payout.wait_reason,
        payout.payment_uuid,
        actorView(row.createdBy, labels).label,
        row.approvedBy ? actorView(row.approvedBy, labels).label : "",
        row.approvedAt?.toISOString() ?? "",
        payout.created_at,
        payout.updated_at,
      ]);
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}

/** The e-mail addresses of the merchant's users among `user:<id>` actors (another store's users stay unnamed). */
async function describeActors(db: Db, merchantId: string, actors: string[]): Promise<Map<string, string>> {
  const userIds = [...new Set(actors.filter((actor) => actor.startsWith("user:")).map((actor) => actor.slice("user:".length)))].filter(isUuid);
  if (userIds.length === 0) return new Map();
  const users = await db.cabinetUser.findMany({ where: { merchantId, id: { in: userIds } }, select: { id: true, email: true } });
  return new Map(users.map((user) => [`user:${user.id}`, user.email]));
}

function actorView(actor: string, emails: Map<string, string>): ActorView {
  return { actor, label: labelOf(actor, emails) };
}

/** Words for a stored actor (create-payout's `key:` and `user:`, and the service's own makers). */
function labelOf(actor: string, emails: Map<string, string>): string {
  if (actor.startsWith("user:")) return emails.get(actor) ?? "a former team member";
  if (actor.startsWith("key:")) return `API key ${actor.slice("key:".length)}`;
  if (actor.startsWith("payoutlink:")) return `the claim of payout link ${actor.slice("payoutlink:".length)}`;
  if (actor === "autowithdraw") return "auto-withdraw";
  if (actor === "split") return "a split rule";
  if (actor === WAITED_APPROVER) return "the service, after the waiting period";
  if (actor.startsWith("cli:") || actor === "operator") return "the operator";
  return actor;
}

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

/** A coin on a network a cabinet form may offer. */
export interface AssetChoice {
  currency: string;
  network: string;
  networkName: string;
  /** On-chain decimals of the asset on that network. */
  decimals: number;
  /** Whether transfers on the network carry a memo (TON). */
  hasMemo: boolean;
  /** Payouts: the payout fee of /v1/payout/services, in the asset; null where no rate answered. */
  payoutFee: string | null;
  /** Payouts: what the merchant may spend now (`available`), "0" for an asset never held. */
  available: string;
}

/**
 * The assets this service receives (`payment`: the networks it serves) or pays out (`payout`:
 * those /v1/payout/services calls available, with their fee) now, in catalogue order. Without
 * rates a payout network's availability alone decides and no fee is known.
 */
export async function listAssetChoices(deps: Pick<AppDeps, "db" | "config" | "rates">, merchantId: string, side: "payment" | "payout"): Promise<AssetChoice[]> {
  let entries: Awaited<ReturnType<typeof listServiceEntries>> | null = null;
  if (side === "payout") {
    try {
      entries = await listServiceEntries(deps, "payout");
    } catch (error) {
      if (!isAppError(error)) throw error;
    }
  }
  const balances = side === "payout" ? await listBalances(deps.db, merchantId) : [];
  const isServed = networkAvailability(deps.config);
  const choices: AssetChoice[] = [];
  for (const asset of listSettlementAssets()) {
    const entry = entries?.find((candidate) => candidate.currency === asset.symbol && candidate.network === asset.network);
    const isAvailable = entry ? entry.is_available : side === "payment" ? isServed(asset.network).deposit : isServed(asset.network).payout;
    if (!isAvailable) continue;
    const network = findNetwork(asset.network);
    const balance = balances.find((candidate) => candidate.currency === asset.symbol && candidate.network === asset.network);
    choices.push({
      currency: asset.symbol,
      network: asset.network,
      networkName: network?.displayName ?? asset.network,
      decimals: asset.decimals,
      hasMemo: sendsMemo(asset.network),
      payoutFee: side === "payout" && entry ? entry.commission.fee_amount : null,
      available: formatAmount(balance?.available ?? 0n, asset.decimals),
    });
  }
  return choices;
}

/** What a static wallet's deposits came to, in its coin (decimal strings). */
export interface WalletDepositTotals {
  /** Confirmed deposits credited to the merchant (before the platform fee). */
  credited: string;
  /** Confirmed deposits after the block, waiting for the blocked-address refund. */
  held: string;
  /** Held deposits a refund payout returns (or returned). */
  refunded: string;
  /** Deposits seen, waiting for their confirmations. */
  confirming: number;
  /** Deposits recorded (orphaned ones left out). */
  count: number;
}

/** The deposit totals of some of the merchant's static wallets, by wallet id (another merchant's wallets give nothing). */
export async function summarizeWalletDeposits(db: Db, merchantId: string, wallets: Pick<StaticWallet, "id" | "currency" | "network">[]): Promise<Map<string, WalletDepositTotals>> {
  if (wallets.length === 0) return new Map();
  const groups = await db.chainTransfer.groupBy({
    by: ["staticWalletId", "status", "isHeld", "refundPayoutId"],
    where: { staticWalletId: { in: wallets.map((wallet) => wallet.id) }, staticWallet: { merchantId }, status: { not: "orphaned" } },
    _sum: { amountMinor: true },
    _count: { _all: true },
  });
  const totals = new Map<string, WalletDepositTotals>();
  for (const wallet of wallets) {
    const decimals = findSettlementAsset(wallet.currency, wallet.network)?.decimals ?? 0;
    const sums = { credited: 0n, held: 0n, refunded: 0n };
    let confirming = 0;
    let count = 0;
    for (const group of groups.filter((candidate) => candidate.staticWalletId === wallet.id)) {
      const amount = toMinor(group._sum.amountMinor);
      count += group._count._all;
      if (group.status !== "confirmed") confirming += group._count._all;
      else if (!group.isHeld) sums.credited += amount;
      else if (group.refundPayoutId === null) sums.held += amount;
      else sums.refunded += amount;
    }
    totals.set(wallet.id, { credited: formatAmount(sums.credited, decimals), held: formatAmount(sums.held, decimals), refunded: formatAmount(sums.refunded, decimals), confirming, count });
  }
  return totals;
}
