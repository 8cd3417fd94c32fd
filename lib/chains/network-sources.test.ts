import { describe, expect, it } from "vitest";
import { findNetwork } from "@/lib/catalogue";
import { networkAvailability, resolveNetworkStatus } from "./network-sources";
import { resetRealChains, verifyRealChains } from "./real-chains";

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

describe("a network whose node does not answer", () => {
  it("is off with a generic reason: the node's own error text stays in the log, not on the public /healthz", async () => {
    const config = { sandbox: true, rpcEndpoints: { ethereum: ["http://127.0.0.1:1/secret-key"] }, tokenContracts: {}, tonApiKey: undefined };
    await verifyRealChains(config, async () => []);
    try {
      const status = resolveNetworkStatus(findNetwork("ethereum")!, config);
      expect(status).toEqual({ network: "ethereum", source: "off", detail: "unreachable: the node did not answer (the service log says why); retried every minute" });
    } finally {
      resetRealChains();
    }
  });
});
