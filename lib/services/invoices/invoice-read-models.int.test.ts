import { describe, expect, it } from "vitest";
import { toPayment } from "@/lib/api/serialize/payment";
import { isAppError } from "@/lib/errors";
import { resolveInvoiceReviews, setInvoiceAside } from "@/lib/services/invoices/invoice-reviews";
import { collect, DEAD_HOOK, TRON_ADDRESS } from "@/lib/testing/cabinet";
import { payInvoice } from "@/lib/testing/funding";
import { callSigned, getTestDb, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { loadInvoiceDetail } from "@/lib/services/invoices/load-invoice-detail";
import { exportInvoicesCsv, searchInvoices, toCsvLine, type InvoiceSearchFilters } from "@/lib/services/invoices/search-invoices";
import { loadOverview } from "@/lib/services/overview/load-overview";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { RateSourceError, type RateProvider } from "@/lib/rates";

// The cabinet's read side against the real database: the overview's balances, volume, activity
// and attention; invoice search (which must list exactly what /v1/payment/history lists for the
// same filter), its CSV export, the invoice page; and that one merchant never sees another's rows.

async function createInvoice(merchant: TestMerchant, body: Record<string, unknown>) {
  const response = await callSigned("/v1/payment", { amount: "20", currency: "USD", ...body }, merchant);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.result;
}

async function expectNotFound(promise: Promise<unknown>) {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(isAppError(error) && error.code).toBe("cabinet.not_found");
}

/** Every page of the cabinet's search, following its cursor. */
async function searchAll(merchant: TestMerchant, filters: InvoiceSearchFilters, limit: number) {
  const pages = [];
  let cursor: string | undefined;
  do {
    const page = await searchInvoices(makeTestDeps(), merchant.merchantId, filters, { limit, cursor });
    pages.push(page);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return pages;
}

/** Every page of /v1/payment/history, following its cursor. */
async function historyAll(merchant: TestMerchant, body: Record<string, unknown>, limit: number) {
  const pages = [];
  let cursor: string | undefined;
  do {
    const response = await callSigned("/v1/payment/history", { ...body, limit, cursor }, merchant);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    pages.push({ items: response.body.result.items, nextCursor: response.body.result.paginate.next_cursor });
    cursor = response.body.result.paginate.next_cursor ?? undefined;
  } while (cursor);
  return pages;
}

/** A minimal RFC 4180 reader for one line (with its CRLF), to check the writer against. */
function parseCsvLine(line: string): string[] {
  expect(line.endsWith("\r\n")).toBe(true);
  const text = line.slice(0, -2);
  const cells: string[] = [];
  let index = 0;
  while (index <= text.length) {
    if (text[index] === '"') {
      let value = "";
      index++;
      for (;;) {
        const quote = text.indexOf('"', index);
        value += text.slice(index, quote);
        if (text[quote + 1] === '"') {
          value += '"';
          index = quote + 2;
        } else {
          index = quote + 1;
          break;
        }
      }
      cells.push(value);
      index++; // the comma
    } else {
      const comma = text.indexOf(",", index);
      const end = comma === -1 ? text.length : comma;
      cells.push(text.slice(index, end));
      index = end + 1;
    }
  }
  return cells;
}

describe("overview", () => {
  it("shows balances, the paid volume, recent activity and what waits for the merchant; another merchant sees none of it", async () => {
    const db = getTestDb();
    const deps = makeTestDeps();
    const merchant = await makeMerchant();
    expect((await callSigned("/v1/webhooks", { url: DEAD_HOOK }, merchant)).status).toBe(201);
    const paid = await payInvoice(merchant, "100.00");
    const open = await createInvoice(merchant, { to_currency: "ETH", network: "optimism" });
    const created = await callSigned("/v1/payout", { amount: "10", currency: "USDT", network: "tron", address: TRON_ADDRESS, source: "manual", order_id: "manual-1" }, merchant);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const payout = created.body.result;
    expect(payout).toMatchObject({ internal_status: "pending", source: "manual" });

    const overview = await loadOverview(deps, merchant.merchantId, { period: "24h" });

    const api = (await callSigned("/v1/balance", {}, merchant)).body.result.balances;
    expect(overview.balances).toEqual([
      {
        currency: "USDT",
        network: "tron",
        decimals: 6,
        incoming: api[0].incoming,
        maturing: api[0].maturing,
        available: api[0].available,
        payoutHeld: "10",
        splitHeld: "0",
        blockedHeld: "0",
        held: "10",
        debt: "0",
      },
    ]);
    expect(api[0].payout_held).toBe("10");

    const paidRow = await db.invoice.findUniqueOrThrow({ where: { id: paid.uuid } });
    expect(overview.volume).toMatchObject({ period: "24h", granularity: "hour", count: 1, currencies: [{ currency: "USDT", decimals: 6, total: paid.payer_amount, count: 1 }] });
    expect(overview.volume.buckets).toHaveLength(24);
    expect(overview.volume.buckets.every((bucket, index) => bucket.start.getTime() === overview.volume.from.getTime() + index * 3_600_000)).toBe(true);
    expect(overview.volume.to.getTime() - overview.volume.from.getTime()).toBe(24 * 3_600_000);
    const nonEmpty = overview.volume.buckets.filter((bucket) => bucket.count > 0);
    expect(nonEmpty).toEqual([{ start: expect.any(Date), count: 1, amounts: { USDT: paid.payer_amount } }]);
    expect(nonEmpty[0].start.getTime()).toBeLessThanOrEqual(paidRow.finalAt!.getTime());
    expect(paidRow.finalAt!.getTime()).toBeLessThan(nonEmpty[0].start.getTime() + 3_600_000);
    expect(overview.volume.buckets.filter((bucket) => bucket.count === 0).every((bucket) => bucket.amounts.USDT === "0")).toBe(true);
    const week = (await loadOverview(deps, merchant.merchantId, { period: "7d" })).volume;
    expect(week).toMatchObject({ granularity: "day", count: 1 });
    expect(week.buckets).toHaveLength(7);
    expect((await loadOverview(deps, merchant.merchantId, { period: "90d" })).volume.buckets).toHaveLength(90);

    const events = overview.activity.map((event) => `${event.kind} ${"payoutId" in event ? event.payoutId : event.invoiceId}`);
    expect(events).toEqual(expect.arrayContaining([`payout_created ${payout.uuid}`, `invoice_created ${open.uuid}`, `invoice_paid ${paid.uuid}`, `invoice_created ${paid.uuid}`]));
    expect(events).toHaveLength(4);
    expect(overview.activity.map((event) => event.at.getTime())).toEqual(overview.activity.map((event) => event.at.getTime()).sort((a, b) => b - a));
    expect(overview.activity.find((event) => event.kind === "invoice_paid")).toMatchObject({ status: "paid", amountPaid: paid.payer_amount, payerCurrency: "USDT", network: "tron", amount: "100.00", currency: "USD" });

    expect(overview.attention.payoutsAwaitingApproval.count).toBe(1);
    expect(overview.attention.payoutsAwaitingApproval.items.map((item) => item.uuid)).toEqual([payout.uuid]);
    expect(overview.attention.deadDeliveries).toEqual({ count: 0, items: [] });
    expect(overview.attention.invoicesInReview).toEqual({ count: 0, items: [] });
    expect(overview.attention.decisionsNeeded).toEqual({ count: 0, items: [] });

    // The invoice.paid delivery gives up; then a resend supersedes it.
    const delivery = await db.webhookDelivery.findFirstOrThrow({ where: { merchantId: merchant.merchantId, objectId: paid.uuid } });
    await db.webhookDelivery.update({ where: { id: delivery.id }, data: { status: "dead", attempts: 12, lastStatusCode: 500, lastError: "HTTP 500" } });
    // An invoice the watcher could not evaluate (on a network no other test scans, so no pass resolves it meanwhile).
    await setInvoiceAside(db, { invoiceId: open.uuid, network: "optimism", error: new Error("node said no") }, new Date());
    const attention = (await loadOverview(deps, merchant.merchantId, { period: "24h" })).attention;
    expect(attention.deadDeliveries).toEqual({
      count: 1,
      items: [{ id: delivery.id, eventType: "invoice.paid", objectId: paid.uuid, url: DEAD_HOOK, attempts: 12, lastStatusCode: 500, lastError: "HTTP 500", diedAt: expect.any(Date) }],
    });
    expect(attention.invoicesInReview).toEqual({
      count: 1,
      items: [{ invoiceId: open.uuid, orderId: "", network: "optimism", failures: 1, firstFailedAt: expect.any(Date), lastFailedAt: expect.any(Date) }],
    });

    // An underpaid payment waits for a decision until the merchant takes one.
    const short = await createInvoice(merchant, { amount: "10", currency: "USD", to_currency: "USDT", network: "tron", order_id: "short-1" });
    await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: short.address, amount: "3" }, merchant);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant);
    await callSigned("/v1/sandbox/expire", { uuid: short.uuid }, merchant);
    const decisions = (await loadOverview(deps, merchant.merchantId, { period: "24h" })).attention.decisionsNeeded;
    expect(decisions).toEqual({ count: 1, items: [{ invoiceId: short.uuid, orderId: "short-1", status: "wrong_amount", finalAt: expect.any(Date) }] });
    expect((await callSigned("/v1/payment/resolve", { uuid: short.uuid, action: "accept" }, merchant)).status).toBe(200);
    expect((await loadOverview(deps, merchant.merchantId, { period: "24h" })).attention.decisionsNeeded.count).toBe(0);

    // The endpoint: failing for over an hour, then answering again.
    expect((await loadOverview(deps, merchant.merchantId, { period: "24h" })).attention.failingEndpoint).toBeNull();
    const failingSince = new Date(Date.now() - 2 * 3_600_000);
    const retrying = await db.webhookDelivery.findFirstOrThrow({ where: { merchantId: merchant.merchantId, objectId: short.uuid, target: "endpoint" } });
    await db.webhookDelivery.update({ where: { id: retrying.id }, data: { status: "pending", attempts: 4, lastStatusCode: 503, lastError: "HTTP 503", createdAt: failingSince } });
    expect((await loadOverview(deps, merchant.merchantId, { period: "24h" })).attention.failingEndpoint).toEqual({ url: DEAD_HOOK, since: failingSince, retrying: 1, lastStatusCode: 503, lastError: "HTTP 503" });
    await db.webhookDelivery.update({ where: { id: retrying.id }, data: { createdAt: new Date() } }); // failing for minutes only
    expect((await loadOverview(deps, merchant.merchantId, { period: "24h" })).attention.failingEndpoint).toBeNull();
    await db.webhookDelivery.update({ where: { id: retrying.id }, data: { status: "delivered", deliveredAt: new Date(), createdAt: failingSince } });
    expect((await loadOverview(deps, merchant.merchantId, { period: "24h" })).attention.failingEndpoint).toBeNull();

    // Outside the window, a dead delivery no longer counts.
    await db.webhookDelivery.update({ where: { id: delivery.id }, data: { createdAt: new Date(Date.now() - 8 * 86_400_000) } });
    expect((await loadOverview(deps, merchant.merchantId, { period: "24h" })).attention.deadDeliveries.count).toBe(0);
    await db.webhookDelivery.update({ where: { id: delivery.id }, data: { createdAt: delivery.createdAt } });
    expect((await loadOverview(deps, merchant.merchantId, { period: "24h" })).attention.deadDeliveries.count).toBe(1);

    const stranger = await makeMerchant();
    expect(await loadOverview(deps, stranger.merchantId, { period: "24h" })).toMatchObject({
      balances: [],
      volume: { count: 0, currencies: [] },
      activity: [],
      attention: { payoutsAwaitingApproval: { count: 0, items: [] }, deadDeliveries: { count: 0, items: [] }, invoicesInReview: { count: 0, items: [] } },
    });

    expect((await callSigned("/v1/payment/resend", { uuid: paid.uuid }, merchant)).status).toBe(200);
    await resolveInvoiceReviews(db, [open.uuid], new Date());
    const after = (await loadOverview(deps, merchant.merchantId, { period: "24h" })).attention;
    expect(after.deadDeliveries.count).toBe(0);
    expect(after.invoicesInReview.count).toBe(0);
  });
});

