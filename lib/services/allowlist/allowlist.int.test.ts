import { describe, expect, it } from "vitest";
import { callSigned, makeMerchant } from "@/lib/testing/harness";

describe("IP allow-list operations", () => {
  it("starts disabled and empty", async () => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/api-allowlist/list", {}, merchant);
    expect(response.body).toEqual({ state: 0, result: { entries: [], enabled: false } });
  });

  it("adds IPv4, IPv6 and CIDR entries in canonical form, once each", async () => {
    const merchant = await makeMerchant();
    for (const cidr of ["192.0.2.10", "198.51.100.0/24", "2001:DB8:0::/48", "192.0.2.10/32", "::ffff:192.0.2.10"]) {
      const response = await callSigned("/v1/api-allowlist/add", { cidr }, merchant);
      expect(response.status, cidr).toBe(200);
    }
    const list = await callSigned("/v1/api-allowlist/list", {}, merchant);
    expect(list.body.result.entries).toEqual(["192.0.2.10", "198.51.100.0/24", "2001:db8::/48"]);
  });

  it.each([["not-an-ip"], ["10.0.0.1/8"], ["10.0.0.0/33"], ["300.1.1.1"], [""], ["fe80::1%eth0"]])("refuses %j with apiallow.bad_cidr", async (cidr) => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/api-allowlist/add", { cidr }, merchant);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("apiallow.bad_cidr");
  });

  it("refuses a missing or non-string cidr with apiallow.bad_cidr", async () => {
    const merchant = await makeMerchant();
    for (const body of [{}, { cidr: 10 }, { cidr: null }]) {
      const response = await callSigned("/v1/api-allowlist/add", body, merchant);
      expect(response.body.error.code).toBe("apiallow.bad_cidr");
    }
  });

  it("refuses to enable an empty list with apiallow.empty", async () => {
    const merchant = await makeMerchant();
    const response = await callSigned("/v1/api-allowlist/enable", { enabled: true }, merchant);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe("apiallow.empty");
  });

  it("refuses a non-boolean `enabled` with apiallow.bad_enabled", async () => {
    const merchant = await makeMerchant();
    for (const body of [{}, { enabled: "true" }, { enabled: 1 }]) {
      const response = await callSigned("/v1/api-allowlist/enable", body, merchant);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe("apiallow.bad_enabled");
    }
  });

  it("enforces the list on signed calls once enabled, for IPv4, IPv6 and ranges", async () => {
    const merchant = await makeMerchant();
    await callSigned("/v1/api-allowlist/add", { cidr: "198.51.100.0/24" }, merchant, { clientIp: "198.51.100.1" });
    await callSigned("/v1/api-allowlist/add", { cidr: "2001:db8::/32" }, merchant, { clientIp: "198.51.100.1" });
    const enabled = await callSigned("/v1/api-allowlist/enable", { enabled: true }, merchant, { clientIp: "198.51.100.1" });
    expect(enabled.body.result.enabled).toBe(true);
    const cases: [string, number][] = [
      ["198.51.100.77", 200],
      ["198.51.101.1", 401],
      ["2001:db8:abcd::1", 200],
      ["2001:db9::1", 401],
      ["", 401],
    ];
    for (const [clientIp, status] of cases) {
      const response = await callSigned("/v1/api-allowlist/list", {}, merchant, { clientIp });
      expect(response.status, clientIp).toBe(status);
      if (status === 401) expect(response.body.error.code).toBe("auth.ip_not_allowed");
    }
  });

  it("removes entries; removing the last one of an enabled list also disables it", async () => {
    const merchant = await makeMerchant();
    await callSigned("/v1/api-allowlist/add", { cidr: "203.0.113.5" }, merchant);
    await callSigned("/v1/api-allowlist/enable", { enabled: true }, merchant, { clientIp: "203.0.113.5" });
    const removed = await callSigned("/v1/api-allowlist/remove", { cidr: "203.0.113.5/32" }, merchant, { clientIp: "203.0.113.5" });
    expect(removed.body.result).toEqual({ entries: [], enabled: false });
    const missing = await callSigned("/v1/api-allowlist/remove", { cidr: "203.0.113.5" }, merchant);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("apiallow.not_found");
  });

  it("keeps one merchant's list away from another's", async () => {
    const one = await makeMerchant();
    const two = await makeMerchant();
    await callSigned("/v1/api-allowlist/add", { cidr: "192.0.2.1" }, one);
    const other = await callSigned("/v1/api-allowlist/list", {}, two);
    expect(other.body.result.entries).toEqual([]);
    const removeForeign = await callSigned("/v1/api-allowlist/remove", { cidr: "192.0.2.1" }, two);
    expect(removeForeign.body.error.code).toBe("apiallow.not_found");
  });

  it("answers concurrent reads of several merchants, read together, each with its own list and every write made before the read", async () => {
    const merchants = await Promise.all([0, 1, 2].map(() => makeMerchant()));
    await Promise.all(merchants.map((merchant, index) => callSigned("/v1/api-allowlist/add", { cidr: `192.0.2.${index + 1}` }, merchant)));
    const readAll = () => Promise.all(Array.from({ length: 60 }, (_, call) => callSigned("/v1/api-allowlist/list", {}, merchants[call % 3])));
    const before = await readAll();
    before.forEach((response, call) => expect(response.body.result.entries, `call ${call}`).toEqual([`192.0.2.${(call % 3) + 1}`]));

    await callSigned("/v1/api-allowlist/add", { cidr: "198.51.100.0/24" }, merchants[1]);
    const after = await readAll();
    after.forEach((response, call) =>
      expect(response.body.result.entries, `call ${call}`).toEqual(call % 3 === 1 ? ["192.0.2.2", "198.51.100.0/24"] : [`192.0.2.${(call % 3) + 1}`]),
    );
  });
});
