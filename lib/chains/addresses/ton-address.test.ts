import { bytesToHex, hexToBytes } from "@noble/hashes/utils";
import { describe, expect, it } from "vitest";
import { computeCrc16Xmodem, computeWalletV4R2AccountId, parseTonAddress } from "@/lib/chains/addresses/ton-address";
import { computeCellHash, pushUint } from "@/lib/chains/addresses/ton-cell";

describe("computeCellHash", () => {
  it("hashes the empty cell to its well-known value", () => {
    expect(bytesToHex(computeCellHash({ bits: [], refs: [] }))).toBe(
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
    );
  });

  it("pads partial bytes with a completion tag, so a trailing 0 bit changes the hash", () => {
    const bits: boolean[] = [];
    pushUint(bits, 1n, 8);
    const whole = computeCellHash({ bits, refs: [] });
    const withZero = computeCellHash({ bits: [...bits, false], refs: [] });
    expect(bytesToHex(whole)).not.toBe(bytesToHex(withZero));
  });
});

describe("computeCrc16Xmodem", () => {
  it("gives the standard check value for '123456789'", () => {
    expect(computeCrc16Xmodem(new TextEncoder().encode("123456789"))).toBe(0x31c3);
  });
});

describe("computeWalletV4R2AccountId", () => {
  it("gives the account id of the STACK-NOTES v4R2 vector", () => {
    // Public key of SLIP-10 m/44'/607'/0' for the test mnemonic.
    const publicKey = hexToBytes("7952e94118f34607c75e23258dd9220d66ccac5a3ee074125c25068e8107bfbf");
    const parsed = parseTonAddress("UQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-RKY");
    expect(parsed?.isBounceable).toBe(false);
    expect(bytesToHex(computeWalletV4R2AccountId(publicKey))).toBe(parsed && bytesToHex(parsed.hash));
  });
});
