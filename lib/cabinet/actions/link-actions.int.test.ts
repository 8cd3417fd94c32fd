import { describe, expect, it } from "vitest";
import { findPayoutDetail } from "@/lib/services/payouts/find-payout-detail";
import { searchPayouts } from "@/lib/services/payouts/search-payouts";
import { summarizeWalletDeposits } from "@/lib/services/static-wallets/summarize-wallet-deposits";
import { act, actWithCode, addMember, auditOf, movingClock, newStore, refusal, success, TRON_ADDRESS } from "@/lib/testing/cabinet";
import { fundMerchant, makeBlockedWalletWithHeldDeposit } from "@/lib/testing/funding";
import { getTestDb } from "@/lib/testing/harness";

// Cabinet actions that move money or hand out addresses, run through the one runner as a page
// runs them: manual payouts and their approval by a second user with a fresh code, payment
// links, payout links (made with a fresh code) and static wallets (refunded with one) — with the
// API's codes, the role rules, and isolation between merchants.

const payoutStatus = async (uuid: string) => (await getTestDb().payout.findUniqueOrThrow({ where: { id: uuid } })).status;

describe("manual payouts in the cabinet", () => {
  it("waits for a second user: the creator cannot approve, the owner approves with a fresh code", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Money shop");
    await fundMerchant(store.api);
    const finance = await addMember(clock, store.merchantId, "finance");

    const created = success(await act(clock, finance, "payout.create", { amount: "10", currency: "usdt", network: "tron", address: TRON_ADDRESS }));
    expect(created).toMatchObject({ status: "check", internal_status: "pending", approval_required: true, source: "manual", amount: "10", currency: "USDT", network: "tron" });
    expect(created.order_id).toMatch(/^cabinet-/);

    // The queue lists it, with its creator named.
    const queue = await searchPayouts(clock.deps, store.merchantId, { isAwaitingApproval: true }, { limit: 20 });
    expect(queue.items.map((item) => [item.payout.uuid, item.createdBy])).toEqual([[created.uuid, { actor: `user:${finance.actor.userId}`, label: finance.actor.email }]]);

    // Its creator may not approve it, even with a good code.
    expect(refusal(await actWithCode(clock, finance, "payout.approve", { uuid: created.uuid }))).toBe("payout.approver_is_creator");
    // Approval is sensitive: no code, no approval.
    expect(refusal(await act(clock, store.owner, "payout.approve", { uuid: created.uuid }))).toBe("cabinet.code_required");
    expect(refusal(await act(clock, store.owner, "payout.approve", { uuid: created.uuid }, "000000"))).toBe("cabinet.bad_code");
    expect(await payoutStatus(created.uuid)).toBe("pending");

    const approved = success(await actWithCode(clock, store.owner, "payout.approve", { uuid: created.uuid }));
    expect(approved).toMatchObject({ uuid: created.uuid, status: "process", internal_status: "approved" });
    expect(refusal(await actWithCode(clock, store.owner, "payout.approve", { uuid: created.uuid }))).toBe("payout.not_pending");

    const detail = (await findPayoutDetail(clock.deps, store.merchantId, created.uuid))!;
    expect(detail.approvedBy).toEqual({ actor: `user:${store.owner.actor.userId}`, label: store.owner.actor.email });
    expect(detail.timeline.map((event) => event.kind)).toEqual(["created", "approved"]);
    expect(detail.timeline[0]).toMatchObject({ kind: "created", by: { label: finance.actor.email }, reserved: created.debit_amount });

    const audit = await auditOf(store.merchantId, { startsWith: "payout." });
    expect(audit.filter((event) => event.outcome === "success").map((event) => [event.action, event.userId])).toEqual([
      ["payout.created", finance.actor.userId],
      ["payout.approved", store.owner.actor.userId],
    ]);
  });

  it("rejects (with a code) and cancels pending payouts; the reserve comes back and the timeline says who", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Money shop");
    await fundMerchant(store.api);
    const finance = await addMember(clock, store.merchantId, "finance");
    const first = success(await act(clock, finance, "payout.create", { amount: "5", currency: "USDT", network: "tron", address: TRON_ADDRESS, order_id: "reject-me" }));
    const second = success(await act(clock, finance, "payout.create", { amount: "6", currency: "USDT", network: "tron", address: TRON_ADDRESS }));

    expect(refusal(await act(clock, store.owner, "payout.reject", { uuid: first.uuid }))).toBe("cabinet.code_required");
    expect(success(await actWithCode(clock, store.owner, "payout.reject", { uuid: first.uuid }))).toMatchObject({ status: "fail", internal_status: "failed" });
    // Cancelling is not sensitive; the creator may withdraw their own payout.
    expect(success(await act(clock, finance, "payout.cancel", { uuid: second.uuid }))).toMatchObject({ status: "cancel", internal_status: "cancelled" });
    expect(refusal(await act(clock, finance, "payout.cancel", { uuid: second.uuid }))).toBe("payout.not_pending");

    const rejected = (await findPayoutDetail(clock.deps, store.merchantId, first.uuid))!;
    expect(rejected.timeline.map((event) => event.kind)).toEqual(["created", "rejected", "released"]);
    expect(rejected.timeline[1]).toMatchObject({ by: { label: store.owner.actor.email } });
    expect(rejected.timeline[2]).toMatchObject({ outcome: "rejected" });
    const cancelled = (await findPayoutDetail(clock.deps, store.merchantId, second.uuid))!;
    expect(cancelled.timeline.map((event) => event.kind)).toEqual(["created", "cancelled", "released"]);
    expect(cancelled.timeline[2]).toMatchObject({ outcome: "cancelled" });

    const held = await getTestDb().ledgerAccount.findFirst({ where: { owner: store.merchantId, bucket: "payout_held" } });
    expect(held?.balance.toFixed()).toBe("0");
    expect(refusal(await act(clock, finance, "payout.create", { amount: "abc", currency: "USDT", network: "tron", address: TRON_ADDRESS }))).toBe("payout.bad_amount");
    expect(refusal(await act(clock, finance, "payout.create", { amount: "1000000", currency: "USDT", network: "tron", address: TRON_ADDRESS }))).toBe("payout.insufficient_funds");
  });

  it("refuses viewers, and another merchant's users find nothing and change nothing", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Money shop");
    await fundMerchant(store.api);
    const finance = await addMember(clock, store.merchantId, "finance");
    const viewer = await addMember(clock, store.merchantId, "viewer");
    const pending = success(await act(clock, finance, "payout.create", { amount: "4", currency: "USDT", network: "tron", address: TRON_ADDRESS }));

    expect(refusal(await act(clock, viewer, "payout.create", { amount: "4", currency: "USDT", network: "tron", address: TRON_ADDRESS }))).toBe("cabinet.forbidden");
    expect(refusal(await act(clock, viewer, "payout.approve", { uuid: pending.uuid }, "123456"))).toBe("cabinet.forbidden");
    expect(refusal(await act(clock, viewer, "payout.cancel", { uuid: pending.uuid }))).toBe("cabinet.forbidden");

    const other = await newStore(clock, "Money shop");
    expect(refusal(await actWithCode(clock, other.owner, "payout.approve", { uuid: pending.uuid }))).toBe("payout.not_found");
    expect(refusal(await actWithCode(clock, other.owner, "payout.reject", { uuid: pending.uuid }))).toBe("payout.not_found");
    expect(refusal(await act(clock, other.owner, "payout.cancel", { uuid: pending.uuid }))).toBe("payout.not_found");
    expect(await payoutStatus(pending.uuid)).toBe("pending");
    expect(await findPayoutDetail(clock.deps, other.merchantId, pending.uuid)).toBeNull();
    expect((await searchPayouts(clock.deps, other.merchantId, {}, { limit: 20 })).items).toEqual([]);
  });
});

