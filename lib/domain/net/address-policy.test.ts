import { describe, expect, it } from "vitest";
import { parseIp } from "./ip";
import { isAllowedOutboundAddress } from "./address-policy";

describe("outbound address policy", () => {
  it.each([
    ["8.8.8.8", true],
    ["1.1.1.1", true],
    ["2606:4700::1111", true],
    ["10.0.0.1", false],
    ["172.16.5.4", false],
    ["172.32.0.1", true],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["224.0.0.1", false],
    ["255.255.255.255", false],
    ["fe80::1", false],
    ["fd12:3456::1", false],
    ["::ffff:10.0.0.1", false],
    ["::ffff:8.8.8.8", true],
    ["fd00:ec2::254", false],
    ["::", false],
  ])("%s allowed: %s", (text, expected) => {
    expect(isAllowedOutboundAddress(parseIp(text)!, { allowLoopback: true })).toBe(expected);
  });

  it("allows loopback only when the operator switch is on", () => {
    for (const text of ["127.0.0.1", "127.9.9.9", "::1"]) {
      expect(isAllowedOutboundAddress(parseIp(text)!, { allowLoopback: false })).toBe(false);
      expect(isAllowedOutboundAddress(parseIp(text)!, { allowLoopback: true })).toBe(true);
    }
  });
});
