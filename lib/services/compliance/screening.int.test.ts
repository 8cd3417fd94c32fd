import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { makeFundedMerchant, payInvoice } from "@/lib/testing/funding";
import { callSigned, getTestDb, makeMerchant, TEST_MASTER_KEY } from "@/lib/testing/harness";
import { addScreeningProvider, blockAddress, unblockAddress } from "./screening";

// One screening for every destination: the operator's deny list (managed from the CLI) and an
// external provider in its slot refuse payouts and refunds with compliance.blocked (403).

const TRON_ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";
const EVM_ADDRESS = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";

function cli(args: string[]) {
  const result = spawnSync(process.execPath, [path.join("node_modules", "tsx", "dist", "cli.mjs"), "lib/cli/main.ts", ...args, "--json"], {
    env: { ...process.env, DATABASE_URL: inject("databaseUrl"), GATEWAY_MASTER_KEY: TEST_MASTER_KEY, LOG_LEVEL: "silent" },
    encoding: "utf8",
  });
  return { status: result.status, json: JSON.parse(result.stdout || "null"), stderr: result.stderr };
}

describe("compliance screening", () => {
  it("refuses payouts and refunds to a deny-listed address, managed from the operator CLI", async () => {
    const { merchant } = await makeFundedMerchant();
    const blocked = cli(["compliance", "block", "--address", TRON_ADDRESS, "--network", "tron", "--reason", "sanctions list"]);
    expect(blocked.status, blocked.stderr).toBe(0);
    expect(blocked.json).toEqual({ blocked: { address: TRON_ADDRESS, network: "tron", reason: "sanctions list" } });
    expect(cli(["compliance", "list"]).json.blocked).toContainEqual(expect.objectContaining({ address: TRON_ADDRESS, network: "tron" }));
    try {
      const payout = await callSigned("/v1/payout", { amount: "5", currency: "USDT", network: "tron", address: TRON_ADDRESS, order_id: "blocked-1" }, merchant);
      expect([payout.status, payout.body.error.code]).toEqual([403, "compliance.blocked"]);
      expect(payout.body.error.message).not.toMatch(/sanctions/);
      const paid = await payInvoice(merchant, "30.00");
      const refund = await callSigned("/v1/payment/refund", { uuid: paid.uuid, address: TRON_ADDRESS, amount: "5" }, merchant);
      expect([refund.status, refund.body.error.code]).toEqual([403, "compliance.blocked"]);
      expect(await getTestDb().payout.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
    } finally {
      const unblocked = cli(["compliance", "unblock", "--address", TRON_ADDRESS, "--network", "tron"]);
      expect(unblocked.json).toEqual({ unblocked: true });
    }
    expect((await callSigned("/v1/payout", { amount: "5", currency: "USDT", network: "tron", address: TRON_ADDRESS, order_id: "blocked-1" }, merchant)).status).toBe(200);
  });

  it("blocks an address on every network without --network, whatever its letter case", async () => {
    const merchant = await makeMerchant();
    await blockAddress(getTestDb(), { address: EVM_ADDRESS.toLowerCase(), network: "ethereum" });
    await blockAddress(getTestDb(), { address: EVM_ADDRESS.toLowerCase() });
    try {
      const { screenDestination } = await import("./screening");
      await expect(screenDestination({ db: getTestDb() }, { network: "ethereum", address: EVM_ADDRESS })).rejects.toMatchObject({ code: "compliance.blocked" });
      await expect(screenDestination({ db: getTestDb() }, { network: "bsc", address: EVM_ADDRESS })).rejects.toMatchObject({ code: "compliance.blocked" });
      expect(merchant.merchantId).toBeTruthy();
    } finally {
      await unblockAddress(getTestDb(), { address: EVM_ADDRESS.toLowerCase(), network: "ethereum" });
      await unblockAddress(getTestDb(), { address: EVM_ADDRESS.toLowerCase() });
    }
    const { screenDestination } = await import("./screening");
    await expect(screenDestination({ db: getTestDb() }, { network: "ethereum", address: EVM_ADDRESS })).resolves.toBeUndefined();
  });

  it("puts every destination to an external provider in the slot, and sends nothing it refuses or cannot screen", async () => {
    const { merchant } = await makeFundedMerchant();
    const seen: string[] = [];
    const remove = addScreeningProvider({
      name: "test-provider",
      async screen(destination) {
        seen.push(`${destination.network}:${destination.address}`);
        if (destination.address === TRON_ADDRESS) return { isBlocked: true, reason: "risk score 97" };
        throw new Error("provider unreachable");
      },
    });
    try {
      const refused = await callSigned("/v1/payout", { amount: "5", currency: "USDT", network: "tron", address: TRON_ADDRESS, order_id: "ext-1" }, merchant);
      expect([refused.status, refused.body.error.code]).toEqual([403, "compliance.blocked"]);
      const unscreened = await callSigned("/v1/payout", { amount: "5", currency: "USDT", network: "tron", address: "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7", order_id: "ext-2" }, merchant);
      expect([unscreened.status, unscreened.body.error.code]).toEqual([503, "compliance.unavailable"]);
      expect(seen).toEqual([`tron:${TRON_ADDRESS}`, "tron:TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7"]);
      expect(await getTestDb().payout.count({ where: { merchantId: merchant.merchantId } })).toBe(0);
    } finally {
      remove();
    }
  });
});
