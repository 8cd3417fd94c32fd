import { afterEach, describe, expect, it, vi } from "vitest";
import { log } from "@/lib/log";
import { clientAddressOf, parseTrustedProxies, PEER_ADDRESS_HEADER, PEER_TOKEN_HEADER } from "./client-ip";

const TOKEN = "peer-token";
const headersOf = (entries: Record<string, string>) => new Headers(entries);

afterEach(() => vi.restoreAllMocks());

describe("the client's address and what the operator is told about it", () => {
  it("warns once when a peer relays X-Forwarded-For without being a listed proxy, and never for a listed one", () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    const rules = { trustedProxies: parseTrustedProxies(["10.0.0.0/8"]), platformHeader: null };
    const throughUnlisted = headersOf({ [PEER_TOKEN_HEADER]: TOKEN, [PEER_ADDRESS_HEADER]: "172.16.9.9", "x-forwarded-for": "203.0.113.7" });
    expect(clientAddressOf(throughUnlisted, rules, TOKEN)).toBe("172.16.9.9");
    expect(clientAddressOf(throughUnlisted, rules, TOKEN)).toBe("172.16.9.9");
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][1]).toEqual({ peer: "172.16.9.9" });

    const throughListed = headersOf({ [PEER_TOKEN_HEADER]: TOKEN, [PEER_ADDRESS_HEADER]: "10.1.2.3", "x-forwarded-for": "203.0.113.8" });
    expect(clientAddressOf(throughListed, rules, TOKEN)).toBe("203.0.113.8");
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("answers an unknown address (no shared value) when nothing vouches for the peer, and says so once", () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    const rules = { trustedProxies: [], platformHeader: null };
    // A client of a bare `next start` cannot name its own address.
    expect(clientAddressOf(headersOf({ [PEER_ADDRESS_HEADER]: "198.51.100.1", "x-forwarded-for": "198.51.100.2" }), rules, TOKEN)).toBe("");
    expect(clientAddressOf(headersOf({}), rules, TOKEN)).toBe("");
    expect(warn.mock.calls.filter(([message]) => /client addresses are unknown/.test(String(message)))).toHaveLength(1);
  });
});
