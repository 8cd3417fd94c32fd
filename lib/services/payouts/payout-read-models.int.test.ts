import { describe, expect, it } from "vitest";
import { getChainSender } from "@/lib/chains/registry";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";
import { collect, TRON_ADDRESS } from "@/lib/testing/cabinet";
import { fundMerchant, payInvoice } from "@/lib/testing/funding";
import { addApiKey, callSigned, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { listAssetChoices } from "@/lib/services/balances/list-asset-choices";
import { findPayoutDetail } from "@/lib/services/payouts/find-payout-detail";
import { exportPayoutsCsv, searchPayouts, type PayoutSearchFilters } from "@/lib/services/payouts/search-payouts";

// The cabinet's payout reads: the list under the API's filters and cursors (plus the kind and
// the approval queue), the CSV of exactly the filtered view, a payout's timeline from what is
// stored, and the assets the forms offer — each scoped to one merchant.

async function createPayout(merchant: TestMerchant, body: Record<string, unknown> = {}) {
  const response = await callSigned("/v1/payout", { amount: "3", currency: "USDT", network: "tron", address: TRON_ADDRESS, order_id: `q-${Math.random().toString(36).slice(2)}`, ...body }, merchant);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.result as { uuid: string; order_id: string; debit_amount: string };
}

async function apiList(merchant: TestMerchant, body: Record<string, unknown>): Promise<string[]> {
  const uuids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: { uuid: string }[]; paginate: { next_cursor: string | null } } = (await callSigned("/v1/payout/list", { limit: 100, ...body, ...(cursor ? { cursor } : {}) }, merchant)).body.result;
    uuids.push(...page.items.map((item) => item.uuid));
    cursor = page.paginate.next_cursor;
  } while (cursor);
  return uuids;
}

async function cabinetList(merchantId: string, filters: PayoutSearchFilters, limit = 2): Promise<string[]> {
  const uuids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await searchPayouts(makeTestDeps(), merchantId, filters, { limit, cursor });
    uuids.push(...page.items.map((item) => item.payout.uuid));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return uuids;
}

const csvOf = (merchantId: string, filters: PayoutSearchFilters) => collect(exportPayoutsCsv(makeTestDeps(), merchantId, filters));

describe("the cabinet's payout list", () => {
  it("answers the API's rows and cursors for its filters, adds the kind and the approval queue, and exports exactly the view", async () => {
    const merchant = await makeMerchant();
    await fundMerchant(merchant, "300.00");
    const approver = await addApiKey(merchant.merchantId, "payout");
    const api = [await createPayout(merchant, { order_id: "=1+1" }), await createPayout(merchant)];
    const pending = await createPayout(merchant, { source: "manual" });
    const rejected = await createPayout(merchant, { source: "manual" });
    await callSigned("/v1/payout/approve", { uuid: rejected.uuid, approve: false }, approver);
    const paid = await payInvoice(merchant, "50.00");
    const refund = (await callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: "5", address: TRON_ADDRESS }, merchant)).body.result as { uuid: string };

    // Statuses only this test moves (pending, final) are compared; other files' sender passes may advance the rest.
    const everything = await apiList(merchant, {});
    expect(everything).toHaveLength(5);
    expect(await cabinetList(merchant.merchantId, {})).toEqual(everything);
    expect(await cabinetList(merchant.merchantId, { status: ["check"] })).toEqual(await apiList(merchant, { status: "check" }));
    expect(await cabinetList(merchant.merchantId, { status: ["check", "fail"] })).toEqual([rejected.uuid, pending.uuid]);
    expect(await cabinetList(merchant.merchantId, { isAwaitingApproval: true, status: ["fail"] })).toEqual([pending.uuid]);
    expect(await cabinetList(merchant.merchantId, { coin: " usdt ", network: "TRON" })).toEqual(everything);
    expect(await cabinetList(merchant.merchantId, { coin: "btc" })).toEqual([]);
    expect(await cabinetList(merchant.merchantId, { network: "ethereum" })).toEqual([]);

    expect(await cabinetList(merchant.merchantId, { kind: "refund" })).toEqual([refund.uuid]);
    expect(await cabinetList(merchant.merchantId, { kind: "payout" }, 1)).toEqual(everything.filter((uuid) => uuid !== refund.uuid));
    expect(await cabinetList(merchant.merchantId, { kind: "payout", status: ["check"] })).toEqual([pending.uuid]);
    expect(await cabinetList(merchant.merchantId, { kind: "wallet_refund" })).toEqual([]);

    // The search box: part of an order id, the address or a uuid, in any case, within the filters.
    const named = await createPayout(merchant, { order_id: "Invoice_2026-11%A" });
    const withNamed = [named.uuid, ...everything];
    expect(await cabinetList(merchant.merchantId, { query: "invoice_2026-11%" })).toEqual([named.uuid]);
    expect(await cabinetList(merchant.merchantId, { query: "ce_2026_11" })).toEqual([]); // `_` is a character, not a wildcard
    expect(await cabinetList(merchant.merchantId, { query: named.uuid.toUpperCase() })).toEqual([named.uuid]);
    expect(await cabinetList(merchant.merchantId, { query: TRON_ADDRESS.slice(4, 16).toLowerCase() }, 1)).toEqual(withNamed);
    expect(await cabinetList(merchant.merchantId, { query: TRON_ADDRESS.slice(4, 16), kind: "refund" })).toEqual([refund.uuid]);
    expect(await cabinetList(merchant.merchantId, { query: "no such order" })).toEqual([]);
    expect((await csvOf(merchant.merchantId, { query: "INVOICE_2026" })).slice(1).map((line) => line.split(",")[0])).toEqual([named.uuid]);
    await callSigned("/v1/payout/approve", { uuid: named.uuid, approve: false }, approver);

    const page = await searchPayouts(makeTestDeps(), merchant.merchantId, { status: ["check"] }, { limit: 10 });
    expect(page.items[0].createdBy).toEqual({ actor: `key:${merchant.publicId}`, label: `API key ${merchant.publicId}` });
    expect(page.items[0].approvedBy).toBeNull();

    const csv = (await csvOf(merchant.merchantId, {})).filter((line) => !line.startsWith(named.uuid));
    expect(csv[0]).toBe(
      "uuid,order_id,kind,source,status,internal_status,amount,commission,receive_amount,debit_amount,currency,network,address,memo,txid,is_subtract,wait_reason,payment_uuid,created_by,approved_by,approved_at,created_at,updated_at\r\n",
    );
    expect(csv.slice(1).map((line) => line.split(",")[0])).toEqual(everything);
    expect(csv.every((line) => line.endsWith("\r\n"))).toBe(true);
    // An order id that a spreadsheet would run as a formula is written as text.
    expect(csv.find((line) => line.startsWith(api[0].uuid))).toContain(",'=1+1,payout,api,");
    expect(csv.find((line) => line.startsWith(refund.uuid))).toContain(`,refund,api,`);
    const rejectedLine = csv.find((line) => line.startsWith(rejected.uuid))!;
    expect(rejectedLine).toContain(",payout,manual,fail,failed,3,");
    expect(rejectedLine).toContain(`,API key ${merchant.publicId},,,`);

    const queueCsv = await csvOf(merchant.merchantId, { isAwaitingApproval: true });
    expect(queueCsv).toHaveLength(2);
    expect(queueCsv[1].startsWith(pending.uuid)).toBe(true);

    const other = await makeMerchant();
    expect(await cabinetList(other.merchantId, {})).toEqual([]);
    expect(await cabinetList(other.merchantId, { query: named.uuid })).toEqual([]);
    expect(await csvOf(other.merchantId, {})).toHaveLength(1);
    await expect(searchPayouts(makeTestDeps(), merchant.merchantId, {}, { limit: 5, cursor: "garbage" })).rejects.toMatchObject({ code: "payout.bad_cursor" });
  });
});

