import type { Payout, Prisma } from "@/generated/prisma/client";
import type { AppDeps } from "@/lib/deps/app-deps";
import { normalizeNetworkId, normalizeSymbol } from "@/lib/catalogue";
import type { Db } from "@/lib/db/client";
import { coarsePayoutStatus, PAYOUT_STATUSES, type CoarsePayoutStatus, type PayoutStatus } from "@/lib/domain/payout/transition";
import { toCsvLine } from "@/lib/services/invoices/search-invoices";
import { isUuid } from "@/lib/domain/input/uuid";
import { containsText } from "@/lib/db/text-search";
import { after, decodeCursor, encodeCursor } from "@/lib/db/keyset-cursor";
import { listPayouts } from "@/lib/services/payouts/manage-payouts";
import { toPayoutObject, type PayoutObject } from "@/lib/api/serialize/payout";
import { WAITED_APPROVER } from "@/lib/services/payouts/manage-payouts";

// The cabinet's payout list with its filters and CSV export; every query names the merchant.

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
  /** The search box: part of the order id, the address or the txid, any case; or the payout's uuid. */
  query?: string;
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

/** Payouts a search text names: its uuid, or part of the order id, address or txid in any case. */
function searchWhere(query: string): Prisma.PayoutWhereInput {
  const text = containsText(query);
  const matches: Prisma.PayoutWhereInput[] = [{ orderId: text }, { address: text }, { txid: text }];
  if (isUuid(query)) matches.push({ id: query.toLowerCase() });
  return { OR: matches };
}

/**
 * The rows of a page. Without a kind or a search text it is listPayouts itself (the rows, order
 * and cursors of /v1/payout/list). listPayouts takes neither, so with one its conditions are
 * written again here with them added; the integration test holds the two together.
 */
async function findPayoutPage(db: Db, merchantId: string, filters: PayoutSearchFilters, page: { limit: number; cursor?: string }): Promise<{ items: Payout[]; nextCursor: string | null }> {
  const listFilters = toListFilters(filters);
  const query = filters.query?.trim() ?? "";
  if (!filters.kind && query === "") return listPayouts(db, merchantId, listFilters, page);
  const position = page.cursor ? decodeCursor(page.cursor, "payout.bad_cursor") : null;
  const where: Prisma.PayoutWhereInput = {
    merchantId,
    ...(filters.kind ? { kind: filters.kind } : {}),

    ...(listFilters.status ? { status: { in: listFilters.status } } : {}),
    ...(listFilters.currency ? { currency: listFilters.currency } : {}),
    ...(listFilters.network ? { network: listFilters.network } : {}),
    // Both are ORs: side by side in an AND, neither replaces the other.
    AND: [query !== "" ? searchWhere(query) : {}, after(position)],
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

export function toListItem(row: Payout, labels: Map<string, string>): PayoutListItem {
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
export async function describeActors(db: Db, merchantId: string, actors: string[]): Promise<Map<string, string>> {
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
