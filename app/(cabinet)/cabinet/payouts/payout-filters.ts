import type { CoarsePayoutStatus } from "@/lib/domain/payout/transition";
import { COARSE_PAYOUT_STATUSES, isPayoutKind, type PayoutKind, type PayoutSearchFilters } from "@/lib/services/payouts/search-payouts";

/** The search params of a page or route handler, as Next.js hands them over. */
export type SearchParams = Record<string, string | string[] | undefined>;

/** What the payouts page shows: every payout, or the queue of manual payouts waiting for approval. */
export type PayoutView = "all" | "approval";

/** The payouts page's URL state: the view and its filters (the same in the page, its links and the CSV export). */
export interface PayoutQuery {
  view: PayoutView;
  status: CoarsePayoutStatus | "";
  coin: string;
  network: string;
  kind: PayoutKind | "";
  /** The search box: part of an order id, address or txid, or a payout's uuid. */
  q: string;
}

const first = (value: string | string[] | undefined): string => (Array.isArray(value) ? (value[0] ?? "") : (value ?? "")).trim();

/** Reads the view and filters from the URL; anything unknown is left out rather than refused. */
export function readPayoutQuery(params: SearchParams): PayoutQuery {
  const status = first(params.status);
  const kind = first(params.kind);
  return {
    view: first(params.view) === "approval" ? "approval" : "all",
    status: (COARSE_PAYOUT_STATUSES as readonly string[]).includes(status) ? (status as CoarsePayoutStatus) : "",
    coin: first(params.coin).toUpperCase().slice(0, 16),
    network: first(params.network).toLowerCase().slice(0, 32),
    kind: isPayoutKind(kind) ? kind : "",
    q: first(params.q).slice(0, 200),
  };
}

/** The service's filters for the URL state. */
export function toSearchFilters(query: PayoutQuery): PayoutSearchFilters {
  return {
    isAwaitingApproval: query.view === "approval",
    status: query.status ? [query.status] : undefined,
    coin: query.coin || undefined,
    network: query.network || undefined,
    kind: query.kind || undefined,
    query: query.q || undefined,
  };
}

/** The URL state as query parameters, without empty ones (for links: pages, tabs, the export). */
export function toQueryParams(query: PayoutQuery, overrides: Partial<PayoutQuery> = {}): Record<string, string> {
  const merged = { ...query, ...overrides };
  const params: Record<string, string> = {};
  if (merged.view === "approval") params.view = "approval";
  if (merged.status && merged.view !== "approval") params.status = merged.status;
  if (merged.coin) params.coin = merged.coin;
  if (merged.network) params.network = merged.network;
  if (merged.kind) params.kind = merged.kind;
  if (merged.q) params.q = merged.q;
  return params;
}

export function hasFilters(query: PayoutQuery): boolean {
  return Boolean((query.view !== "approval" && query.status) || query.coin || query.network || query.kind || query.q);
}
