import { describe, expect, it } from "vitest";
import { networkAvailability } from "./network-sources";

describe("networkAvailability", () => {
  it("serves every catalogue network in sandbox mode, none without it or an endpoint, and never an unknown id", () => {
    const sandbox = networkAvailability({ sandbox: true, rpcEndpoints: {} });
    expect(sandbox("tron")).toEqual({ deposit: true, payout: true });
    expect(sandbox("bitcoin")).toEqual({ deposit: true, payout: true });
    expect(sandbox("no-such-network")).toEqual({ deposit: false, payout: false });
    const closed = networkAvailability({ sandbox: false, rpcEndpoints: {} });
    expect(closed("tron")).toEqual({ deposit: false, payout: false });
  });

  it("keeps a network with an unchecked endpoint closed until its node has answered", () => {
    const availability = networkAvailability({ sandbox: true, rpcEndpoints: { ethereum: ["http://127.0.0.1:1"] } });
    expect(availability("ethereum")).toEqual({ deposit: false, payout: false });
    expect(availability("tron")).toEqual({ deposit: true, payout: true });
  });
});
