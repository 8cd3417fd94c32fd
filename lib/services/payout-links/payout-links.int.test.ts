import path from "node:path";
import { describe, expect, it } from "vitest";
import { getChainSender } from "@/lib/chains/registry";
import { parseAmount } from "@/lib/domain/money/amount";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { blockAddress, unblockAddress } from "@/lib/services/compliance/screening";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";
import { fundMerchant } from "@/lib/testing/funding";
import { callApi, callSigned, getTestDb, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { spawnTestWorker } from "@/lib/testing/spawn-worker";
import { cancelPayoutLink } from "@/lib/services/payout-links/cancel-payout-link";
import { expireAndReapPayoutLinks } from "@/lib/jobs/handlers/expire-payout-links";
import { runUnit } from "@/lib/deps/unit-of-work";

// Payout links (crypto checks) on the tron sandbox chain: the reserve at creation, the public
// claim card and claim by a one-time token, cancel, expiry and the claiming reaper, and claims
// racing cancels.

const RECIPIENT = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";
const OTHER = "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf";
const EVM_RECIPIENT = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";
const EVM_OTHER = "0x00000000000000000000000000000000DeaDBeef";

const claimCard = (token: string) => callApi(new Request(`http://gateway.test/v1/claim/${token}`));
const claim = (token: string, body: unknown) => callApi(new Request(`http://gateway.test/v1/claim/${token}`, { method: "POST", body: JSON.stringify(body) }));

async function balanceOf(merchant: TestMerchant, network = "tron") {
  const found = (await callSigned("/v1/balance", { currency: "USDT", network }, merchant)).body.result.balances[0];
  return { available: parseAmount(found?.available ?? "0", 6)!, held: parseAmount(found?.payout_held ?? "0", 6)! };
}

async function createLink(merchant: TestMerchant, body: Record<string, unknown> = {}) {
  const response = await callSigned("/v1/payout/link", { currency: "USDT", network: "tron", amount: "10", ...body }, merchant);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.result as { link_id: string; claim_token: string; claim_url: string; status: string; amount: string };
}

async function fundedMerchant(usd = "200.00"): Promise<TestMerchant> {
  const merchant = await makeMerchant();
  await fundMerchant(merchant, usd);
  return merchant;
}

describe("payout links", () => {
  it("reserves the amount, answers the token once, lists without it, and refuses a reference used before", async () => {
    const merchant = await fundedMerchant();
    const before = await balanceOf(merchant);
    const link = await createLink(merchant, { title: "Bounty", note: "Thanks!", reference: "bounty-1", email: "", expires_in_hours: 0 });
    expect(link).toMatchObject({ status: "funded", amount: "10", currency: "USDT", network: "tron", title: "Bounty", note: "Thanks!", reference: "bounty-1" });
    expect(link.claim_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.claim_url).toBe(`http://gateway.test/pay/claim/${link.claim_token}`);
    // 0 hours gives the lower bound: one hour.
    const expiresIn = new Date((link as unknown as { expires_at: string }).expires_at).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(3_500_000);
    expect(expiresIn).toBeLessThanOrEqual(3_600_000);
    expect(await balanceOf(merchant)).toEqual({ available: before.available - 10_000_000n, held: before.held + 10_000_000n });
    expect((await getTestDb().payoutLink.findUniqueOrThrow({ where: { id: link.link_id } })).tokenHash).not.toContain(link.claim_token);

    const listed = (await callSigned("/v1/payout/link/list", { limit: 500 }, merchant)).body.result.links;
    expect(listed).toHaveLength(1);
    // spec: an invalid limit gives 50, whatever its type; an offset past the end gives nothing.
    expect((await callSigned("/v1/payout/link/list", { limit: "10", offset: null }, merchant)).body.result.links).toHaveLength(1);
    expect((await callSigned("/v1/payout/link/list", { offset: 1e20 }, merchant)).body.result.links).toEqual([]);
    expect(listed[0]).not.toHaveProperty("claim_token");
    expect(listed[0]).not.toHaveProperty("claim_url");
    const long = await createLink(merchant, { expires_in_hours: 5000 });
    const longHours = (new Date((long as unknown as { expires_at: string }).expires_at).getTime() - Date.now()) / 3_600_000;
    expect(Math.round(longHours)).toBe(720);

    const repeat = await callSigned("/v1/payout/link", { currency: "USDT", network: "tron", amount: "10", reference: "bounty-1" }, merchant);
    expect([repeat.status, repeat.body.error.code]).toEqual([409, "payoutlink.duplicate_reference"]);
    expect(repeat.body.error.message).toContain(link.link_id);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("makes a batch element by element, results aligned by index, and e-mails the recipient the claim link", async () => {
    const merchant = await fundedMerchant();
    const batch = await callSigned(
      "/v1/payout/link/batch",
      {
        links: [
          { currency: "USDT", network: "tron", amount: "5", reference: "b-1", email: "winner@example.com", title: "Prize" },
          { currency: "EUR", network: "tron", amount: "5" },
          { currency: "USDT", network: "tron", amount: "5", reference: "b-1" },
          "not an object",
          { currency: "USDT", network: "tron", amount: "6" },
        ],
      },
      merchant,
    );
    expect(batch.status).toBe(200);
    const { created, total, results } = batch.body.result;
    expect([created, total]).toEqual([2, 5]);
    expect(results.map((result: { ok: boolean; error?: string }) => result.ok || result.error)).toEqual([
      true,
      "payoutlink.unknown_currency",
      "payoutlink.duplicate_reference",
      "payoutlink.bad_request",
      true,
    ]);
    const [first, , , , last] = results;
    expect(first.link.batch_id).toBe(last.link.batch_id);
    expect(first.link.claim_url).toContain(first.link.claim_token);
    const mail = await getTestDb().outboundEmail.findFirstOrThrow({ where: { merchantId: merchant.merchantId, recipient: "winner@example.com" } });
    expect(mail.subject).toContain("Prize");
    expect(mail.text).toContain(first.link.claim_url);
    for (const [links, code] of [[[], "payoutlink.empty_batch"], [Array.from({ length: 501 }, () => ({})), "payoutlink.batch_too_large"]] as const) {
      const response = await callSigned("/v1/payout/link/batch", { links }, merchant);
      expect([response.status, response.body.error.code]).toEqual([400, code]);
    }
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it.each<[string, Record<string, unknown>, number, string]>([
    ["a fiat currency", { currency: "EUR" }, 400, "payoutlink.unknown_currency"],
    ["a coin the network does not carry", { currency: "BTC" }, 400, "payoutlink.unknown_currency"],
    ["a zero amount", { amount: "0" }, 400, "payoutlink.bad_amount"],
    ["an amount the fee would swallow", { amount: "0.000001" }, 400, "payoutlink.bad_amount"],
    ["more than the balance", { amount: "100000" }, 409, "payoutlink.insufficient_funds"],
  ])("refuses %s", async (_name, body, status, code) => {
    const merchant = await fundedMerchant("50.00");
    const response = await callSigned("/v1/payout/link", { currency: "USDT", network: "tron", amount: "10", ...body }, merchant);
    expect([response.status, response.body.error.code]).toEqual([status, code]);
    expect(await getTestDb().payoutLink.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
  });

  it("is claimed once by its first address: the payout takes the reserve over and goes out", async () => {
    const deps = makeTestDeps();
    const merchant = await fundedMerchant();
    const link = await createLink(merchant, { title: "Refund of order 7" });
    const card = await claimCard(link.claim_token);
    expect(card.body.result).toEqual({
      status: "funded",
      amount: "10",
      currency: "USDT",
      network: "tron",
      title: "Refund of order 7",
      note: "",
      expires_at: expect.any(String),
      claimable: true,
      memo_supported: false,
    });
    // The claim's payout order id is the service's own: a merchant payout cannot take it first.
    const squatter = await callSigned("/v1/payout", { amount: "5", currency: "USDT", network: "tron", address: OTHER, order_id: `payoutlink:${link.link_id}` }, merchant);
    expect([squatter.status, squatter.body.error.code]).toEqual([400, "payout.reserved_order_id"]);
    for (const [body, status, code] of [
      [{ address: "T".repeat(300) }, 400, "payout.bad_address"],
      [{}, 400, "payoutlink.no_address"],
      [{ address: "nope" }, 400, "payout.bad_address"],
      [{ address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94" }, 400, "payout.address_network_mismatch"],
      [{ address: RECIPIENT, memo: "x" }, 400, "payout.memo_unsupported"],
    ] as const) {
      const response = await claim(link.claim_token, body);
      expect([response.status, response.body.error.code], JSON.stringify(body)).toEqual([status, code]);
    }
    const claimed = await claim(link.claim_token, { address: RECIPIENT });
    expect(claimed.status).toBe(200);
    expect(claimed.body.result).toMatchObject({ status: "claimed", amount: "10", currency: "USDT", network: "tron", address: RECIPIENT });
    const payoutId = claimed.body.result.payout_id;
    const again = await claim(link.claim_token, { address: RECIPIENT });
    expect(again.body.result.payout_id).toBe(payoutId);
    const other = await claim(link.claim_token, { address: OTHER });
    expect([other.status, other.body.error.code]).toEqual([409, "payoutlink.claim_in_progress"]);
    expect((await claimCard(link.claim_token)).body.result).toMatchObject({ status: "claimed", claimable: false, claim_address: RECIPIENT, payout_status: "process", payout_is_final: false, txid: "" });

    const payouts = await getTestDb().payout.findMany({ where: { merchantId: merchant.merchantId } });
    expect(payouts).toHaveLength(1);
    expect(payouts[0]).toMatchObject({ id: payoutId, orderId: `payoutlink:${link.link_id}`, address: RECIPIENT, status: "approved", isSubtract: false });
    expect(payouts[0].debitMinor.toFixed()).toBe("10000000");
    // The card tells the recipient what arrives: the check less the fee, as the payout has them.
    const { receive_amount, commission } = (await claimCard(link.claim_token)).body.result;
    expect([receive_amount, commission]).toEqual([(Number(payouts[0].amountMinor.toFixed()) / 1e6).toString(), (Number(payouts[0].feeMinor.toFixed()) / 1e6).toString()]);
    expect(Number(commission)).toBeGreaterThan(0);
    expect((await callSigned("/v1/payout/link/info", { link_id: link.link_id }, merchant)).body.result).toMatchObject({ status: "claimed", payout_id: payoutId, claim_address: RECIPIENT });
    // spec: only a funded link can be cancelled; nothing is released twice.
    const cancel = await callSigned("/v1/payout/link/cancel", { link_id: link.link_id }, merchant);
    expect([cancel.status, cancel.body.error?.code]).toEqual([409, "payoutlink.not_funded"]);

    const sender = getChainSender(deps.db, deps.config, "tron")!;
    await sendPayouts(deps, "tron", sender);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 10 }, merchant);
    await sendPayouts(deps, "tron", sender);
    const paid = (await callSigned("/v1/payout/info", { uuid: payoutId }, merchant)).body.result;
    expect(paid).toMatchObject({ status: "paid", order_id: `payoutlink:${link.link_id}` });
    // The recipient follows the payout on the card: delivered, with its transaction.
    expect((await claimCard(link.claim_token)).body.result).toMatchObject({ status: "claimed", payout_status: "paid", payout_is_final: true, txid: paid.txid });
    expect(paid.txid).not.toBe("");
    expect((await balanceOf(merchant)).held).toBe(0n);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("cancels a funded link once, its reserve back; a cancelled link cannot be claimed", async () => {
    const merchant = await fundedMerchant();
    const before = await balanceOf(merchant);
    const link = await createLink(merchant);
    const cancelled = await callSigned("/v1/payout/link/cancel", { link_id: link.link_id }, merchant);
    expect(cancelled.body.result).toMatchObject({ status: "cancelled" });
    expect(await balanceOf(merchant)).toEqual(before);
    const twice = await callSigned("/v1/payout/link/cancel", { link_id: link.link_id }, merchant);
    expect([twice.status, twice.body.error.code]).toEqual([409, "payoutlink.not_funded"]);
    const refused = await claim(link.claim_token, { address: RECIPIENT });
    expect([refused.status, refused.body.error.code]).toEqual([409, "payoutlink.cancelled"]);
    const stranger = await makeMerchant();
    for (const path of ["/v1/payout/link/info", "/v1/payout/link/cancel"]) {
      const response = await callSigned(path, { link_id: link.link_id }, stranger);
      expect([response.status, response.body.error.code]).toEqual([404, "payoutlink.not_found"]);
    }
    const bad = await callSigned("/v1/payout/link/info", { link_id: "x" }, merchant);
    expect([bad.status, bad.body.error.code]).toEqual([400, "payoutlink.bad_id"]);
    expect((await claimCard("not-a-token")).body.error.code).toBe("payoutlink.not_found");
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("expires at its term (the poller, or the sandbox's expire), its reserve back once", async () => {
    const merchant = await fundedMerchant();
    const before = await balanceOf(merchant);
    const polled = await createLink(merchant, { expires_in_hours: 1 });
    const later = new Date(Date.now() + 2 * 3_600_000);
    expect((await claimCard(polled.claim_token)).body.result.claimable).toBe(true);
    await expireAndReapPayoutLinks({ db: getTestDb(), now: () => later });
    expect((await getTestDb().payoutLink.findUniqueOrThrow({ where: { id: polled.link_id } })).status).toBe("expired");
    const refused = await claim(polled.claim_token, { address: RECIPIENT });
    expect([refused.status, refused.body.error.code]).toEqual([409, "payoutlink.expired"]);
    expect((await claimCard(polled.claim_token)).body.result).toMatchObject({ status: "expired", claimable: false });
    // Past its term, before the poller: the merchant sees it expired too.
    const unpolled = await createLink(merchant, { expires_in_hours: 1 });
    await getTestDb().payoutLink.update({ where: { id: unpolled.link_id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const info = await callSigned("/v1/payout/link/info", { link_id: unpolled.link_id }, merchant);
    expect(info.body.result.status).toBe("expired");
    await callSigned("/v1/payout/link/cancel", { link_id: unpolled.link_id }, merchant);

    const sandboxed = await createLink(merchant, { expires_in_hours: 24 });
    const expired = await callSigned("/v1/sandbox/expire", { link_id: sandboxed.link_id }, merchant);
    expect(expired.body.result).toMatchObject({ link_id: sandboxed.link_id, status: "expired" });
    expect(await balanceOf(merchant)).toEqual(before);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("puts a claim screening refuses back to funded, and the reaper resolves a claim a crash left in claiming", async () => {
    const merchant = await fundedMerchant();
    const link = await createLink(merchant);
    await blockAddress(getTestDb(), { address: OTHER, network: "tron", reason: "test" });
    try {
      const blocked = await claim(link.claim_token, { address: OTHER });
      expect([blocked.status, blocked.body.error.code]).toEqual([403, "compliance.blocked"]);
    } finally {
      await unblockAddress(getTestDb(), { address: OTHER, network: "tron" });
    }
    expect((await claimCard(link.claim_token)).body.result).toMatchObject({ status: "funded", claimable: true });

    // A crash between binding the address and making the payout leaves the link in claiming.
    const stuckAt = new Date(Date.now() - 16 * 60_000);
    await getTestDb().payoutLink.update({ where: { id: link.link_id }, data: { status: "claiming", claimAddress: RECIPIENT, claimingAt: stuckAt } });
    expect((await claim(link.claim_token, { address: OTHER })).body.error.code).toBe("payoutlink.claim_in_progress");
    await expireAndReapPayoutLinks({ db: getTestDb(), now: () => new Date() });
    expect(await getTestDb().payoutLink.findUniqueOrThrow({ where: { id: link.link_id } })).toMatchObject({ status: "funded", claimAddress: null });
    expect((await claim(link.claim_token, { address: OTHER })).body.result).toMatchObject({ status: "claimed", address: OTHER });
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("a claim whose process dies between binding the address and making the payout: the reaper puts the link back, a new claim pays once", { timeout: 60_000 }, async () => {
    const merchant = await fundedMerchant();
    const link = await createLink(merchant);
    const before = await balanceOf(merchant);
    const db = getTestDb();

    // A claim in a process of its own binds the address (its first transaction), then dies asking for the fee's rate.
    const worker = spawnTestWorker(path.join(import.meta.dirname, "testing/claim-worker.ts"), { CLAIM_TOKEN: link.claim_token, CLAIM_ADDRESS: RECIPIENT });
    await worker.printed("quoting");
    worker.child.kill("SIGKILL");
    const exit = await worker.exited;
    expect(exit.signal, exit.stderr).toBe("SIGKILL");

    // Left in claiming, bound to the dead claim's address: no payout, the reserve untouched.
    expect(await db.payoutLink.findUniqueOrThrow({ where: { id: link.link_id } })).toMatchObject({ status: "claiming", claimAddress: RECIPIENT, payoutId: null });
    expect(await db.payout.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
    expect(await balanceOf(merchant)).toEqual(before);
    expect((await claimCard(link.claim_token)).body.result).toMatchObject({ status: "claiming", claimable: false });
    expect((await claim(link.claim_token, { address: OTHER })).body.error.code).toBe("payoutlink.claim_in_progress");

    // Before 15 minutes the reaper leaves it; after, it puts the link back to funded.
    await expireAndReapPayoutLinks({ db, now: () => new Date(Date.now() + 14 * 60_000) });
    expect((await db.payoutLink.findUniqueOrThrow({ where: { id: link.link_id } })).status).toBe("claiming");
    await expireAndReapPayoutLinks({ db, now: () => new Date(Date.now() + 16 * 60_000) });
    expect(await db.payoutLink.findUniqueOrThrow({ where: { id: link.link_id } })).toMatchObject({ status: "funded", claimAddress: null });

    const claimed = await claim(link.claim_token, { address: OTHER });
    expect(claimed.body.result).toMatchObject({ status: "claimed", address: OTHER });
    const payouts = await db.payout.findMany({ where: { merchantId: merchant.merchantId } });
    expect(payouts.map((payout) => [payout.orderId, payout.address])).toEqual([[`payoutlink:${link.link_id}`, OTHER]]);
    expect((await balanceOf(merchant)).available).toBe(before.available);
    expect(await auditLedger(db)).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("ends each of 100 links claimed or cancelled under 200 racing claims and cancels, one payout per claimed link", async () => {
    const deps = makeTestDeps();
    // On polygon: the claimed payouts stay unsent, and no other test's tron sender pass has to send them.
    const merchant = await makeMerchant();
    const invoice = (await callSigned("/v1/payment", { amount: "900.00", currency: "USD", to_currency: "USDT", network: "polygon" }, merchant)).body.result;
    await callSigned("/v1/sandbox/deposit", { network: "polygon", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant);
    await callSigned("/v1/sandbox/mine", { network: "polygon", blocks: invoice.required_confirmations + 1 }, merchant);
    const before = await balanceOf(merchant, "polygon");
    expect(before.available).toBeGreaterThan(300_000_000n);
    const links = [];
    for (let index = 0; index < 100; index++) links.push(await createLink(merchant, { amount: "3", network: "polygon", reference: `race-${index}` }));
    const calls = links.flatMap((link, index) => {
      // The stagger is the race under test: the second call lands 0 to 50 ms after the first, at different stages of it.
      const later = <T>(call: () => Promise<T>) => () => new Promise<T>((resolve, reject) => setTimeout(() => call().then(resolve, reject), 5 * (index % 11)));
      const claimIt = () => claim(link.claim_token, { address: index % 2 === 0 ? EVM_RECIPIENT : EVM_OTHER });
      // The service call itself: through HTTP, the signature check alone makes every cancel late.
      const cancelIt = () => runUnit(deps, cancelPayoutLink, { merchantId: merchant.merchantId, linkId: link.link_id }).then(
        (cancelled) => ({ status: 200, body: { result: cancelled } }),
        (error) => ({ status: 409, body: { error: { code: (error as { code?: string }).code ?? String(error) } } }),
      );
      // Every link gets both, a few milliseconds apart, the one or the other first.
      return index % 2 === 0 ? [claimIt, later(cancelIt)] : [cancelIt, later(claimIt)];
    });
    const responses = await Promise.all(calls.map((call) => call()));
    // Each call either won or was told why not: a cancel of a link being claimed, a claim of a cancelled one.
    const refusals = responses.filter((response) => response.status !== 200).map((response) => response.body.error.code);
    for (const code of refusals) expect(["payoutlink.not_funded", "payoutlink.cancelled", "payoutlink.claim_in_progress"]).toContain(code);
    const rows = await getTestDb().payoutLink.findMany({ where: { merchantId: merchant.merchantId } });
    for (const row of rows) expect(["claimed", "cancelled"]).toContain(row.status);
    const claimed = rows.filter((row) => row.status === "claimed");
    const payouts = await getTestDb().payout.findMany({ where: { merchantId: merchant.merchantId } });
    expect(payouts.map((payout) => payout.orderId).sort()).toEqual(claimed.map((row) => `payoutlink:${row.id}`).sort());
    const cancelled = rows.length - claimed.length;
    const after = await balanceOf(merchant, "polygon");
    expect(after.available).toBe(before.available - BigInt(claimed.length) * 3_000_000n);
    expect(after.held).toBe(before.held + BigInt(claimed.length) * 3_000_000n);
    expect(claimed.length + cancelled).toBe(100);
    // Both outcomes happened: the race was real on both sides.
    expect(claimed.length).toBeGreaterThan(0);
    expect(cancelled).toBeGreaterThan(0);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });
});