/** A rate source with fixed USD prices: the overview's estimates become exact expectations. */
function fixedRates(usd: Record<string, string>): RateProvider {
  const asOf = new Date("2026-11-02T08:00:00Z");
  return { name: "fixed", isOffline: false, fetchUsdPrices: async (symbols) => new Map(symbols.filter((symbol) => usd[symbol]).map((symbol) => [symbol, { symbol, usd: usd[symbol], asOf, source: "fixed" }])) };
}

describe("overview in fiat", () => {
  it("estimates balances and the paid volume at the day's rate, with the previous period beside it, and says when it cannot", async () => {
    const db = getTestDb();
    const merchant = await makeMerchant();
    const now = await payInvoice(merchant, "100.00");
    const before = await payInvoice(merchant, "80.00");
    const older = await payInvoice(merchant, "30.00");
    // One paid 35 days ago (the 30 days before the last 30), one 65 days ago (in neither period).
    await db.invoice.update({ where: { id: before.uuid }, data: { finalAt: new Date(Date.now() - 35 * 86_400_000) } });
    await db.invoice.update({ where: { id: older.uuid }, data: { finalAt: new Date(Date.now() - 65 * 86_400_000) } });
    const minor = (amount: string) => parseAmount(amount, 6)!;
    // 1 EUR = 1.25 USD and 1 USDT = 1 USD: one USDT minor unit (10⁻⁶) is 1/12 500 of a euro cent, rounded down.
    const toEurCents = (usdtMinor: bigint) => usdtMinor / 12_500n;
    const deps = makeTestDeps({ rates: fixedRates({ EUR: "1.25", USDT: "1" }) });

    const overview = await loadOverview(deps, merchant.merchantId, { period: "30d", fiat: "EUR" });

    expect(overview.volume.count).toBe(1);
    expect(overview.volume.previous.count).toBe(1);
    expect(overview.volume.previous.to).toEqual(overview.volume.from);
    expect(overview.volume.previous.from.getTime()).toBe(overview.volume.from.getTime() - 30 * 86_400_000);
    const current = minor(now.payer_amount);
    const previous = minor(before.payer_amount);
    const change = ((current - previous) * 1000n * 2n + previous) / (2n * previous);
    expect(overview.volume.currencies).toEqual([
      { currency: "USDT", decimals: 6, total: now.payer_amount, count: 1, previousTotal: before.payer_amount, previousCount: 1, changePercent: formatAmount(change, 1, 1) },
    ]);
    const [balance] = overview.balances;
    const own = minor(balance.incoming) + minor(balance.maturing) + minor(balance.available) + minor(balance.payoutHeld) - minor(balance.debt);
    expect(own).toBeGreaterThan(0n);
    const eurCurrent = toEurCents(current);
    const eurPrevious = toEurCents(previous);
    expect(overview.fiat).toEqual({
      status: "ready",
      fiat: "EUR",
      asOf: new Date("2026-11-02T08:00:00Z"),
      source: "fixed",
      isOffline: false,
      balances: { "USDT:tron": { available: formatAmount(toEurCents(minor(balance.available)), 2, 2), total: formatAmount(toEurCents(own), 2, 2) } },
      available: formatAmount(toEurCents(minor(balance.available)), 2, 2),
      total: formatAmount(toEurCents(own), 2, 2),
      volume: { current: formatAmount(eurCurrent, 2, 2), previous: formatAmount(eurPrevious, 2, 2), changePercent: formatAmount(((eurCurrent - eurPrevious) * 2000n + eurPrevious) / (2n * eurPrevious), 1, 1) },
      unpriced: [],
    });
    // 100 USD of USDT against 80: at par about +25 %.
    expect(Number((overview.fiat as { volume: { changePercent: string } }).volume.changePercent)).toBeGreaterThan(20);

    // In 24 hours, nothing paid the day before.
    const day = await loadOverview(deps, merchant.merchantId, { period: "24h", fiat: "EUR" });
    expect(day.volume.currencies[0]).toMatchObject({ previousTotal: "0", previousCount: 0, changePercent: null });
    expect(day.fiat).toMatchObject({ status: "ready", volume: { previous: "0.00", changePercent: null } });

    // A coin without a rate is left out of the sums and named; no rate for the fiat or no source at all: no number.
    const unpriced = await loadOverview(makeTestDeps({ rates: fixedRates({ EUR: "1.25" }) }), merchant.merchantId, { period: "30d", fiat: "EUR" });
    expect(unpriced.fiat).toMatchObject({ status: "ready", available: "0.00", total: "0.00", balances: { "USDT:tron": { available: null, total: null } }, unpriced: ["USDT"] });
    const noFiat = await loadOverview(makeTestDeps({ rates: fixedRates({ USDT: "1" }) }), merchant.merchantId, { period: "30d", fiat: "EUR" });
    expect(noFiat.fiat).toEqual({ status: "unavailable", fiat: "EUR", reason: "the rate source has no price for EUR" });
    const down: RateProvider = { name: "down", isOffline: false, fetchUsdPrices: async () => Promise.reject(new RateSourceError("down", { retryable: true, source: "down" })) };
    const failed = await loadOverview(makeTestDeps({ rates: down }), merchant.merchantId, { period: "30d", fiat: "EUR" });
    expect(failed.fiat).toEqual({ status: "unavailable", fiat: "EUR", reason: "the rate source did not answer" });
    expect(failed.balances).toEqual(overview.balances);
    // USD when no fiat is chosen.
    expect((await loadOverview(makeTestDeps({ rates: fixedRates({ USD: "1", USDT: "1" }) }), merchant.merchantId, { period: "30d" })).fiat).toMatchObject({ status: "ready", fiat: "USD", volume: { current: formatAmount(current / 10_000n, 2, 2) } });
  });
});

