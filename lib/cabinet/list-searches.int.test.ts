import { describe, expect, it } from "vitest";
import { fundMerchant } from "@/lib/testing/funding";
import { callSigned, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { listPaymentLinks } from "@/lib/services/payment-links/payment-links";
import { listPayoutLinks } from "@/lib/services/payout-links/list-payout-links";
import { listStaticWallets } from "@/lib/services/static-wallets/static-wallets";

// The search boxes of the wallets and links pages, against the real database: part of a text in
// any case, the query's wildcards literal, paging kept, and never another merchant's rows.

async function created(path: string, body: Record<string, unknown>, merchant: TestMerchant): Promise<Record<string, string>> {
  const response = await callSigned(path, body, merchant);
  expect(response.status, JSON.stringify(response.body)).toBeLessThan(300);
  return response.body.result;
}

describe("the cabinet's list searches", () => {
  it("find static wallets by part of the order id or address", async () => {
    const merchant = await makeMerchant();
    const alice = await created("/v1/wallet", { currency: "USDT", network: "tron", order_id: "Customer_Alice" }, merchant);
    const bob = await created("/v1/wallet", { currency: "USDT", network: "tron", order_id: "customer-bob" }, merchant);
    const deps = makeTestDeps();
    const search = async (query: string, who = merchant, limit = 20) => {
      const uuids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await listStaticWallets(deps, who.merchantId, { limit, cursor, query });
        uuids.push(...page.items.map((wallet) => wallet.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return uuids;
    };
    expect(await search("ALICE")).toEqual([alice.uuid]);
    expect(await search("customer", merchant, 1)).toEqual([bob.uuid, alice.uuid]);
    expect(await search("r_a")).toEqual([alice.uuid]);
    expect(await search("r_b")).toEqual([]); // `_` is a character, not any one
    expect(await search(bob.address.slice(3, 14).toLowerCase())).toEqual([bob.uuid]);
    expect(await search("")).toEqual([bob.uuid, alice.uuid]);
    expect(await search("alice", await makeMerchant())).toEqual([]);
  });

  it("find payment links by part of the title or description, or by id", async () => {
    const merchant = await makeMerchant();
    const course = await created("/v1/payment/link", { title: "Pottery Course", description: "Six evenings, 100% clay", amount_mode: "fixed", amount: "120.00", currency: "EUR" }, merchant);
    const donation = await created("/v1/payment/link", { title: "Donation", amount_mode: "open", currency: "USD" }, merchant);
    const deps = makeTestDeps();
    const search = async (query: string, who = merchant) => (await listPaymentLinks(deps, who.merchantId, { limit: 20, query })).items.map((link) => link.id);
    expect(await search("pottery")).toEqual([course.link_id]);
    expect(await search("100%")).toEqual([course.link_id]);
    expect(await search("0% c")).toEqual([course.link_id]);
    expect(await search("10%0")).toEqual([]);
    expect(await search(donation.link_id.toUpperCase())).toEqual([donation.link_id]);
    expect(await search("o")).toEqual([donation.link_id, course.link_id]);
    expect(await search("pottery", await makeMerchant())).toEqual([]);
  });

  it("find payout links by part of the title, reference or e-mail", async () => {
    const merchant = await makeMerchant();
    await fundMerchant(merchant, "60.00");
    const reward = await created("/v1/payout/link", { amount: "5", currency: "USDT", network: "tron", title: "Referral reward", reference: "REF-2026-007", email: "Friend@Example.org" }, merchant);
    const bonus = await created("/v1/payout/link", { amount: "6", currency: "USDT", network: "tron", title: "Bonus" }, merchant);
    const deps = makeTestDeps();
    const search = async (query: string, who = merchant) => (await listPayoutLinks(deps, who.merchantId, { limit: 50, query })).map((link) => link.id);
    expect(await search("referral")).toEqual([reward.link_id]);
    expect(await search("ref-2026")).toEqual([reward.link_id]);
    expect(await search("friend@example")).toEqual([reward.link_id]);
    expect(await search(bonus.link_id)).toEqual([bonus.link_id]);
    expect(await search("")).toEqual([bonus.link_id, reward.link_id]);
    expect(await search("referral", await makeMerchant())).toEqual([]);
  });
});
