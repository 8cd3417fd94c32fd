import { describe, expect, it } from "vitest";
import { makeFundedMerchant } from "@/lib/testing/funding";
import { addApiKey, callSigned, getTestDb, makeTestDeps } from "@/lib/testing/harness";
import { runUnit } from "@/lib/deps/unit-of-work";
import { blockAddress, unblockAddress } from "@/lib/services/compliance/screening";
import { listPersonalWallets, registerPersonalWallet, removePersonalWallet, transferToPersonalWallet } from "./personal-wallet";

// Transfer to a personal wallet (the service the cabinet puts under two-factor authentication):
// the merchant's own registered address per asset, screened, sent as a manual payout.

const WALLET = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";
const OTHER = "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7";

describe("personal wallets", () => {
  it("registers one wallet per asset and transfers to it as a manual payout that another key approves", async () => {
    const deps = makeTestDeps();
    const { merchant } = await makeFundedMerchant();
    const wallet = await registerPersonalWallet(deps, merchant.merchantId, { currency: "usdt", network: "tron", address: WALLET, label: "cold storage" });
    expect(wallet).toMatchObject({ currency: "USDT", network: "tron", address: WALLET, label: "cold storage" });
    expect(await listPersonalWallets(deps, merchant.merchantId)).toEqual([wallet]);

    const transfer = await runUnit(deps, transferToPersonalWallet, { merchantId: merchant.merchantId, input: { currency: "USDT", network: "tron", amount: "20", reference: "t-1" }, actor: "user:owner" });
    expect(transfer).toMatchObject({ address: WALLET, source: "manual", status: "pending", orderId: "transfer:t-1", createdBy: "user:owner" });
    const again = await runUnit(deps, transferToPersonalWallet, { merchantId: merchant.merchantId, input: { currency: "USDT", network: "tron", amount: "20", reference: "t-1" }, actor: "user:owner" });
    expect(again.id).toBe(transfer.id);
    const approver = await addApiKey(merchant.merchantId, "payout");
    expect((await callSigned("/v1/payout/approve", { uuid: transfer.id }, approver)).body.result.internal_status).toBe("approved");

    await expect(runUnit(deps, transferToPersonalWallet, { merchantId: merchant.merchantId, input: { currency: "USDT", network: "bsc", amount: "1" }, actor: "user:owner" })).rejects.toMatchObject({ code: "payout.no_destination" });
    expect(await removePersonalWallet(deps, merchant.merchantId, { currency: "USDT", network: "tron" })).toBe(true);
    await expect(runUnit(deps, transferToPersonalWallet, { merchantId: merchant.merchantId, input: { currency: "USDT", network: "tron", amount: "1" }, actor: "user:owner" })).rejects.toMatchObject({ code: "payout.no_destination" });
  });

  it("refuses a gateway-owned or blocked address, and a wallet changed within the payout freeze receives nothing yet", async () => {
    const deps = makeTestDeps({}, { GATEWAY_PAYOUT_FREEZE_SECONDS: "86400" });
    const { merchant } = await makeFundedMerchant();
    const invoice = (await callSigned("/v1/payment", { amount: "5.00", currency: "USD", to_currency: "USDT", network: "tron" }, merchant)).body.result;
    await expect(registerPersonalWallet(deps, merchant.merchantId, { currency: "USDT", network: "tron", address: invoice.address })).rejects.toMatchObject({ code: "payout.destination_internal" });
    await blockAddress(getTestDb(), { address: OTHER, network: "tron" });
    try {
      await expect(registerPersonalWallet(deps, merchant.merchantId, { currency: "USDT", network: "tron", address: OTHER })).rejects.toMatchObject({ code: "compliance.blocked" });
    } finally {
      await unblockAddress(getTestDb(), { address: OTHER, network: "tron" });
    }
    await expect(registerPersonalWallet(deps, merchant.merchantId, { currency: "USDT", network: "tron", address: "0x9858EfFD232B4033E47d90003D41EC34EcaEda94" })).rejects.toMatchObject({ code: "payout.address_network_mismatch" });

    await registerPersonalWallet(deps, merchant.merchantId, { currency: "USDT", network: "tron", address: WALLET });
    await expect(runUnit(deps, transferToPersonalWallet, { merchantId: merchant.merchantId, input: { currency: "USDT", network: "tron", amount: "5" }, actor: "user:owner" })).rejects.toMatchObject({ code: "payout.frozen" });
    // Once the freeze has passed (and the merchant's keys are old too), it goes.
    await getTestDb().personalWallet.updateMany({ where: { merchantId: merchant.merchantId }, data: { updatedAt: new Date(Date.now() - 2 * 86_400_000) } });
    await getTestDb().apiKey.updateMany({ where: { merchantId: merchant.merchantId }, data: { createdAt: new Date(Date.now() - 2 * 86_400_000) } });
    const transfer = await runUnit(deps, transferToPersonalWallet, { merchantId: merchant.merchantId, input: { currency: "USDT", network: "tron", amount: "5" }, actor: "user:owner" });
    expect(transfer.status).toBe("pending");
  });
});