describe("invoice search", () => {
  it("finds an invoice by its uuid, or by part of its order_id, deposit address, payer e-mail or a transfer's txid in any case, and nothing for another merchant", async () => {
    const merchant = await makeMerchant();
    const paid = (await payInvoice(merchant, "40.00")) as Awaited<ReturnType<typeof payInvoice>> & { address: string };
    await createInvoice(merchant, { to_currency: "USDT", network: "tron" });
    await createInvoice(merchant, { to_currency: "BTC", network: "bitcoin" });
    const transfer = await getTestDb().chainTransfer.findFirstOrThrow({ where: { invoiceId: paid.uuid } });
    expect(transfer.txid).not.toBe("");
    const deps = makeTestDeps();
    const search = (query: string, who = merchant, filters: InvoiceSearchFilters = {}) =>
      searchInvoices(deps, who.merchantId, { ...filters, query }, { limit: 20 }).then((page) => page.items.map((item) => item.uuid));

    for (const query of [
      paid.uuid,
      paid.uuid.toUpperCase(),
      paid.order_id,
      ` ${paid.order_id} `,
      paid.order_id.slice(2, -1).toUpperCase(),
      paid.address,
      paid.address.slice(3, 15).toLowerCase(),
      transfer.txid,
      transfer.txid.slice(5, 25).toUpperCase(),
    ]) {
      expect(await search(query), query).toEqual([paid.uuid]);
    }
    // An e-mail, in part; the query's wildcards are literal characters.
    const emailed = await createInvoice(merchant, { to_currency: "USDT", network: "tron", order_id: "ORDER_77%", payer_email: "Jane.Doe@Example.com" });
    expect(await search("jane.doe@example")).toEqual([emailed.uuid]);
    expect(await search("der_77%")).toEqual([emailed.uuid]);
    expect(await search("der_7_%")).toEqual([]);
    expect(await search("%")).toEqual([emailed.uuid]);
    expect(await search(transfer.txid, merchant, { status: ["check"] })).toEqual([]);
    expect(await search(transfer.txid, merchant, { status: ["paid"], coin: "usdt", network: "TRON" })).toEqual([paid.uuid]);
    expect(await search("no-such-thing")).toEqual([]);

    const page = await searchInvoices(deps, merchant.merchantId, { query: paid.uuid }, { limit: 20 });
    const info = (await callSigned("/v1/payment/info", { uuid: paid.uuid }, merchant)).body.result;
    const { refund_status: _status, refunds: _refunds, ...payment } = info;
    expect(page).toEqual({ items: [payment], nextCursor: null });

    const stranger = await makeMerchant();
    for (const query of [paid.uuid, paid.order_id, paid.address, transfer.txid]) {
      expect(await search(query, stranger), query).toEqual([]);
    }
    expect((await searchInvoices(deps, stranger.merchantId, {}, { limit: 20 })).items).toEqual([]);
  });

  it("lists the same rows, in the same order, with the same cursors as /v1/payment/history for the same filter", async () => {
    const merchant = await makeMerchant();
    const paid = await payInvoice(merchant, "30.00");
    const made = [
      await createInvoice(merchant, { to_currency: "USDT", network: "tron" }),
      await createInvoice(merchant, { to_currency: "BTC", network: "bitcoin" }),
      await createInvoice(merchant, { amount: "15", currency: "EUR" }),
      await createInvoice(merchant, { to_currency: "ETH", network: "base" }),
      await createInvoice(merchant, { to_currency: "USDT", network: "tron", order_id: paid.order_id }),
      await createInvoice(merchant, { amount: "0.01", currency: "BTC", network: "bitcoin" }),
    ];
    const from = new Date(made[1].created_at);
    const to = new Date(made[4].created_at);
    const cases: [InvoiceSearchFilters, Record<string, unknown>][] = [
      [{}, {}],
      [{ status: ["check"] }, { status: "check" }],
      [{ status: ["paid", "select"] }, { status: ["paid", "select"] }],
      [{ coin: "usdt" }, { currency: "USDT" }],
      [{ coin: "BTC" }, { currency: "BTC" }],
      [{ network: "Bitcoin" }, { network: "bitcoin" }],
      [{ createdFrom: from, createdTo: to }, { date_from: from.toISOString(), date_to: to.toISOString() }],
      [{ coin: "USDT", status: ["check", "paid"], createdFrom: new Date(0) }, { currency: "USDT", status: ["check", "paid"], date_from: new Date(0).toISOString() }],
      // The search text goes its own way to the database; with an order_id it must still agree with the API's order_id filter.
      [{ query: paid.order_id }, { order_id: paid.order_id }],
      [{ query: paid.order_id, status: ["paid"] }, { order_id: paid.order_id, status: "paid" }],
      [{ query: paid.order_id, coin: "usdt", createdTo: to }, { order_id: paid.order_id, currency: "USDT", date_to: to.toISOString() }],
    ];
    for (const [filters, body] of cases) {
      for (const limit of [2, 20]) {
        const cabinet = await searchAll(merchant, filters, limit);
        const api = await historyAll(merchant, body, limit);
        expect(cabinet, JSON.stringify({ filters, limit })).toEqual(api);
      }
    }
    // Sanity: the cases above are not vacuous.
    expect((await searchAll(merchant, {}, 2)).flatMap((page) => page.items)).toHaveLength(7);
    expect((await searchAll(merchant, { query: paid.order_id }, 1)).map((page) => page.items.map((item) => item.uuid))).toEqual([[made[4].uuid], [paid.uuid]]);
    expect((await searchAll(merchant, { createdFrom: from, createdTo: to }, 20))[0].items.map((item) => item.uuid)).toEqual([made[3].uuid, made[2].uuid, made[1].uuid]);
    // A cursor of one side works on the other.
    const first = await searchInvoices(makeTestDeps(), merchant.merchantId, {}, { limit: 3 });
    const next = (await callSigned("/v1/payment/list", { limit: 3, cursor: first.nextCursor }, merchant)).body.result.items;
    expect(next.map((item: { uuid: string }) => item.uuid)).toEqual([made[2].uuid, made[1].uuid, made[0].uuid]);
    const bad = await searchInvoices(makeTestDeps(), merchant.merchantId, {}, { limit: 3, cursor: "%%%" }).catch((error: unknown) => error);
    expect(isAppError(bad) && bad.code).toBe("payment.bad_cursor");
  });
});