describe("payment links in the cabinet", () => {
  it("creates a link with the API's rules and codes, and turns it off and on", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Money shop");
    const finance = await addMember(clock, store.merchantId, "finance");
    const link = success(
      await act(clock, finance, "payment_link.create", { title: "  Donation ", amount_mode: "range", currency: "usd", amount_min: "5", amount_max: "500.5", pinned_currency: "usdt", pinned_network: "tron" }),
    );
    expect(link).toMatchObject({ title: "Donation", amount_mode: "range", currency: "USD", amount_min: "5", amount_max: "500.5", pinned_currency: "USDT", pinned_network: "tron", is_active: true, is_expired: false });
    expect(link.url).toBe(`http://gateway.test/pay/link/${link.link_id}`);

    expect(refusal(await act(clock, finance, "payment_link.create", { title: " ", amount_mode: "fixed", currency: "USD", amount: "1" }))).toBe("paylink.bad_title");
    expect(refusal(await act(clock, finance, "payment_link.create", { title: "Tip", amount_mode: "fixed", currency: "USD" }))).toBe("paylink.amount_required");
    expect(refusal(await act(clock, finance, "payment_link.create", { title: "Tip", amount_mode: "open", currency: "XYZ" }))).toBe("paylink.unknown_currency");
    expect(refusal(await act(clock, finance, "payment_link.create", { title: "Tip", amount_mode: "fixed", currency: "USD", amount: "1", expires_at: "tomorrow" }))).toBe("paylink.bad_expiry");
    expect(refusal(await act(clock, finance, "payment_link.create", { title: 5, amount_mode: "fixed", currency: "USD", amount: "1" }))).toBe("paylink.bad_title");

    expect(success(await act(clock, finance, "payment_link.toggle", { link_id: link.link_id, is_active: false }))).toMatchObject({ is_active: false });
    expect(success(await act(clock, finance, "payment_link.toggle", { link_id: link.link_id }))).toMatchObject({ is_active: true });
    expect(refusal(await act(clock, finance, "payment_link.toggle", { link_id: "nope" }))).toBe("paylink.bad_id");

    const audit = await auditOf(store.merchantId, { startsWith: "payment_link." });
    expect(audit.map((event) => [event.outcome, event.detail])).toEqual([
      ["success", { link: link.link_id, change: "created" }],
      ["success", { link: link.link_id, change: "disabled" }],
      ["success", { link: link.link_id, change: "enabled" }],
    ]);
  });

  it("refuses viewers and other merchants, and says when links are turned off", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Money shop");
    const link = success(await act(clock, store.owner, "payment_link.create", { title: "Tee", amount_mode: "fixed", currency: "EUR", amount: "19.99" }));
    const viewer = await addMember(clock, store.merchantId, "viewer");
    expect(refusal(await act(clock, viewer, "payment_link.create", { title: "Tee", amount_mode: "fixed", currency: "EUR", amount: "1" }))).toBe("cabinet.forbidden");
    expect(refusal(await act(clock, viewer, "payment_link.toggle", { link_id: link.link_id }))).toBe("cabinet.forbidden");

    const other = await newStore(clock, "Money shop");
    expect(refusal(await act(clock, other.owner, "payment_link.toggle", { link_id: link.link_id, is_active: false }))).toBe("paylink.not_found");
    expect((await getTestDb().paymentLink.findUniqueOrThrow({ where: { id: link.link_id } })).isActive).toBe(true);

    const off = movingClock({ GATEWAY_PAYMENT_LINKS: "0" });
    expect(refusal(await act(off, store.owner, "payment_link.create", { title: "Tee", amount_mode: "fixed", currency: "EUR", amount: "1" }))).toBe("paylink.disabled");
  });
});