describe("a payout's timeline", () => {
  it("goes from creation through the on-chain transfer to confirmation, from what is stored", async () => {
    const deps = makeTestDeps();
    const merchant = await makeMerchant();
    await fundMerchant(merchant);
    const created = await createPayout(merchant, { amount: "8" });
    const sender = getChainSender(deps.db, deps.config, "tron")!;
    await sendPayouts(deps, "tron", sender);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 12 }, merchant);
    await sendPayouts(deps, "tron", sender);

    const detail = (await findPayoutDetail(deps, merchant.merchantId, created.uuid))!;
    expect(detail.payout).toMatchObject({ uuid: created.uuid, status: "paid", internal_status: "confirmed" });
    expect(detail.timeline.map((event) => event.kind)).toEqual(["created", "approved", "transfer", "confirmed"]);
    const [made, approved, transfer, confirmed] = detail.timeline;
    expect(made).toMatchObject({ by: { label: `API key ${merchant.publicId}` }, reserved: created.debit_amount });
    expect(approved).toMatchObject({ isAtCreation: true });
    expect(transfer).toMatchObject({ attempt: 1, status: "confirmed", txid: detail.payout.txid, error: "" });
    expect(confirmed).toMatchObject({ txid: detail.payout.txid });
    expect(detail.payout.txid).toMatch(/\S/);

    expect(await findPayoutDetail(deps, (await makeMerchant()).merchantId, created.uuid)).toBeNull();
    expect(await findPayoutDetail(deps, merchant.merchantId, "not-a-uuid")).toBeNull();
  });
});

describe("asset choices of the cabinet's forms", () => {
  it("offers the served assets, with the payout fee and the available balance for payouts", async () => {
    const merchant = await makeMerchant();
    const available = await fundMerchant(merchant);
    const payout = await listAssetChoices(makeTestDeps(), merchant.merchantId, "payout");
    const services = (await callSigned("/v1/payout/services", {}, merchant)).body.result as { currency: string; network: string; is_available: boolean; commission: { fee_amount: string } }[];
    const usdt = services.find((entry) => entry.currency === "USDT" && entry.network === "tron")!;
    expect(payout.find((choice) => choice.currency === "USDT" && choice.network === "tron")).toEqual({
      currency: "USDT",
      network: "tron",
      networkName: "Tron",
      decimals: 6,
      hasMemo: false,
      payoutFee: usdt.commission.fee_amount,
      available,
    });
    expect(payout.map((choice) => `${choice.currency}:${choice.network}`)).toEqual(services.filter((entry) => entry.is_available).map((entry) => `${entry.currency}:${entry.network}`));
    expect(payout.find((choice) => choice.network === "ton")?.hasMemo ?? true).toBe(true);

    const payment = await listAssetChoices(makeTestDeps(), merchant.merchantId, "payment");
    expect(payment.every((choice) => choice.payoutFee === null && choice.available === "0")).toBe(true);
    expect(payment.length).toBeGreaterThan(0);
  });
});