describe("CSV export", () => {
  it("writes exactly the filtered view, quoted per RFC 4180, with formulas neutralised", async () => {
    const merchant = await makeMerchant();
    const paid = (await payInvoice(merchant, "25.00")) as Awaited<ReturnType<typeof payInvoice>> & { txid: string };
    const tricky = [
      await createInvoice(merchant, { to_currency: "USDT", network: "tron", order_id: '=HYPERLINK("http://x.test","a,b")' }),
      await createInvoice(merchant, { to_currency: "USDT", network: "tron", order_id: "+1 line\nbreak" }),
      await createInvoice(merchant, { to_currency: "USDT", network: "tron", order_id: "-2" }),
      await createInvoice(merchant, { to_currency: "USDT", network: "tron", order_id: "@sum" }),
    ];
    await createInvoice(merchant, { to_currency: "BTC", network: "bitcoin", order_id: "plain" });
    const deps = makeTestDeps();

    for (const filters of [{}, { coin: "USDT" }, { status: ["paid" as const] }, { query: paid.txid }, { network: "solana" }] as InvoiceSearchFilters[]) {
      const lines = await collect(exportInvoicesCsv(deps, merchant.merchantId, filters));
      const view = (await searchAll(merchant, filters, 100)).flatMap((page) => page.items);
      const rows = lines.map(parseCsvLine);
      if (filters.query) expect(view.map((item) => item.uuid)).toEqual([paid.uuid]);
      expect(rows[0]).toEqual(["uuid", "order_id", "status", "amount", "currency", "payer_amount", "payer_currency", "amount_paid", "fee", "net", "network", "address", "txid", "payer_address", "is_final", "created_at", "updated_at", "final_at"]);
      expect(rows.slice(1).map((row) => row[0]), JSON.stringify(filters)).toEqual(view.map((item) => item.uuid));
      for (const [index, item] of view.entries()) {
        const [uuid, , status, amount, currency, payerAmount, payerCurrency, amountPaid, , , network, address, txid, payerAddress, isFinal, createdAt, updatedAt] = rows[index + 1];
        expect([uuid, status, amount, currency, payerAmount, payerCurrency, amountPaid, network, address, txid, payerAddress, isFinal, createdAt, updatedAt]).toEqual([
          item.uuid,
          item.payment_status,
          item.amount,
          item.currency,
          item.payer_amount,
          item.payer_currency,
          item.amount_paid,
          item.network,
          item.address,
          item.txid,
          item.payer_address,
          String(item.is_final),
          item.created_at,
          item.updated_at,
        ]);
      }
    }

    const lines = await collect(exportInvoicesCsv(deps, merchant.merchantId, {}));
    const orderIds = new Map(lines.slice(1).map((line) => [parseCsvLine(line)[0], parseCsvLine(line)[1]]));
    expect(orderIds.get(tricky[0].uuid)).toBe(`'=HYPERLINK("http://x.test","a,b")`);
    expect(orderIds.get(tricky[1].uuid)).toBe("'+1 line\nbreak");
    expect(orderIds.get(tricky[2].uuid)).toBe("'-2");
    expect(orderIds.get(tricky[3].uuid)).toBe("'@sum");
    expect(lines.find((line) => line.startsWith(tricky[0].uuid))).toContain(`,"'=HYPERLINK(""http://x.test"",""a,b"")",check,`);
    expect(orderIds.get(paid.uuid)).toBe(paid.order_id);
    const paidLine = parseCsvLine(lines.find((line) => line.startsWith(paid.uuid))!);
    expect(paidLine[17]).toBe((await getTestDb().invoice.findUniqueOrThrow({ where: { id: paid.uuid } })).finalAt!.toISOString());

    expect(toCsvLine(["a", 'b"c', "d,e", "f\r\ng", "=1+1", "\tx", "plain"])).toBe('a,"b""c","d,e","f\r\ng",\'=1+1,\'\tx,plain\r\n');

    const stranger = await makeMerchant();
    expect(await collect(exportInvoicesCsv(deps, stranger.merchantId, {}))).toEqual([lines[0]]);
    expect(await collect(exportInvoicesCsv(deps, stranger.merchantId, { query: paid.uuid }))).toEqual([lines[0]]);
  });

  it("reads a long view page by page and writes every row once", async () => {
    const merchant = await makeMerchant();
    const db = getTestDb();
    const template = await createInvoice(merchant, { to_currency: "USDT", network: "tron" });
    const row = await db.invoice.findUniqueOrThrow({ where: { id: template.uuid } });
    // More rows than one export page, written directly: 1 200 API calls would only slow the test.
    const base = Date.now() - 86_400_000;
    const copies = Array.from({ length: 1_150 }, (_, index) => ({
      ...row,
      id: crypto.randomUUID(),
      address: null,
      network: "tron",
      orderId: `bulk-${index}`,
      createdAt: new Date(base + Math.floor(index / 3) * 1000), // shared timestamps: the id breaks ties
      updatedAt: new Date(base),
    }));
    await db.invoice.createMany({ data: copies });
    const lines = await collect(exportInvoicesCsv(makeTestDeps(), merchant.merchantId, { network: "tron" }));
    const uuids = lines.slice(1).map((line) => line.slice(0, 36));
    expect(uuids).toHaveLength(1_151);
    expect(new Set(uuids).size).toBe(1_151);
    expect(uuids).toEqual((await db.invoice.findMany({ where: { merchantId: merchant.merchantId, network: "tron" }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true } })).map((invoice) => invoice.id));
  });
});

