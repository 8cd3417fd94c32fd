import { randomBytes } from "node:crypto";
import os from "node:os";
import { describe, expect, it } from "vitest";
import * as libsecp256k1 from "tiny-secp256k1";
import { nativePointArithmetic, pointArithmetic, wasmPointArithmetic } from "./point-arithmetic";

/** secp256k1's group order n: a tweak must be below it. */
const ORDER = Buffer.from("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", "hex");

describe("point arithmetic", () => {
  it("loads the native addon on Linux x64, where the package ships a prebuild", () => {
    if (os.platform() !== "linux" || os.arch() !== "x64") return;
    expect(nativePointArithmetic).not.toBeNull();
    expect(pointArithmetic).toBe(nativePointArithmetic);
  });

  it("gives the same P + tweak·G and compression natively and in WebAssembly", () => {
    const native = nativePointArithmetic!;
    for (let round = 0; round < 200; round++) {
      const point = libsecp256k1.pointFromScalar(randomBytes(32), false)!;
      const tweak = randomBytes(32);
      const wasm = wasmPointArithmetic.addTweakTimesG(point, tweak);
      expect(wasm).not.toBeNull();
      expect(Buffer.from(native.addTweakTimesG(point, tweak)!).toString("hex")).toBe(Buffer.from(wasm!).toString("hex"));
      expect(Buffer.from(native.compress(wasm!)).toString("hex")).toBe(Buffer.from(wasmPointArithmetic.compress(wasm!)).toString("hex"));
    }
  });

  it("answers null, not a point, for a tweak of n or above and for a sum at infinity (BIP-32's invalid keys)", () => {
    const scalar = randomBytes(32);
    const point = libsecp256k1.pointFromScalar(scalar, false)!;
    // −scalar mod n: P + (−scalar)·G is the point at infinity.
    const negated = Buffer.from(libsecp256k1.privateNegate(scalar));
    for (const arithmetic of [wasmPointArithmetic, nativePointArithmetic!]) {
      expect(arithmetic.addTweakTimesG(point, ORDER)).toBeNull();
      expect(arithmetic.addTweakTimesG(point, Buffer.alloc(32, 0xff))).toBeNull();
      expect(arithmetic.addTweakTimesG(point, negated)).toBeNull();
    }
  });
});
