import { isNetworkId, listNetworks, listSettlementSymbols, FIAT_CURRENCIES } from "@/lib/catalogue";
import type { PaymentStatus } from "@/lib/domain/invoice/status";
import { PAYMENT_STATUS_WORDS } from "@/components/cabinet/invoices/invoice-words";

export { PAYMENT_STATUS_WORDS };
import type { InvoiceSearchFilters } from "@/lib/services/invoices/search-invoices";

/** The search params of a page or route handler, as Next.js hands them over. */
export type SearchParams = Record<string, string | string[] | undefined>;

export const PAYMENT_STATUSES = Object.keys(PAYMENT_STATUS_WORDS) as PaymentStatus[];

/** The coins a filter may name: settlement coins (the payer's) and fiat (the price's). */
export const FILTER_COINS = { crypto: listSettlementSymbols().map((entry) => entry.symbol), fiat: FIAT_CURRENCIES.map((entry) => entry.symbol) };

/** The invoices page's URL state (the same in the page, its links and the CSV export). */
export interface InvoiceQuery {
  status: PaymentStatus | "";
  coin: string;
  network: string;
  /** YYYY-MM-DD, a UTC day: invoices created on it or later. */
  from: string;
  /** YYYY-MM-DD, a UTC day: invoices created on it or earlier. */
  to: string;
  /** The search box: a uuid, an order id, a deposit address or a txid, exactly. */
  q: string;
}

const first = (value: string | string[] | undefined): string => (Array.isArray(value) ? (value[0] ?? "") : (value ?? "")).trim();

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A YYYY-MM-DD that is a real day, or "". */
function readDay(value: string): string {
  if (!DAY.test(value)) return "";
  const date = new Date(`${value}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? "" : value;
}

const KNOWN_COINS = new Set([...FILTER_COINS.crypto, ...FILTER_COINS.fiat]);

/** Reads the filters from the URL; anything unknown or malformed is left out rather than refused. */
export function readInvoiceQuery(params: SearchParams): InvoiceQuery {
  const status = first(params.status);
  const coin = first(params.coin).toUpperCase();
  const network = first(params.network).toLowerCase();
  return {
    status: (PAYMENT_STATUSES as string[]).includes(status) ? (status as PaymentStatus) : "",
    coin: KNOWN_COINS.has(coin) ? coin : "",
    network: isNetworkId(network) ? network : "",
    from: readDay(first(params.from)),
    to: readDay(first(params.to)),
    // Ids, addresses and txids are at most a few hundred characters; a longer text matches nothing.
    q: first(params.q).slice(0, 256),
  };
}

/** The service's filters for the URL state: whole UTC days, `to` included. */
export function toSearchFilters(query: InvoiceQuery): InvoiceSearchFilters {
  const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);
  return {
    status: query.status ? [query.status] : undefined,
    coin: query.coin || undefined,
    network: query.network || undefined,
    createdFrom: query.from ? dayStart(query.from) : undefined,
    createdTo: query.to ? new Date(dayStart(query.to).getTime() + 24 * 60 * 60 * 1000) : undefined,
    query: query.q || undefined,
  };
}

/** The URL state as query parameters, without empty ones (for links: pages, the export). */
export function toQueryParams(query: InvoiceQuery): Record<string, string> {
  const params: Record<string, string> = {};
  for (const key of ["status", "coin", "network", "from", "to", "q"] as const) if (query[key]) params[key] = query[key];
  return params;
}

export function hasFilters(query: InvoiceQuery): boolean {
  return Object.keys(toQueryParams(query)).length > 0;
}

/** The networks a filter may name, with their names for people. */
export function filterNetworks(): { id: string; name: string }[] {
  return listNetworks().map((network) => ({ id: network.id, name: network.displayName }));
}
