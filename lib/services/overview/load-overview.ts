import type { Invoice, Payout } from "@/generated/prisma/client";
import type { AppDeps } from "@/lib/deps/app-deps";
import { findSettlementAsset, listSettlementSymbols } from "@/lib/catalogue";
import type { PaymentStatus } from "@/lib/domain/invoice/status";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import type { CoarsePayoutStatus } from "@/lib/domain/payout/transition";
import { parseAssetKey } from "@/lib/ledger/postings";
import { listBalances } from "@/lib/services/balances/list-balances";
import { describeInvoiceAmounts, toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { describePayout, toPayoutObject, type PayoutObject } from "@/lib/api/serialize/payout";
import { DEFAULT_ESTIMATE_FIAT, fetchFiatPrices, percentChange, type FiatPrices } from "@/lib/services/overview/fiat-estimate";

// The cabinet's home page: balances, paid volume over a period, what happened lately and what
// waits for the merchant. Every query names the merchant and reads through an index that starts
// with it, or a handful of rows found by another index; the two read by final_at use
// (merchant_id, final_at), so a period reads only its own invoices.

export type OverviewPeriod = "24h" | "7d" | "30d" | "90d";

/** One asset's buckets as decimal strings in the asset's on-chain units (what /v1/balance shows, plus blocked_held). */
export interface OverviewBalance {
  currency: string;
  network: string;
  /** On-chain decimals of the asset on that network. */
  decimals: number;
  /** Confirmed for invoices that are not final yet. */
  incoming: string;
  /** Credited, waiting for the maturity hold. */
  maturing: string;
  /** Mature: what payouts may use. */
  available: string;
  /** Reserved for pending payouts and payout links. */
  payoutHeld: string;
  /** Partners' split shares, held until their refund window ends. */
  splitHeld: string;
  /** Deposits to blocked static wallets, held for the blocked-address refund (never the merchant's). */
  blockedHeld: string;
  /** payoutHeld + splitHeld + blockedHeld. */
  held: string;
  /** What reversals took back that the merchant no longer had (zero or more). */
  debt: string;
}

/** One settlement currency's paid volume over the whole period. */
export interface VolumeCurrency {
  currency: string;
  /**
   * Decimals the amounts are written with: the largest on-chain decimals among the networks the
   * period's payments used (USDT on tron and on bsc: 18), so sums across networks stay exact.
   */
  decimals: number;
  total: string;
  count: number;
  /** The same over the period just before, of the same length (30 days against the 30 before). */
  previousTotal: string;
  previousCount: number;
  /** From the previous period's total to this one's, in percent with one decimal; null when the previous was zero. */
  changePercent: string | null;
}

/** One hour or day of the period (UTC). */
export interface VolumeBucket {
  /** Start of the bucket; the bucket ends where the next starts. */
  start: Date;
  /** Invoices paid in the bucket, all currencies. */
  count: number;
  /** Paid amount per settlement currency: every currency of `currencies`, "0" when none. */
  amounts: Record<string, string>;
}

/** Paid invoices (status paid or paid_over) by the moment they became final, in UTC buckets. */
export interface OverviewVolume {
  period: OverviewPeriod;
  granularity: "hour" | "day";
  /** Start of the first bucket (inclusive). */
  from: Date;
  /** End of the last bucket (exclusive). */
  to: Date;
  /** Invoices paid in the period. */
  count: number;
  /** The period of the same length just before `from`, for comparison. */
  previous: { from: Date; to: Date; count: number };
  /** Every currency paid in this period or the previous one. */
  currencies: VolumeCurrency[];
  /** Every bucket of the period, oldest first, zero-filled. */
  buckets: VolumeBucket[];
}

/** Something that happened to an invoice. */
export interface InvoiceActivity {
  /** invoice_created: at creation; invoice_paid: when it became final as paid or paid_over. */
  kind: "invoice_created" | "invoice_paid";
  at: Date;
  invoiceId: string;
  orderId: string;
  status: PaymentStatus;
  /** The price and its currency. */
  amount: string;
  currency: string;
  /** What was paid, in `payerCurrency` on `network` (empty before payment or a choice of coin). */
  amountPaid: string;
  payerCurrency: string;
  network: string;
}

/** Something that happened to a payout or a refund (a payout of kind refund, with its invoice). */
export interface PayoutActivity {
  /**
   * *_created: at creation; *_sent / *_confirmed: the payout's last change while in that status
   * (a sent payout's time is lost once it is confirmed: only the current status has a time).
   */
  kind: "payout_created" | "payout_sent" | "payout_confirmed" | "refund_created" | "refund_sent" | "refund_confirmed";
  at: Date;
  payoutId: string;
  orderId: string;
  /** payout, refund, split or wallet_refund. */
  payoutKind: string;
  /** The refunded (or split) invoice; null for other payouts. */
  invoiceId: string | null;
  /** As requested, in the payout's currency. */
  amount: string;
  currency: string;
  network: string;
  status: CoarsePayoutStatus;
}

export type ActivityEvent = InvoiceActivity | PayoutActivity;

/**
 * A webhook delivery of the last DEAD_DELIVERY_WINDOW_DAYS that gave up, with no later delivery of
 * the same event about the same object to the same URL (a resend).
 */
export interface DeadDelivery {
  id: string;
  eventType: string;
  /** The payment, payout or wallet deposit the event is about. */
  objectId: string;
  url: string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string;
  /** When the last attempt failed. */
  diedAt: Date;
}

/** An invoice the watcher could not evaluate, set aside and retried every pass. */
export interface InvoiceInReview {
  invoiceId: string;
  orderId: string;
  network: string;
  failures: number;
  firstFailedAt: Date;
  lastFailedAt: Date;
}

/** An underpaid or overpaid payment waiting for the merchant's decision (accept or refund). */
export interface DecisionNeeded {
  invoiceId: string;
  orderId: string;
  status: "wrong_amount" | "paid_over";
  finalAt: Date;
}

/**
 * The registered endpoint when it has been failing for over ENDPOINT_FAILING_AFTER_MS: the oldest
 * delivery to it that failed and still waits for a retry is that old, and nothing was delivered to
 * it since.
 */
export interface FailingEndpoint {
  url: string;
  /** When the oldest delivery still retrying was recorded. */
  since: Date;
  /** Deliveries to it waiting for a retry. */
  retrying: number;
  lastStatusCode: number | null;
  lastError: string;
}

/** What waits for the merchant: counts and the newest few of each. */
export interface OverviewAttention {
  payoutsAwaitingApproval: { count: number; items: PayoutObject[] };
  deadDeliveries: { count: number; items: DeadDelivery[] };
  invoicesInReview: { count: number; items: InvoiceInReview[] };
  decisionsNeeded: { count: number; items: DecisionNeeded[] };
  failingEndpoint: FailingEndpoint | null;
}

/**
 * Balances and the paid volume in one fiat at today's rates: an estimate (coins are worth what
 * they fetch when sold), rounded down to the fiat's minor unit. Amounts are decimal strings.
 */
export type OverviewFiat =
  | {
      status: "ready";
      fiat: string;
      /** When the rates were observed (the oldest used), their source, and whether it is a fixed offline table. */
      asOf: Date;
      source: string;
      isOffline: boolean;
      /** Per asset ("USDT:tron"): what is available, and the merchant's total (see `total`); null where the coin has no rate. */
      balances: Record<string, { available: string | null; total: string | null }>;
      /**
       * Sums over the assets with a rate. total: incoming + maturing + available + payout_held − debt
       * (partners' split shares and blocked wallets' deposits are not the merchant's).
       */
      available: string;
      total: string;
      /** This period's paid volume and the previous period's, both at today's rates. */
      volume: { current: string; previous: string; changePercent: string | null };
      /** Coins held or paid that the rate source has no price for: left out of the sums. */
      unpriced: string[];
    }
  | { status: "unavailable"; fiat: string; reason: string };

export interface Overview {
  balances: OverviewBalance[];
  volume: OverviewVolume;
  fiat: OverviewFiat;
  /** The newest events first. */
  activity: ActivityEvent[];
  attention: OverviewAttention;
}

export const ACTIVITY_SIZE = 10;
export const ATTENTION_LIST_SIZE = 5;
/**
 * Dead deliveries count for attention when created within this many days (a delivery dies about
 * 3.4 hours after its event): what the merchant may still want to resend, read in one bounded pass.
 */
export const DEAD_DELIVERY_WINDOW_DAYS = 7;
/** How long an endpoint fails before the overview says so: retries cover short outages. */
export const ENDPOINT_FAILING_AFTER_MS = 3_600_000;

const PAID_STATUSES: PaymentStatus[] = ["paid", "paid_over"];
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const PERIODS: Record<OverviewPeriod, { granularity: "hour" | "day"; buckets: number }> = {
  "24h": { granularity: "hour", buckets: 24 },
  "7d": { granularity: "day", buckets: 7 },
  "30d": { granularity: "day", buckets: 30 },
  "90d": { granularity: "day", buckets: 90 },
};

/**
 * The merchant's home page, with balances and volume also in `fiat` (a fiat of the catalogue, USD
 * when none is given).
 * No transaction is open: the rates are read from the service's source beside the queries.
 */
export async function loadOverview(deps: Pick<AppDeps, "db" | "now" | "rates">, merchantId: string, input: { period: OverviewPeriod; fiat?: string }): Promise<Overview> {
  const now = deps.now();
  const [balances, volume, activity, attention, prices] = await Promise.all([
    loadBalances(deps, merchantId),
    loadVolume(deps, merchantId, input.period, now),
    loadActivity(deps, merchantId),
    loadAttention(deps, merchantId, now),
    fetchFiatPrices(deps, input.fiat ?? DEFAULT_ESTIMATE_FIAT, listSettlementSymbols().map((symbol) => symbol.symbol)),
  ]);
  return { balances, volume, fiat: estimateInFiat(prices, balances, volume), activity, attention };
}

function estimateInFiat(prices: FiatPrices, balances: OverviewBalance[], volume: OverviewVolume): OverviewFiat {
  if (prices.status === "unavailable") return prices;
  const unpriced = new Set<string>();
  const convert = (symbol: string, amount: string, decimals: number): bigint | null => {
    const value = prices.convert(symbol, parseAmount(amount, decimals) ?? 0n, decimals);
    if (value === null) unpriced.add(symbol);
    return value;
  };
  const format = (minor: bigint | null) => (minor === null ? null : formatAmount(minor, prices.decimals, prices.decimals));
  let available = 0n;
  let total = 0n;
  const perAsset: Record<string, { available: string | null; total: string | null }> = {};
  for (const balance of balances) {
    const own = (["incoming", "maturing", "available", "payoutHeld"] as const).reduce((sum, bucket) => sum + (parseAmount(balance[bucket], balance.decimals) ?? 0n), 0n) - (parseAmount(balance.debt, balance.decimals) ?? 0n);
    const availableFiat = convert(balance.currency, balance.available, balance.decimals);
    const totalFiat = prices.convert(balance.currency, own, balance.decimals);
    available += availableFiat ?? 0n;
    total += totalFiat ?? 0n;
    perAsset[`${balance.currency}:${balance.network}`] = { available: format(availableFiat), total: format(totalFiat) };
  }
  let current = 0n;
  let previous = 0n;
  for (const currency of volume.currencies) {
    current += convert(currency.currency, currency.total, currency.decimals) ?? 0n;
    previous += convert(currency.currency, currency.previousTotal, currency.decimals) ?? 0n;
  }
  return {
    status: "ready",
    fiat: prices.fiat,
    asOf: prices.asOf,
    source: prices.source,
    isOffline: prices.isOffline,
    balances: perAsset,
    available: format(available)!,
    total: format(total)!,
    volume: { current: format(current)!, previous: format(previous)!, changePercent: percentChange(current, previous) },
    unpriced: [...unpriced].sort(),
  };
}

/** listBalances' buckets, plus blocked_held, which the API's balance does not show but the merchant's money page does. */
async function loadBalances(deps: Pick<AppDeps, "db">, merchantId: string): Promise<OverviewBalance[]> {
  const [assets, blocked] = await Promise.all([
    listBalances(deps.db, merchantId),
    deps.db.ledgerAccount.findMany({ where: { owner: merchantId, bucket: "blocked_held" }, select: { asset: true, balance: true } }),
  ]);
  const blockedByAsset = new Map(blocked.map((row) => [row.asset, toMinor(row.balance)]));
  const balances = assets.map((asset) => toOverviewBalance(asset, blockedByAsset.get(`${asset.currency}:${asset.network}`) ?? 0n));
  // A merchant may hold an asset only in blocked_held (deposits to a blocked wallet and nothing else).
  for (const [key, amount] of blockedByAsset) {
    const { symbol, network } = parseAssetKey(key);
    if (assets.some((asset) => asset.currency === symbol && asset.network === network)) continue;
    const catalogued = findSettlementAsset(symbol, network);
    if (!catalogued) continue;
    const empty = { currency: symbol, network, decimals: catalogued.decimals, incoming: 0n, maturing: 0n, available: 0n, payoutHeld: 0n, splitHeld: 0n, debt: 0n };
    balances.push(toOverviewBalance(empty, amount));
  }
  return balances.sort((a, b) => (a.currency === b.currency ? a.network.localeCompare(b.network) : a.currency.localeCompare(b.currency)));
}

function toOverviewBalance(asset: Awaited<ReturnType<typeof listBalances>>[number], blockedHeld: bigint): OverviewBalance {
  const format = (minor: bigint) => formatAmount(minor, asset.decimals);
  return {
    currency: asset.currency,
    network: asset.network,
    decimals: asset.decimals,
    incoming: format(asset.incoming),
    maturing: format(asset.maturing),
    available: format(asset.available),
    payoutHeld: format(asset.payoutHeld),
    splitHeld: format(asset.splitHeld),
    blockedHeld: format(blockedHeld),
    held: format(asset.payoutHeld + asset.splitHeld + blockedHeld),
    debt: format(asset.debt),
  };
}

/** The UTC start of the bucket holding `at`. */
function bucketStartOf(at: Date, granularity: "hour" | "day"): Date {
  const step = granularity === "hour" ? HOUR_MS : DAY_MS;
  return new Date(Math.floor(at.getTime() / step) * step);
}

/**
 * One grouped query over the period: sums of amount_paid per (bucket, coin, network). Amounts of
 * one coin on networks with different on-chain decimals are scaled to the largest before adding,
 * so the sum is exact. The index (merchant_id, final_at) reads the period's invoices only.
 */
async function loadVolume(deps: Pick<AppDeps, "db">, merchantId: string, period: OverviewPeriod, now: Date): Promise<OverviewVolume> {
  const { granularity, buckets: bucketCount } = PERIODS[period];
  const step = granularity === "hour" ? HOUR_MS : DAY_MS;
  const to = new Date(bucketStartOf(now, granularity).getTime() + step);
  const from = new Date(to.getTime() - bucketCount * step);
  const rows = await deps.db.$queryRaw<{ bucket: Date; currency: string; network: string; amount: string; count: number }[]>`
    SELECT date_trunc(${granularity}, final_at, 'UTC') AS bucket, payer_currency AS currency, network,
           sum(amount_paid_minor)::text AS amount, count(*)::int AS count
    FROM invoices
    WHERE merchant_id = ${merchantId}::uuid AND status IN ('paid', 'paid_over')
      AND final_at >= ${from} AND final_at < ${to} AND payer_currency IS NOT NULL AND network IS NOT NULL
    GROUP BY 1, 2, 3`;

  const previousFrom = new Date(from.getTime() - bucketCount * step);
  const previousRows = await deps.db.$queryRaw<{ currency: string; network: string; amount: string; count: number }[]>`
    SELECT payer_currency AS currency, network, sum(amount_paid_minor)::text AS amount, count(*)::int AS count
    FROM invoices
    WHERE merchant_id = ${merchantId}::uuid AND status IN ('paid', 'paid_over')
      AND final_at >= ${previousFrom} AND final_at < ${from} AND payer_currency IS NOT NULL AND network IS NOT NULL
    GROUP BY 1, 2`;

  // Both periods in one precision per currency, so they compare exactly.
  const decimalsOf = new Map<string, number>();
  for (const row of [...rows, ...previousRows]) {
    const decimals = findSettlementAsset(row.currency, row.network)?.decimals ?? 0;
    decimalsOf.set(row.currency, Math.max(decimalsOf.get(row.currency) ?? 0, decimals));
  }
  const currencies = [...decimalsOf.keys()].sort();
  const buckets = Array.from({ length: bucketCount }, (_, index) => ({ start: new Date(from.getTime() + index * step), count: 0, sums: new Map<string, bigint>() }));
  const totals = new Map<string, { total: bigint; count: number; previousTotal: bigint; previousCount: number }>(currencies.map((currency) => [currency, { total: 0n, count: 0, previousTotal: 0n, previousCount: 0 }]));
  const scaleOf = (row: { currency: string; network: string }) => 10n ** BigInt(decimalsOf.get(row.currency)! - (findSettlementAsset(row.currency, row.network)?.decimals ?? 0));
  for (const row of previousRows) {
    const total = totals.get(row.currency)!;
    total.previousTotal += BigInt(row.amount) * scaleOf(row);
    total.previousCount += row.count;
  }
  for (const row of rows) {
    const index = Math.floor((row.bucket.getTime() - from.getTime()) / step);
    const bucket = buckets[index];
    if (!bucket) continue;
    const amount = BigInt(row.amount) * scaleOf(row);
    bucket.count += row.count;
    bucket.sums.set(row.currency, (bucket.sums.get(row.currency) ?? 0n) + amount);
    const total = totals.get(row.currency)!;
    total.total += amount;
    total.count += row.count;
  }
  return {
    period,
    granularity,
    from,
    to,
    count: buckets.reduce((sum, bucket) => sum + bucket.count, 0),
    previous: { from: previousFrom, to: from, count: previousRows.reduce((sum, row) => sum + row.count, 0) },
    currencies: currencies.map((currency) => {
      const total = totals.get(currency)!;
      const decimals = decimalsOf.get(currency)!;
      return {
        currency,
        decimals,
        total: formatAmount(total.total, decimals),
        count: total.count,
        previousTotal: formatAmount(total.previousTotal, decimals),
        previousCount: total.previousCount,
        changePercent: percentChange(total.total, total.previousTotal),
      };
    }),
    buckets: buckets.map((bucket) => ({
      start: bucket.start,
      count: bucket.count,
      amounts: Object.fromEntries(currencies.map((currency) => [currency, formatAmount(bucket.sums.get(currency) ?? 0n, decimalsOf.get(currency)!)])),
    })),
  };
}

/**
 * The newest events of four kinds, each read newest-first with a limit (so at most
 * 4 × ACTIVITY_SIZE rows), merged. Times are what the rows store: created_at, final_at (first
 * time final), and a payout's updated_at while it is sent or confirmed (every status change sets
 * it; a confirmed payout changes no more).
 */
async function loadActivity(deps: Pick<AppDeps, "db">, merchantId: string): Promise<ActivityEvent[]> {
  const [created, paid, payouts, moved] = await Promise.all([
    deps.db.invoice.findMany({ where: { merchantId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: ACTIVITY_SIZE }),
    // Index: (merchant_id, final_at), read backwards.
    deps.db.invoice.findMany({ where: { merchantId, status: { in: PAID_STATUSES }, finalAt: { not: null } }, orderBy: [{ finalAt: "desc" }, { id: "desc" }], take: ACTIVITY_SIZE }),
    deps.db.payout.findMany({ where: { merchantId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: ACTIVITY_SIZE }),
    deps.db.payout.findMany({ where: { merchantId, status: { in: ["sent", "confirmed"] } }, orderBy: [{ updatedAt: "desc" }, { id: "desc" }], take: ACTIVITY_SIZE }),
  ]);
  const events: ActivityEvent[] = [
    ...created.map((invoice) => toInvoiceActivity(invoice, "invoice_created", invoice.createdAt)),
    ...paid.map((invoice) => toInvoiceActivity(invoice, "invoice_paid", invoice.finalAt!)),
    ...payouts.map((payout) => toPayoutActivity(payout, "created", payout.createdAt)),
    ...moved.map((payout) => toPayoutActivity(payout, payout.status === "sent" ? "sent" : "confirmed", payout.updatedAt)),
  ];
  return events.sort((a, b) => b.at.getTime() - a.at.getTime()).slice(0, ACTIVITY_SIZE);
}

function toInvoiceActivity(invoice: Invoice, kind: InvoiceActivity["kind"], at: Date): InvoiceActivity {
  const amounts = describeInvoiceAmounts(invoice);
  return {
    kind,
    at,
    invoiceId: invoice.id,
    orderId: invoice.orderId ?? "",
    status: invoice.status as PaymentStatus,
    amount: amounts.amount,
    currency: invoice.priceCurrency,
    amountPaid: amounts.amountPaid,
    payerCurrency: invoice.payerCurrency ?? "",
    network: invoice.network ?? "",
  };
}

function toPayoutActivity(payout: Payout, stage: "created" | "sent" | "confirmed", at: Date): PayoutActivity {
  const view = describePayout(payout);
  return {
    kind: `${payout.kind === "refund" ? "refund" : "payout"}_${stage}`,
    at,
    payoutId: payout.id,
    orderId: payout.orderId,
    payoutKind: payout.kind,
    invoiceId: payout.invoiceId,
    amount: view.amount,
    currency: payout.currency,
    network: payout.network,
    status: view.coarseStatus,
  };
}

async function loadAttention(deps: Pick<AppDeps, "db">, merchantId: string, now: Date): Promise<OverviewAttention> {
  const awaitingApproval = { merchantId, status: "pending", source: "manual" };
  const [approvalCount, approvalRows, dead, reviews, decisions, failing] = await Promise.all([
    deps.db.payout.count({ where: awaitingApproval }),
    deps.db.payout.findMany({ where: awaitingApproval, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: ATTENTION_LIST_SIZE }),
    // A resend records a new delivery and leaves the dead one as it was: only the newest delivery
    // of an event about an object to a URL tells whether it still waits. No index has object_id,
    // so this is one pass over the merchant's deliveries of the window (merchant_id, created_at),
    // not a lookup per dead delivery.
    deps.db.$queryRaw<(DeadDelivery & { total: number })[]>`
      SELECT id::text AS id, event_type AS "eventType", object_id AS "objectId", url, attempts,
             last_status_code AS "lastStatusCode", last_error AS "lastError", updated_at AS "diedAt",
             count(*) OVER ()::int AS total
      FROM (
        SELECT d.*, row_number() OVER (PARTITION BY d.object_id, d.event_type, d.url ORDER BY d.created_at DESC, d.id DESC) AS recency
        FROM webhook_deliveries d
        WHERE d.merchant_id = ${merchantId}::uuid AND d.created_at >= ${new Date(now.getTime() - DEAD_DELIVERY_WINDOW_DAYS * DAY_MS)}
      ) latest
      WHERE recency = 1 AND status = 'dead'
      ORDER BY updated_at DESC, id DESC
      LIMIT ${ATTENTION_LIST_SIZE}`,
    // invoice_reviews has no merchant column: the open reviews (few, by the resolved_at index) joined to the merchant's invoices.
    deps.db.$queryRaw<(InvoiceInReview & { total: number })[]>`
      SELECT r.invoice_id::text AS "invoiceId", COALESCE(i.order_id, '') AS "orderId", r.network, r.failures,
             r.first_failed_at AS "firstFailedAt", r.last_failed_at AS "lastFailedAt", count(*) OVER ()::int AS total
      FROM invoice_reviews r JOIN invoices i ON i.id = r.invoice_id
      WHERE r.resolved_at IS NULL AND i.merchant_id = ${merchantId}::uuid
      ORDER BY r.last_failed_at DESC, r.invoice_id DESC
      LIMIT ${ATTENTION_LIST_SIZE}`,
    deps.db.$queryRaw<(DecisionNeeded & { total: number })[]>`
      SELECT id::text AS "invoiceId", COALESCE(order_id, '') AS "orderId", status, final_at AS "finalAt", count(*) OVER ()::int AS total
      FROM invoices
      WHERE merchant_id = ${merchantId}::uuid AND status IN ('wrong_amount', 'paid_over') AND resolution IS NULL
      ORDER BY final_at DESC NULLS LAST, id DESC
      LIMIT ${ATTENTION_LIST_SIZE}`,
    findFailingEndpoint(deps, merchantId, now),
  ]);
  return {
    payoutsAwaitingApproval: { count: approvalCount, items: approvalRows.map(toPayoutObject) },
    deadDeliveries: { count: dead[0]?.total ?? 0, items: dead.map(({ total: _total, ...delivery }) => delivery) },
    // The review's last error is the service's own failure text: for the operator's logs, not the merchant's page.
    invoicesInReview: { count: reviews[0]?.total ?? 0, items: reviews.map(({ total: _total, ...review }) => review) },
    decisionsNeeded: { count: decisions[0]?.total ?? 0, items: decisions.map(({ total: _total, ...decision }) => decision) },
    failingEndpoint: failing,
  };
}

/** The registered endpoint, if its deliveries have been failing longer than ENDPOINT_FAILING_AFTER_MS (see FailingEndpoint). */
async function findFailingEndpoint(deps: Pick<AppDeps, "db">, merchantId: string, now: Date): Promise<FailingEndpoint | null> {
  const endpoint = await deps.db.webhookEndpoint.findUnique({ where: { merchantId }, select: { url: true } });
  if (!endpoint?.url) return null;
  const since = new Date(now.getTime() - DEAD_DELIVERY_WINDOW_DAYS * DAY_MS);
  const [row] = await deps.db.$queryRaw<{ since: Date | null; retrying: number; lastDelivered: Date | null; lastStatusCode: number | null; lastError: string | null }[]>`
    SELECT min(created_at) FILTER (WHERE status = 'pending' AND attempts > 0) AS since,
           (count(*) FILTER (WHERE status = 'pending' AND attempts > 0))::int AS retrying,
           max(delivered_at) AS "lastDelivered",
           (array_agg(last_status_code ORDER BY updated_at DESC) FILTER (WHERE status = 'pending' AND attempts > 0))[1] AS "lastStatusCode",
           (array_agg(last_error ORDER BY updated_at DESC) FILTER (WHERE status = 'pending' AND attempts > 0))[1] AS "lastError"
    FROM webhook_deliveries
    WHERE merchant_id = ${merchantId}::uuid AND target = 'endpoint' AND url = ${endpoint.url} AND created_at >= ${since}`;
  if (!row?.since || row.since.getTime() > now.getTime() - ENDPOINT_FAILING_AFTER_MS) return null;
  if (row.lastDelivered && row.lastDelivered > row.since) return null;
  return { url: endpoint.url, since: row.since, retrying: row.retrying, lastStatusCode: row.lastStatusCode, lastError: row.lastError ?? "" };
}
