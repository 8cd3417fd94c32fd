import { describe, expect, it } from "vitest";
import { cidrContains, formatCidr, parseCidr, parseIp } from "./ip";

describe("parseIp", () => {
  it.each([
    ["127.0.0.1", 4, 0x7f000001n],
    ["0.0.0.0", 4, 0n],
    ["255.255.255.255", 4, 0xffffffffn],
    ["::1", 6, 1n],
    ["::", 6, 0n],
    ["2001:db8::8a2e:370:7334", 6, 0x20010db80000000000008a2e03707334n],
    ["[2001:db8::1]", 6, 0x20010db8000000000000000000000001n],
    ["::ffff:10.1.2.3", 4, 0x0a010203n],
    ["::ffff:a01:203", 4, 0x0a010203n],
  ])("%s", (text, family, value) => {
    expect(parseIp(text)).toEqual({ family, value });
  });

  it.each(["256.0.0.1", "1.2.3", "01.2.3.4", "1.2.3.4.5", "abc", "1::2::3", "12345::", "fe80::1%eth0", "", "1:2:3:4:5:6:7:8:9"])(
    "refuses %s",
    (text) => {
      expect(parseIp(text)).toBeNull();
    },
  );
});

describe("parseCidr and cidrContains", () => {
  it.each([
    ["10.0.0.0/8", "10.255.1.2", true],
    ["10.0.0.0/8", "11.0.0.0", false],
    ["192.168.1.7", "192.168.1.7", true],
    ["192.168.1.7", "192.168.1.8", false],
    ["0.0.0.0/0", "8.8.8.8", true],
    ["0.0.0.0/0", "::1", false],
    ["2001:db8::/32", "2001:db8:ffff::1", true],
    ["2001:db8::/32", "2001:db9::1", false],
    ["::/0", "2001:db8::1", true],
    ["::ffff:10.0.0.0/104", "10.9.9.9", true],
    ["10.0.0.0/8", "::ffff:10.0.0.1", true],
  ])("%s contains %s: %s", (cidr, ip, expected) => {
    const range = parseCidr(cidr);
    const address = parseIp(ip);
    expect(range).not.toBeNull();
    expect(address).not.toBeNull();
    expect(cidrContains(range!, address!)).toBe(expected);
  });

  it.each(["10.0.0.1/8", "10.0.0.0/33", "2001:db8::1/32", "2001:db8::/129", "10.0.0.0/", "10.0.0.0/8/1", "x/8", "10.0.0.0/-1"])(
    "refuses %s",
    (text) => {
      expect(parseCidr(text)).toBeNull();
    },
  );

  it.each([
    ["10.0.0.0/8", "10.0.0.0/8"],
    ["192.168.0.1/32", "192.168.0.1"],
    ["2001:DB8:0:0::/64", "2001:db8::/64"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["::ffff:1.2.3.4", "1.2.3.4"],
  ])("canonical form of %s is %s", (text, canonical) => {
    expect(formatCidr(parseCidr(text)!)).toBe(canonical);
  });
});