describe("payout links in the cabinet", () => {
  it("reserves the amount with a fresh code, shows the claim URL once with its QR code, and cancels", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Money shop");
    await fundMerchant(store.api);
    const finance = await addMember(clock, store.merchantId, "finance");
    const input = { currency: "USDT", network: "tron", amount: "7", title: "Bounty", reference: "bounty-7", expires_in_hours: 48 };
    // Whoever holds a link's URL can claim its money: no code, no link and no reserve.
    expect(refusal(await act(clock, finance, "payout_link.create", input))).toBe("cabinet.code_required");
    expect(await getTestDb().payoutLink.count({ where: { merchantId: store.merchantId } })).toBe(0);
    expect((await getTestDb().ledgerAccount.findFirst({ where: { owner: store.merchantId, bucket: "payout_held" } }))?.balance.toFixed() ?? "0").toBe("0");

    const link = success(await actWithCode(clock, finance, "payout_link.create", input));
    expect(link).toMatchObject({ status: "funded", amount: "7", currency: "USDT", network: "tron", title: "Bounty", reference: "bounty-7" });
    expect(link.claim_url).toBe(`http://gateway.test/pay/claim/${link.claim_token}`);
    expect(link.claim_qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(refusal(await actWithCode(clock, finance, "payout_link.create", { currency: "USDT", network: "tron", amount: "7", reference: "bounty-7" }))).toBe("payoutlink.duplicate_reference");
    expect(refusal(await actWithCode(clock, finance, "payout_link.create", { currency: "USDT", network: "tron", amount: "-1" }))).toBe("payoutlink.bad_amount");
    expect(refusal(await actWithCode(clock, finance, "payout_link.create", { currency: "USD", network: "tron", amount: "1" }))).toBe("payoutlink.unknown_currency");

    const cancelled = success(await act(clock, finance, "payout_link.cancel", { link_id: link.link_id }));
    expect(cancelled).toMatchObject({ link_id: link.link_id, status: "cancelled" });
    expect(cancelled.claim_url).toBeUndefined();
    expect(refusal(await act(clock, finance, "payout_link.cancel", { link_id: link.link_id }))).toBe("payoutlink.not_funded");

    // The audit names the link, never its token.
    const audit = await auditOf(store.merchantId, { startsWith: "payout_link." });
    expect(audit.map((event) => [event.action, event.outcome, event.detail])).toEqual([
      ["payout_link.changed", "refused", { reason: "cabinet.code_required" }],
      ["payout_link.changed", "success", { link: link.link_id, change: "created" }],
      ["payout_link.changed", "success", { link: link.link_id, change: "cancelled" }],
    ]);
    expect(JSON.stringify(audit)).not.toContain(link.claim_token);
  });

  it("refuses without funds, refuses viewers, and another merchant cannot cancel", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Money shop");
    expect(refusal(await actWithCode(clock, store.owner, "payout_link.create", { currency: "USDT", network: "tron", amount: "7" }))).toBe("payoutlink.insufficient_funds");
    await fundMerchant(store.api);
    const link = success(await actWithCode(clock, store.owner, "payout_link.create", { currency: "USDT", network: "tron", amount: "7" }));
    const viewer = await addMember(clock, store.merchantId, "viewer");
    expect(refusal(await act(clock, viewer, "payout_link.create", { currency: "USDT", network: "tron", amount: "7" }))).toBe("cabinet.forbidden");
    expect(refusal(await act(clock, viewer, "payout_link.cancel", { link_id: link.link_id }))).toBe("cabinet.forbidden");
    const other = await newStore(clock, "Money shop");
    expect(refusal(await act(clock, other.owner, "payout_link.cancel", { link_id: link.link_id }))).toBe("payoutlink.not_found");
    expect((await getTestDb().payoutLink.findUniqueOrThrow({ where: { id: link.link_id } })).status).toBe("funded");
  });
});