/** The platform fee and the received amount of an invoice's first settlement, as its ledger journal posted them. */
async function settlementJournal(invoiceId: string) {
  const journal = await getTestDb().ledgerJournal.findUniqueOrThrow({
    where: { reference: `invoice:${invoiceId}:settle:0` },
    include: { postings: { include: { account: true } } },
  });
  const fee = journal.postings.filter((posting) => posting.account.owner === "platform" && posting.account.bucket === "fees").reduce((sum, posting) => sum + BigInt(posting.amount.toFixed()), 0n);
  const incoming = journal.postings.filter((posting) => posting.account.owner !== "platform" && posting.account.bucket === "incoming").reduce((sum, posting) => sum + BigInt(posting.amount.toFixed()), 0n);
  return { fee, received: -incoming };
}

describe("fee and net per invoice", () => {
  it("are the platform fee and the rest of the invoice's settlement journal, on the invoice page and in the CSV; empty until settled", async () => {
    const merchant = await makeMerchant();
    const deps = makeTestDeps();
    const paid = await payInvoice(merchant, "25.00");
    const open = await createInvoice(merchant, { to_currency: "USDT", network: "tron" });
    const { fee, received } = await settlementJournal(paid.uuid);
    expect(fee).toBeGreaterThan(0n);
    expect(received).toBe(parseAmount(paid.payer_amount, 6));
    const expected = { fee: formatAmount(fee, 6), net: formatAmount(received - fee, 6) };

    expect((await loadInvoiceDetail(deps, merchant.merchantId, paid.uuid)).settlement).toEqual(expected);
    expect((await loadInvoiceDetail(deps, merchant.merchantId, open.uuid)).settlement).toBeNull();

    const rows = (await collect(exportInvoicesCsv(deps, merchant.merchantId, {}))).map(parseCsvLine);
    const feeColumn = rows[0].indexOf("fee");
    expect(rows[0].slice(feeColumn - 1, feeColumn + 3)).toEqual(["amount_paid", "fee", "net", "network"]);
    const byUuid = new Map(rows.slice(1).map((row) => [row[0], row]));
    expect(byUuid.get(paid.uuid)!.slice(feeColumn, feeColumn + 2)).toEqual([expected.fee, expected.net]);
    expect(byUuid.get(open.uuid)!.slice(feeColumn, feeColumn + 2)).toEqual(["", ""]);
  });
});

