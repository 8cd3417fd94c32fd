import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getChainSender } from "@/lib/chains/registry";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { hotWalletAddress } from "@/lib/chains/hot-wallet";
import { formatRawTonAddress, formatTonAddress, parseTonAddress } from "@/lib/chains/addresses";
import { withTransaction } from "@/lib/db/transaction";
import { runUnit } from "@/lib/deps/unit-of-work";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { postJournal } from "@/lib/ledger/post";
import { PLATFORM } from "@/lib/ledger/postings";
import { addApiKey, callSigned, getTestDb, getTestSecretBox, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { makeFundedMerchant, payInvoice } from "@/lib/testing/funding";
import { createPayout } from "./create-payout";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";

// Payouts on sandbox chains (tron for USDT, ton for memos): every rule and error of POST
// /v1/payout and the designed operations around it, then the way out on chain.

const TRON_ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";
const EVM_ADDRESS = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";
const BTC_ADDRESS = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

async function availableOf(merchant: TestMerchant, currency = "USDT", network = "tron"): Promise<string> {
  const balances = (await callSigned("/v1/balance", { currency, network }, merchant)).body.result.balances;
  return balances[0]?.available ?? "0";
}

async function balanceOf(merchant: TestMerchant) {
  return (await callSigned("/v1/balance", { currency: "USDT", network: "tron" }, merchant)).body.result.balances[0];
}

function payout(overrides: Record<string, unknown> = {}) {
  return { amount: "10", currency: "USDT", network: "tron", address: TRON_ADDRESS, order_id: `po-${Math.random().toString(36).slice(2)}`, ...overrides };
}

async function serviceFee(currency: string, network: string): Promise<string> {
  const merchant = await makeMerchant();
  const services = (await callSigned("/v1/payout/services", {}, merchant)).body.result as { currency: string; network: string; commission: { fee_amount: string } }[];
  return services.find((entry) => entry.currency === currency && entry.network === network)!.commission.fee_amount;
}

describe("balances", () => {
  it("shows a paid invoice's net amount as available, and nothing for an asset never held", async () => {
    const { merchant, available } = await makeFundedMerchant("100.00");
    expect(Number(available)).toBeGreaterThan(90);
    const all = (await callSigned("/v1/balance", {}, merchant)).body.result.balances;
    expect(all).toEqual([{ currency: "USDT", network: "tron", incoming: "0", maturing: "0", available, payout_held: "0", split_held: "0", debt: "0" }]);
    expect((await callSigned("/v1/balance", { currency: "BTC" }, merchant)).body.result.balances).toEqual([]);
    expect((await callSigned("/v1/balance", { currency: "XYZ" }, merchant)).body.error.code).toBe("balance.unknown_currency");
    expect((await callSigned("/v1/balance", { currency: "BTC", network: "tron" }, merchant)).body.error.code).toBe("balance.unknown_network");
  });

  it("answers only payout-capable keys", async () => {
    const merchant = await makeMerchant();
    const paymentKey = await addApiKey(merchant.merchantId, "payment");
    const payoutKey = await addApiKey(merchant.merchantId, "payout");
    expect((await callSigned("/v1/balance", {}, paymentKey)).body.error.code).toBe("merchant.wrong_key_kind");
    expect((await callSigned("/v1/balance", {}, payoutKey)).status).toBe(200);
  });
});

describe("creating a payout", () => {
  it("reserves the debit, answers the payout object, and returns the same payout for a repeat", async () => {
    const { merchant, available } = await makeFundedMerchant();
    const fee = await serviceFee("USDT", "tron");
    const body = payout({ amount: "25.5", order_id: "first-payout" });
    const created = await callSigned("/v1/payout", body, merchant);
    expect(created.status).toBe(200);
    const result = created.body.result;
    expect(result).toMatchObject({
      order_id: "first-payout",
      amount: "25.5",
      currency: "USDT",
      network: "tron",
      address: TRON_ADDRESS,
      txid: "",
      status: "process",
      is_final: false,
      approval_required: false,
      source: "api",
      internal_status: "approved",
      is_subtract: false,
      commission: fee,
      debit_amount: "25.5",
    });
    // The recipient bears the fee by default: it gets the amount less the fee.
    expect(Number(result.receive_amount)).toBeCloseTo(25.5 - Number(fee), 6);
    const after = await balanceOf(merchant);
    expect(after.payout_held).toBe("25.5");
    expect(Number(after.available)).toBeCloseTo(Number(available) - 25.5, 6);

    const repeat = await callSigned("/v1/payout", body, merchant);
    expect(repeat.body.result.uuid).toBe(result.uuid);
    expect((await balanceOf(merchant)).payout_held).toBe("25.5");
    const other = await callSigned("/v1/payout", { ...body, amount: "26" }, merchant);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe("payout.duplicate_reference");

    const events = await getTestDb().webhookDelivery.findMany({ where: { objectId: result.uuid } });
    expect(events.map((event) => event.eventType)).toEqual([]); // no endpoint registered: nothing to deliver
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("puts the fee on top with is_subtract, or by the fee-config default, as /v1/payout/calculate says", async () => {
    const { merchant } = await makeFundedMerchant();
    const calculated = (await callSigned("/v1/payout/calculate", { amount: "10", currency: "USDT", network: "tron", is_subtract: true }, merchant)).body.result;
    expect(calculated).toMatchObject({ amount: "10", receive_amount: "10", is_subtract: true });
    const onTop = (await callSigned("/v1/payout", payout({ amount: "10", is_subtract: true }), merchant)).body.result;
    expect(onTop).toMatchObject({ receive_amount: "10", debit_amount: calculated.debit_amount, commission: calculated.commission });

    expect((await callSigned("/v1/payout/fee-config/get", {}, merchant)).body.result).toEqual({ is_subtract: false });
    expect((await callSigned("/v1/payout/fee-config/set", { is_subtract: true }, merchant)).body.result).toEqual({ is_subtract: true });
    const byDefault = (await callSigned("/v1/payout", payout({ amount: "10" }), merchant)).body.result;
    expect(byDefault).toMatchObject({ is_subtract: true, receive_amount: "10", debit_amount: calculated.debit_amount });
    const calculatedByDefault = (await callSigned("/v1/payout/calculate", { amount: "10", currency: "USDT", address: TRON_ADDRESS }, merchant)).body.result;
    expect(calculatedByDefault).toEqual(calculated);
  });

  it.each<[string, Record<string, unknown>, number, string]>([
    ["an unknown currency", { currency: "XYZ" }, 400, "payout.unknown_currency"],
    ["a malformed amount", { amount: "1e3" }, 400, "payout.bad_amount"],
    ["a zero amount", { amount: "0" }, 400, "payout.bad_amount"],
    ["more decimals than the asset has", { amount: "1.0000001" }, 400, "payout.bad_amount"],
    ["no order_id", { order_id: undefined }, 400, "payout.order_id_required"],
    ["an empty order_id", { order_id: "" }, 400, "payout.order_id_required"],
    ["no address", { address: undefined }, 400, "payout.no_destination"],
    ["a malformed address", { address: "T-not-an-address" }, 400, "payout.bad_address"],
    ["an address of another network", { address: BTC_ADDRESS }, 400, "payout.address_network_mismatch"],
    ["a network that does not carry the coin", { currency: "BTC" }, 400, "payout.asset_mismatch"],
    ["no network where the address fits several", { network: undefined, address: EVM_ADDRESS }, 400, "payout.no_destination"],
    ["a memo over 120 characters", { memo: "m".repeat(121) }, 400, "payout.memo_too_long"],
    ["a memo where the network has none", { memo: "invoice 42" }, 400, "payout.memo_unsupported"],
    ["a callback to a private address", { url_callback: "http://10.0.0.1/hook" }, 400, "payout.bad_url_callback"],
    ["a conversion from a coin other than USDT", { from_currency: "BTC" }, 400, "payout.from_currency_unsupported"],
    ["a conversion from USDT into USDT", { from_currency: "USDT" }, 400, "payout.convert_same_asset"],
    ["an amount the fee swallows", { amount: "0.000001" }, 400, "payout.amount_below_fee"],
    ["more than the balance", { amount: "100000" }, 409, "payout.insufficient_funds"],
    ["an unknown source", { source: "cabinet" }, 400, "payout.bad_request"],
  ])("refuses %s", async (_name, overrides, status, code) => {
    const { merchant } = await makeFundedMerchant("50.00");
    const response = await callSigned("/v1/payout", payout(overrides), merchant);
    expect(response.status).toBe(status);
    expect(response.body.error.code).toBe(code);
    expect((await balanceOf(merchant)).payout_held).toBe("0");
    expect(await getTestDb().payout.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
  });

  it("answers 503 network_unavailable while a configured node is not ready, and unknown_currency where no chain serves the network", async () => {
    const { merchant } = await makeFundedMerchant();
    const notReady = makeTestDeps({}, { RPC_POLYGON: "http://127.0.0.1:9" });
    const waiting = await callSigned("/v1/payout", payout({ network: "polygon", address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94" }), merchant, { deps: notReady });
    expect([waiting.status, waiting.body.error.code]).toEqual([503, "payout.network_unavailable"]);
    const noSandbox = makeTestDeps({}, { GATEWAY_SANDBOX: "0", GATEWAY_PAYOUT_FREEZE_SECONDS: "0" });
    const unserved = await callSigned("/v1/payout", payout(), merchant, { deps: noSandbox });
    expect([unserved.status, unserved.body.error.code]).toEqual([400, "payout.unknown_currency"]);
  });

  it("finds the network from the address when the coin is on several", async () => {
    const { merchant } = await makeFundedMerchant();
    const created = await callSigned("/v1/payout", payout({ network: undefined }), merchant);
    expect(created.body.result.network).toBe("tron");
  });

  it("refuses a gateway-owned address: a deposit address, and the hot wallet", async () => {
    const { merchant } = await makeFundedMerchant();
    const other = await makeMerchant();
    const invoice = (await callSigned("/v1/payment", { amount: "5.00", currency: "USD", to_currency: "USDT", network: "tron" }, other)).body.result;
    const toDeposit = await callSigned("/v1/payout", payout({ address: invoice.address }), merchant);
    expect(toDeposit.body.error.code).toBe("payout.destination_internal");
    const deps = makeTestDeps();
    const hot = hotWalletAddress(await loadKeyMaterial(deps.db, getTestSecretBox()), "tron", "main");
    expect((await callSigned("/v1/payout", payout({ address: hot }), merchant)).body.error.code).toBe("payout.destination_internal");
    // A TON account in any of its written forms (bounceable or not, raw) is the same account.
    const ton = (await callSigned("/v1/payment", { amount: "5.00", currency: "USD", to_currency: "TON" }, other)).body.result;
    const parsed = parseTonAddress(ton.address)!;
    for (const form of [formatTonAddress({ ...parsed, isBounceable: !parsed.isBounceable }), formatRawTonAddress(parsed)]) {
      expect((await callSigned("/v1/payout", payout({ currency: "TON", network: "ton", address: form }), merchant)).body.error.code).toBe("payout.destination_internal");
    }
  });

  it("answers a repeat with its payout even once a freeze, a block or another rate would refuse it anew", async () => {
    const { merchant } = await makeFundedMerchant();
    const body = payout({ order_id: "repeat-later" });
    const first = (await callSigned("/v1/payout", body, merchant)).body.result;
    await addApiKey(merchant.merchantId, "payout");
    const frozen = makeTestDeps({}, { GATEWAY_PAYOUT_FREEZE_SECONDS: "86400" });
    const repeat = await callSigned("/v1/payout", body, merchant, { deps: frozen });
    expect([repeat.status, repeat.body.result?.uuid]).toEqual([200, first.uuid]);
    expect((await callSigned("/v1/payout", { ...body, order_id: "new-one" }, merchant, { deps: frozen })).body.error.code).toBe("payout.frozen");
  });

  it("tells maturing funds from missing ones, and refuses a merchant in debt", async () => {
    const deps = makeTestDeps({}, { GATEWAY_MATURITY_HOLD_SECONDS: "3600" });
    const merchant = await makeMerchant();
    const invoice = (await callSigned("/v1/payment", { amount: "50.00", currency: "USD", to_currency: "USDT", network: "tron" }, merchant, { deps })).body.result;
    await callSigned("/v1/sandbox/deposit", { network: "tron", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant, { deps });
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 25 }, merchant, { deps });
    const balance = (await callSigned("/v1/balance", { currency: "USDT", network: "tron" }, merchant, { deps })).body.result.balances[0];
    expect(balance.available).toBe("0");
    expect(Number(balance.maturing)).toBeGreaterThan(40);
    const maturing = await callSigned("/v1/payout", payout({ amount: "10" }), merchant, { deps });
    expect([maturing.status, maturing.body.error.code]).toEqual([409, "payout.funds_maturing"]);
    const missing = await callSigned("/v1/payout", payout({ amount: "1000" }), merchant, { deps });
    expect([missing.status, missing.body.error.code]).toEqual([409, "payout.insufficient_funds"]);

    // A debt left by a reversal blocks payouts even with funds available.
    const { merchant: indebted } = await makeFundedMerchant();
    const debt = (sign: bigint) => ({
      reference: `test:debt:${indebted.merchantId}:${sign}`,
      kind: "test",
      postings: [
        { account: { owner: indebted.merchantId, asset: "USDT:tron", bucket: "debt" as const }, amount: -5n * sign },
        { account: { owner: PLATFORM, asset: "USDT:tron", bucket: "chain" as const }, amount: 5n * sign },
      ],
    });
    await withTransaction(getTestDb(), (tx) => postJournal(tx, debt(1n), new Date()));
    const refused = await callSigned("/v1/payout", payout({ amount: "5" }), indebted);
    expect([refused.status, refused.body.error.code]).toEqual([409, "payout.insufficient_funds"]);
    expect(refused.body.error.message).toMatch(/debt/);
    await withTransaction(getTestDb(), (tx) => postJournal(tx, debt(-1n), new Date()));
    expect((await callSigned("/v1/payout", payout({ amount: "5" }), indebted)).status).toBe(200);
  });

  it("freezes money out after a new key that can move money (a payment key refunds to any address), for the configured period", async () => {
    const deps = makeTestDeps({}, { GATEWAY_PAYOUT_FREEZE_SECONDS: "86400" });
    for (const kind of ["payment", "payout", "unified"] as const) {
      const { merchant } = await makeFundedMerchant();
      await getTestDb().apiKey.updateMany({ where: { merchantId: merchant.merchantId }, data: { createdAt: new Date(Date.now() - 2 * 86_400_000) } });
      expect((await callSigned("/v1/payout", payout({ order_id: `before-${kind}` }), merchant, { deps })).status).toBe(200);
      await addApiKey(merchant.merchantId, kind);
      const frozen = await callSigned("/v1/payout", payout({ order_id: `after-${kind}` }), merchant, { deps });
      expect([kind, frozen.status, frozen.body.error.code]).toEqual([kind, 409, "payout.frozen"]);
    }
  });

  it("freezes refunds to any other address after a fresh key, never a refund to the address that paid", async () => {
    const deps = makeTestDeps({}, { GATEWAY_PAYOUT_FREEZE_SECONDS: "86400" });
    const merchant = await makeMerchant();
    const paid = await payInvoice(merchant, "60.00");
    expect(paid.payer_address).not.toBe("");
    // A stolen session mints a unified key, then refunds the payment to its own address: frozen.
    const thief = await addApiKey(merchant.merchantId, "unified");
    const foreign = await callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: "10", address: "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC" }, thief, { deps });
    expect([foreign.status, foreign.body.error?.code]).toEqual([409, "payout.frozen"]);
    // Back to the payer goes through, with the new key or without naming the address.
    const toPayer = await callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: "10", address: paid.payer_address }, thief, { deps });
    expect(toPayer.status, JSON.stringify(toPayer.body)).toBe(200);
    const byDefault = await callSigned("/v1/payment/refund", { uuid: paid.uuid, amount: "5" }, thief, { deps });
    expect(byDefault.status, JSON.stringify(byDefault.body)).toBe(200);
  });
});

describe("manual payouts", () => {
  it("wait for approval by another key; the creator cannot approve; a decided payout is not decided again", async () => {
    const { merchant } = await makeFundedMerchant();
    const approver = await addApiKey(merchant.merchantId, "payout");
    const created = (await callSigned("/v1/payout", payout({ source: "manual", order_id: "manual-1" }), merchant)).body.result;
    expect(created).toMatchObject({ status: "check", internal_status: "pending", approval_required: true, source: "manual" });
    const byCreator = await callSigned("/v1/payout/approve", { uuid: created.uuid }, merchant);
    expect([byCreator.status, byCreator.body.error.code]).toEqual([403, "payout.approver_is_creator"]);
    const approved = await callSigned("/v1/payout/approve", { order_id: "manual-1" }, approver);
    expect(approved.body.result).toMatchObject({ uuid: created.uuid, status: "process", internal_status: "approved" });
    const again = await callSigned("/v1/payout/approve", { uuid: created.uuid }, approver);
    expect([again.status, again.body.error.code]).toEqual([409, "payout.not_pending"]);
    expect((await callSigned("/v1/payout/cancel", { uuid: created.uuid }, merchant)).body.error.code).toBe("payout.not_pending");
  });

  it("are approved by another person, not another key of the same one: a key answers to who made it", async () => {
    const { merchant } = await makeFundedMerchant();
    const alice = `user:${randomUUID()}`;
    const [aliceCreates, aliceApproves, bobApproves] = [
      await addApiKey(merchant.merchantId, "payout", alice),
      await addApiKey(merchant.merchantId, "payout", alice),
      await addApiKey(merchant.merchantId, "payout"),
    ];
    const created = (await callSigned("/v1/payout", payout({ source: "manual", order_id: "four-eyes" }), aliceCreates)).body.result;
    const sameperson = await callSigned("/v1/payout/approve", { uuid: created.uuid }, aliceApproves);
    expect([sameperson.status, sameperson.body.error.code]).toEqual([403, "payout.approver_is_creator"]);
    expect((await callSigned("/v1/payout/approve", { uuid: created.uuid }, bobApproves)).body.result).toMatchObject({ internal_status: "approved" });

    // A cabinet user's manual payout is not approved with that user's own key either.
    const userPayout = await runUnit(makeTestDeps(), createPayout, { merchantId: merchant.merchantId, input: { ...payout({ order_id: "cabinet-made" }), source: "manual" } as never, actor: alice });
    const withOwnKey = await callSigned("/v1/payout/approve", { uuid: userPayout.id }, aliceApproves);
    expect([withOwnKey.status, withOwnKey.body.error.code]).toEqual([403, "payout.approver_is_creator"]);
    // The operator's keys (made with the CLI) are one person: the operator.
    const [operatorCreates, operatorApproves] = [await addApiKey(merchant.merchantId, "payout", "operator"), await addApiKey(merchant.merchantId, "payout", "operator")];
    const byOperator = (await callSigned("/v1/payout", payout({ source: "manual", order_id: "operator-made" }), operatorCreates)).body.result;
    expect((await callSigned("/v1/payout/approve", { uuid: byOperator.uuid }, operatorApproves)).body.error.code).toBe("payout.approver_is_creator");

    // A key outlives its maker's right to move money: a member made viewer, or removed, decides nothing.
    const carolKey = await addApiKey(merchant.merchantId, "payout");
    const carol = (await getTestDb().apiKey.findFirstOrThrow({ where: { publicId: carolKey.publicId } })).owner.slice("user:".length);
    const waiting = (await callSigned("/v1/payout", payout({ source: "manual", order_id: "for-carol" }), aliceCreates)).body.result;
    for (const change of [{ role: "viewer" }, { role: "finance", disabledAt: new Date() }]) {
      await getTestDb().cabinetUser.update({ where: { id: carol }, data: change });
      const refused = await callSigned("/v1/payout/approve", { uuid: waiting.uuid }, carolKey);
      expect([change, refused.status, refused.body.error.code]).toEqual([change, 403, "payout.approver_not_allowed"]);
    }
    await getTestDb().cabinetUser.update({ where: { id: carol }, data: { role: "finance", disabledAt: null } });
    expect((await callSigned("/v1/payout/approve", { uuid: waiting.uuid }, carolKey)).body.result).toMatchObject({ internal_status: "approved" });
  });

  it("return their reserve once when cancelled or rejected", async () => {
    const { merchant, available } = await makeFundedMerchant();
    const approver = await addApiKey(merchant.merchantId, "payout");
    const first = (await callSigned("/v1/payout", payout({ source: "manual", amount: "7" }), merchant)).body.result;
    const second = (await callSigned("/v1/payout", payout({ source: "manual", amount: "8" }), merchant)).body.result;
    expect((await balanceOf(merchant)).payout_held).toBe("15");
    const cancels = await Promise.all([1, 2, 3].map(() => callSigned("/v1/payout/cancel", { uuid: first.uuid }, merchant)));
    expect(cancels.filter((response) => response.status === 200)).toHaveLength(1);
    expect(cancels.find((response) => response.status === 200)!.body.result).toMatchObject({ status: "cancel", is_final: true });
    const rejected = await callSigned("/v1/payout/approve", { uuid: second.uuid, approve: false }, approver);
    expect(rejected.body.result).toMatchObject({ status: "fail", internal_status: "failed", is_final: true });
    expect(await balanceOf(merchant)).toMatchObject({ payout_held: "0", available });
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("answers not_found for another merchant's payout and bad_uuid / no_lookup for bad lookups", async () => {
    const { merchant } = await makeFundedMerchant();
    const stranger = await makeMerchant();
    const created = (await callSigned("/v1/payout", payout(), merchant)).body.result;
    expect((await callSigned("/v1/payout/info", { uuid: created.uuid }, stranger)).body.error.code).toBe("payout.not_found");
    expect((await callSigned("/v1/payout/approve", { uuid: created.uuid }, stranger)).body.error.code).toBe("payout.not_found");
    expect((await callSigned("/v1/payout/info", { uuid: "nope" }, merchant)).body.error.code).toBe("payout.bad_uuid");
    expect((await callSigned("/v1/payout/info", {}, merchant)).body.error.code).toBe("payout.no_lookup");
    expect((await callSigned("/v1/payout/info", { order_id: created.order_id }, merchant)).body.result.uuid).toBe(created.uuid);
  });
});

describe("listing payouts", () => {
  it("pages newest first and filters by coarse status", async () => {
    const { merchant } = await makeFundedMerchant();
    const approver = await addApiKey(merchant.merchantId, "payout");
    const made = [];
    for (let index = 0; index < 5; index++) made.push((await callSigned("/v1/payout", payout({ amount: "3", source: index < 2 ? "manual" : "api" }), merchant)).body.result);
    await callSigned("/v1/payout/approve", { uuid: made[0].uuid, approve: false }, approver);
    const first = (await callSigned("/v1/payout/list", { limit: 3 }, merchant)).body.result;
    expect(first.items.map((item: { uuid: string }) => item.uuid)).toEqual([made[4].uuid, made[3].uuid, made[2].uuid]);
    const second = (await callSigned("/v1/payout/list", { limit: 3, cursor: first.paginate.next_cursor }, merchant)).body.result;
    expect(second.items.map((item: { uuid: string }) => item.uuid)).toEqual([made[1].uuid, made[0].uuid]);
    expect(second.paginate.next_cursor).toBeNull();
    const waiting = (await callSigned("/v1/payout/list", { status: "check" }, merchant)).body.result.items;
    expect(waiting.map((item: { uuid: string }) => item.uuid)).toEqual([made[1].uuid]);
    expect((await callSigned("/v1/payout/list", { cursor: "garbage" }, merchant)).body.error.code).toBe("payout.bad_cursor");
  });
});

describe("sending payouts on a sandbox chain", () => {
  it("goes approved → broadcasting → sent → confirmed, pays the reserve out once and announces every status", async () => {
    const deps = makeTestDeps();
    const { merchant, available } = await makeFundedMerchant();
    const receiver = await callSigned("/v1/webhooks", { url: "http://127.0.0.1:9/unused" }, merchant);
    expect(receiver.status).toBe(201);
    const created = (await callSigned("/v1/payout", payout({ amount: "12", url_callback: "http://127.0.0.1:9/payout-hook" }), merchant)).body.result;
    const sender = getChainSender(deps.db, deps.config, "tron")!;

    await sendPayouts(deps, "tron", sender);
    const sent = (await callSigned("/v1/payout/info", { uuid: created.uuid }, merchant)).body.result;
    expect(sent).toMatchObject({ internal_status: "sent", status: "process" });
    expect(sent.txid).toMatch(/\S/);
    const transfer = await getTestDb().outgoingTransfer.findUniqueOrThrow({ where: { reference: `payout:${created.uuid}:send:1` } });
    expect(transfer).toMatchObject({ kind: "payout", toAddress: TRON_ADDRESS, currency: "USDT", txid: sent.txid });
    expect(transfer.amountMinor.toFixed()).toBe(String(BigInt(Math.round(Number(created.receive_amount) * 1e6))));

    // A second pass before the block changes nothing and sends nothing twice.
    await sendPayouts(deps, "tron", sender);
    expect(await getTestDb().outgoingTransfer.count({ where: { reference: { startsWith: `payout:${created.uuid}` } } })).toBe(1);

    // In a block is not final: a payout is confirmed at the network's min_confirmations (10 on tron).
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 9 }, merchant);
    await sendPayouts(deps, "tron", sender);
    expect((await callSigned("/v1/payout/info", { uuid: created.uuid }, merchant)).body.result).toMatchObject({ internal_status: "sent", status: "process" });
    expect((await getTestDb().outgoingTransfer.findUniqueOrThrow({ where: { id: transfer.id } })).status).toBe("seen");
    await callSigned("/v1/sandbox/mine", { network: "tron" }, merchant);
    await sendPayouts(deps, "tron", sender);
    const confirmed = (await callSigned("/v1/payout/info", { uuid: created.uuid }, merchant)).body.result;
    expect(confirmed).toMatchObject({ internal_status: "confirmed", status: "paid", is_final: true, txid: sent.txid });
    const balance = await balanceOf(merchant);
    expect(balance.payout_held).toBe("0");
    expect(Number(balance.available)).toBeCloseTo(Number(available) - 12, 6);

    const lifecycle = ["payout.approved", "payout.broadcasting", "payout.sent", "payout.confirmed"];
    const recorded = await getTestDb().webhookDelivery.findMany({ where: { objectId: created.uuid, target: "endpoint" } });
    // Steps of one pass may share a timestamp, so the database cannot order them: each status
    // once, none recorded before the one it follows.
    const deliveries = [...recorded].sort((a, b) => lifecycle.indexOf(a.eventType) - lifecycle.indexOf(b.eventType));
    expect(deliveries.map((delivery) => delivery.eventType)).toEqual(lifecycle);
    for (let step = 1; step < deliveries.length; step++) expect(deliveries[step].createdAt.getTime()).toBeGreaterThanOrEqual(deliveries[step - 1].createdAt.getTime());
    expect(deliveries.map((delivery) => JSON.parse(delivery.body).status)).toEqual(["process", "process", "process", "paid"]);
    expect(JSON.parse(deliveries[3].body)).toEqual({
      type: "payout",
      uuid: created.uuid,
      order_id: created.order_id,
      amount: "12",
      currency: "USDT",
      network: "tron",
      address: TRON_ADDRESS,
      txid: sent.txid,
      status: "paid",
      is_final: true,
    });
    expect(await getTestDb().webhookDelivery.count({ where: { objectId: created.uuid, target: "callback" } })).toBe(4);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("fails a payout the chain keeps refusing, after its attempts, and releases the reserve once", async () => {
    const deps = makeTestDeps();
    const { merchant, available } = await makeFundedMerchant();
    const created = (await callSigned("/v1/payout", payout({ amount: "3" }), merchant)).body.result;
    const sender = getChainSender(deps.db, deps.config, "tron")!;
    const refusing = { ...sender, sign: async () => Promise.reject(Object.assign(new Error("refused by the node"), { retryable: false })) };
    for (let attempt = 1; attempt <= 3; attempt++) {
      await getTestDb().payout.update({ where: { id: created.uuid }, data: { nextAttemptAt: new Date(0) } });
      await sendPayouts(deps, "tron", refusing);
    }
    const failed = (await callSigned("/v1/payout/info", { uuid: created.uuid }, merchant)).body.result;
    expect(failed).toMatchObject({ internal_status: "failed", status: "fail", is_final: true, wait_reason: "refused by the node" });
    expect(await getTestDb().outgoingTransfer.count({ where: { reference: { startsWith: `payout:${created.uuid}` } } })).toBe(3);
    expect(await balanceOf(merchant)).toMatchObject({ payout_held: "0", available });
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("waits without failing while the hot wallet is short of funds, then goes out", async () => {
    const deps = makeTestDeps();
    const { merchant } = await makeFundedMerchant();
    const created = (await callSigned("/v1/payout", payout({ amount: "4" }), merchant)).body.result;
    const sender = getChainSender(deps.db, deps.config, "tron")!;
    const short = { ...sender, sign: async () => Promise.reject(Object.assign(new Error("insufficient USDT in the hot wallet"), { retryable: false, isShortOfFunds: true })) };
    const transfers = () => getTestDb().outgoingTransfer.findMany({ where: { reference: { startsWith: `payout:${created.uuid}:` } } });
    for (let attempt = 1; attempt <= 5; attempt++) {
      // Each try is due (its backoff passed).
      await getTestDb().outgoingTransfer.updateMany({ where: { reference: { startsWith: `payout:${created.uuid}:` } }, data: { retryAt: new Date(0) } });
      await sendPayouts(deps, "tron", short);
    }
    const waiting = (await callSigned("/v1/payout/info", { uuid: created.uuid }, merchant)).body.result;
    expect(waiting).toMatchObject({ internal_status: "approved", status: "process" });
    expect(waiting.wait_reason).toMatch(/hot wallet cannot cover it yet: insufficient USDT/);
    // Nothing was signed: one transfer waits, planned, with its next try a backoff away.
    const [planned, ...others] = await transfers();
    expect(others).toEqual([]);
    expect(planned).toMatchObject({ status: "planned", isShortOfFunds: true, attempts: 5, txid: null });
    expect(planned.retryAt!.getTime()).toBeGreaterThan(Date.now());
    await sendPayouts(deps, "tron", short);
    expect((await transfers())[0].attempts).toBe(5);
    await getTestDb().outgoingTransfer.updateMany({ where: { reference: { startsWith: `payout:${created.uuid}:` } }, data: { retryAt: new Date(0) } });
    await sendPayouts(deps, "tron", sender);
    await callSigned("/v1/sandbox/mine", { network: "tron", blocks: 10 }, merchant); // tron min_confirmations
    await sendPayouts(deps, "tron", sender);
    expect((await callSigned("/v1/payout/info", { uuid: created.uuid }, merchant)).body.result).toMatchObject({ internal_status: "confirmed", wait_reason: "" });
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });
});

describe("payout races", () => {
  it("never takes a balance below zero nor pays one order_id twice, however many requests race", async () => {
    const { merchant, available } = await makeFundedMerchant("100.00");
    const each = "9";
    const affordable = Math.floor(Number(available) / Number(each));
    const distinct = Array.from({ length: 30 }, (_, index) => callSigned("/v1/payout", payout({ amount: each, order_id: `race-${index}` }), merchant));
    const repeated = Array.from({ length: 10 }, () => callSigned("/v1/payout", payout({ amount: each, order_id: "race-same" }), merchant));
    const responses = await Promise.all([...distinct, ...repeated]);
    const accepted = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status !== 200);
    expect(new Set(refused.map((response) => response.body.error.code))).toEqual(new Set(["payout.insufficient_funds"]));
    const payouts = await getTestDb().payout.findMany({ where: { merchantId: merchant.merchantId } });
    expect(payouts).toHaveLength(affordable);
    expect(new Set(accepted.map((response) => response.body.result.uuid)).size).toBe(payouts.length);
    expect(payouts.filter((row) => row.orderId === "race-same").length).toBeLessThanOrEqual(1);
    const balance = await balanceOf(merchant);
    expect(Number(balance.available)).toBeGreaterThanOrEqual(0);
    expect(Number(balance.available)).toBeLessThan(Number(each));
    expect(Number(balance.payout_held)).toBe(affordable * Number(each));
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });
});

describe("payout services", () => {
  it("quotes as commission the fee a payout charges", async () => {
    const { merchant } = await makeFundedMerchant();
    const fee = await serviceFee("USDT", "tron");
    const created = (await callSigned("/v1/payout", payout({ amount: "10" }), merchant)).body.result;
    expect(created.commission).toBe(fee);
  });
});