describe("static wallets in the cabinet", () => {
  it("creates a wallet (the same one for a repeat), blocks it, and refunds what it held after the block with a fresh code", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Money shop");
    const finance = await addMember(clock, store.merchantId, "finance");
    const wallet = success(await act(clock, finance, "static_wallet.create", { currency: "usdt", network: "tron", order_id: "customer-1" }));
    expect(wallet).toMatchObject({ order_id: "customer-1", currency: "USDT", network: "tron", status: "active", blocked_at: null });
    expect(wallet.address_qr_code).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(success(await act(clock, finance, "static_wallet.create", { currency: "USDT", network: "tron", order_id: "customer-1" }))).toMatchObject({ uuid: wallet.uuid, address: wallet.address });
    expect(refusal(await act(clock, finance, "static_wallet.create", { currency: "USDT", network: "tron", order_id: "" }))).toBe("wallet.bad_order_id");
    expect(refusal(await act(clock, finance, "static_wallet.create", { currency: "USDT", order_id: "customer-2" }))).toBe("wallet.no_network");
    expect(refusal(await actWithCode(clock, finance, "static_wallet.refund_blocked", { uuid: wallet.uuid, address: TRON_ADDRESS }))).toBe("wallet.not_blocked");

    expect(success(await act(clock, finance, "static_wallet.block", { uuid: wallet.uuid }))).toMatchObject({ uuid: wallet.uuid, status: "blocked" });

    const held = await makeBlockedWalletWithHeldDeposit(store.api, "12");
    const heldRow = await getTestDb().staticWallet.findUniqueOrThrow({ where: { id: held } });
    expect((await summarizeWalletDeposits(getTestDb(), store.merchantId, [heldRow])).get(held)).toEqual({ credited: "0", held: "12", refunded: "0", confirming: 0, count: 1 });
    expect(refusal(await actWithCode(clock, finance, "static_wallet.refund_blocked", { uuid: held }))).toBe("wallet.no_address");
    // It sends the held money to the address given: no code, nothing sent.
    expect(refusal(await act(clock, finance, "static_wallet.refund_blocked", { uuid: held, address: TRON_ADDRESS }))).toBe("cabinet.code_required");
    expect((await summarizeWalletDeposits(getTestDb(), store.merchantId, [heldRow])).get(held)).toMatchObject({ held: "12", refunded: "0" });
    expect(await getTestDb().payout.count({ where: { merchantId: store.merchantId, kind: "wallet_refund" } })).toBe(0);
    const refunded = success(await actWithCode(clock, finance, "static_wallet.refund_blocked", { uuid: held, address: TRON_ADDRESS }));
    expect(refunded).toMatchObject({ uuid: held, status: "blocked" });
    expect(refunded.refunds).toHaveLength(1);
    expect(refunded.refunds[0]).toMatchObject({ amount: "12", address: TRON_ADDRESS, status: "process" });
    expect((await summarizeWalletDeposits(getTestDb(), store.merchantId, [heldRow])).get(held)).toMatchObject({ held: "0", refunded: "12" });
    const refundPayout = await getTestDb().payout.findUniqueOrThrow({ where: { id: refunded.refunds[0].uuid } });
    expect(refundPayout).toMatchObject({ kind: "wallet_refund", createdBy: `user:${finance.actor.userId}` });

    const audit = await auditOf(store.merchantId, { startsWith: "static_wallet." });
    expect(audit.filter((event) => event.outcome === "success").map((event) => event.detail.change)).toEqual(["created", "created", "blocked", "refund_blocked"]);
    expect(audit.filter((event) => event.outcome === "refused").map((event) => [event.userId, event.detail.reason])).toEqual([[finance.actor.userId, "cabinet.code_required"]]);
  });

  it("refuses viewers, and another merchant finds none of the store's wallets", async () => {
    const clock = movingClock();
    const store = await newStore(clock, "Money shop");
    const wallet = success(await act(clock, store.owner, "static_wallet.create", { currency: "USDT", network: "tron", order_id: "customer-9" }));
    const viewer = await addMember(clock, store.merchantId, "viewer");
    expect(refusal(await act(clock, viewer, "static_wallet.create", { currency: "USDT", network: "tron", order_id: "x" }))).toBe("cabinet.forbidden");
    expect(refusal(await act(clock, viewer, "static_wallet.block", { uuid: wallet.uuid }))).toBe("cabinet.forbidden");
    expect(refusal(await act(clock, viewer, "static_wallet.refund_blocked", { uuid: wallet.uuid, address: TRON_ADDRESS }))).toBe("cabinet.forbidden");

    const other = await newStore(clock, "Money shop");
    expect(refusal(await act(clock, other.owner, "static_wallet.block", { uuid: wallet.uuid }))).toBe("wallet.static_not_found");
    expect(refusal(await actWithCode(clock, other.owner, "static_wallet.refund_blocked", { uuid: wallet.uuid, address: TRON_ADDRESS }))).toBe("wallet.static_not_found");
    expect((await getTestDb().staticWallet.findUniqueOrThrow({ where: { id: wallet.uuid } })).status).toBe("active");
    const walletRow = await getTestDb().staticWallet.findUniqueOrThrow({ where: { id: wallet.uuid } });
    expect((await summarizeWalletDeposits(getTestDb(), other.merchantId, [walletRow])).get(wallet.uuid)).toMatchObject({ count: 0 });

    const off = movingClock({ GATEWAY_STATIC_WALLETS: "0" });
    expect(refusal(await act(off, store.owner, "static_wallet.create", { currency: "USDT", network: "tron", order_id: "x" }))).toBe("wallet.disabled");
  });
});