describe("invoice detail", () => {
  it("shows the payment object, its transfers, deliveries, refunds and a dated timeline; another merchant's invoice is not found", async () => {
    const merchant = await makeMerchant();
    expect((await callSigned("/v1/webhooks", { url: DEAD_HOOK }, merchant)).status).toBe(201);
    const paid = await payInvoice(merchant, "100.00");
    await payInvoice(merchant, "50.00"); // keeps the balance able to carry a refund's fee
    const refund = (await callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: "30", address: TRON_ADDRESS }, merchant)).body.result;
    expect(refund).toMatchObject({ amount: "30" });
    const deps = makeTestDeps();

    const detail = await loadInvoiceDetail(deps, merchant.merchantId, paid.uuid);

    const info = (await callSigned("/v1/payment/info", { uuid: paid.uuid }, merchant)).body.result;
    const { refund_status: refundStatus, refunds: _refunds, ...payment } = info;
    expect(detail.payment).toEqual(payment);
    expect(detail.refundStatus).toBe(refundStatus);
    expect(detail.refundStatus).toBe("partial");

    const stored = await getTestDb().chainTransfer.findFirstOrThrow({ where: { invoiceId: paid.uuid } });
    expect(detail.transfers).toEqual([
      {
        id: stored.id,
        txid: info.txid,
        position: stored.position,
        network: "tron",
        networkName: "Tron",
        currency: "USDT",
        amount: paid.payer_amount,
        fromAddress: paid.payer_address,
        toAddress: info.address,
        confirmations: stored.confirmations,
        blockHeight: stored.blockHeight,
        blockHash: stored.blockHash,
        status: "confirmed",
        seenAt: stored.createdAt,
        creditedAt: expect.any(Date),
      },
    ]);
    expect(detail.transfers[0].blockHeight).not.toBeNull();

    expect(detail.deliveries).toHaveLength(1);
    expect(detail.deliveries[0]).toMatchObject({ eventType: "invoice.paid", target: "endpoint", url: DEAD_HOOK });
    expect(detail).toMatchObject({ confirming: "0", webhookTargets: { endpoint: true, callback: false } });

    // A refund the payout sender of another test file may already be sending: its status moves.
    expect(detail.refunds).toHaveLength(1);
    expect(detail.refunds[0]).toMatchObject({ uuid: refund.uuid, payment_uuid: paid.uuid, amount: "30", address: TRON_ADDRESS, currency: "USDT", network: "tron" });

    const kinds = detail.timeline.map((event) => event.kind);
    expect(kinds).toEqual(["created", "transfer_seen", "transfer_credited", "settled", "final", "webhook", "refund_created"]);
    // (A transfer recorded in the pass that credits it is dated a little after its credit; see below.)
    const times = detail.timeline.filter((event) => event.kind !== "transfer_seen").map((event) => event.at.getTime());
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(detail.timeline[0]).toMatchObject({ kind: "created", amount: "100.00", currency: "USD", at: new Date(info.created_at) });
    expect(detail.timeline[1]).toMatchObject({ kind: "transfer_seen", txid: info.txid, amount: paid.payer_amount, network: "tron" });
    expect(detail.timeline[2]).toMatchObject({ kind: "transfer_credited", credit: 1, at: detail.transfers[0].creditedAt });
    expect(detail.timeline[4]).toMatchObject({ kind: "final", status: "paid" });
    expect(detail.timeline[6]).toMatchObject({ kind: "refund_created", payoutId: refund.uuid, amount: "30" });

    // A transfer recorded and credited in one watcher pass is dated a little after its credit (the
    // pass's start): it still comes first, with the time stored.
    const recordedLate = new Date(detail.transfers[0].creditedAt!.getTime() + 5);
    await getTestDb().chainTransfer.update({ where: { id: stored.id }, data: { createdAt: recordedLate } });
    const again = await loadInvoiceDetail(deps, merchant.merchantId, paid.uuid);
    expect(again.timeline.map((event) => event.kind)).toEqual(kinds);
    expect(again.timeline[1]).toMatchObject({ kind: "transfer_seen", at: recordedLate });

    // A transfer on its way is told apart from what is confirmed.
    const confirmingInvoice = await createInvoice(merchant, { amount: "10", currency: "USD", to_currency: "USDT", network: "tron", url_callback: DEAD_HOOK });
    await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: confirmingInvoice.address, amount: "4.5" }, merchant);
    const confirming = await loadInvoiceDetail(deps, merchant.merchantId, confirmingInvoice.uuid);
    expect(confirming).toMatchObject({ confirming: "4.5", webhookTargets: { endpoint: true, callback: true } });
    expect(confirming.payment.amount_paid).toBe("0");

    const unpaid = await createInvoice(merchant, { amount: "15", currency: "EUR" });
    const fresh = await loadInvoiceDetail(deps, merchant.merchantId, unpaid.uuid);
    expect(fresh).toMatchObject({ refundStatus: "none", transfers: [], deliveries: [], refunds: [], confirming: "0" });
    expect(fresh.timeline.map((event) => event.kind)).toEqual(["created"]);
    expect(fresh.payment).toEqual(await toPayment(await getTestDb().invoice.findUniqueOrThrow({ where: { id: unpaid.uuid } }), deps.config.publicBaseUrl));

    const stranger = await makeMerchant();
    await expectNotFound(loadInvoiceDetail(deps, stranger.merchantId, paid.uuid));
    await expectNotFound(loadInvoiceDetail(deps, stranger.merchantId, unpaid.uuid));
    await expectNotFound(loadInvoiceDetail(deps, merchant.merchantId, "not-a-uuid"));
    await expectNotFound(loadInvoiceDetail(deps, merchant.merchantId, crypto.randomUUID()));
  });
});
