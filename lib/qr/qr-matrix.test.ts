import { randomBytes } from "node:crypto";
import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { encodeQr } from "./qr-matrix";

/** The qrcode package's symbol for the same choices (one byte segment, level M, mask 0): the reference. */
function referenceOf(bytes: Uint8Array) {
  const symbol = QRCode.create([{ data: Buffer.from(bytes), mode: "byte" }], { errorCorrectionLevel: "M", maskPattern: 0 });
  return { version: symbol.version, size: symbol.modules.size, modules: Array.from(symbol.modules.data, (module) => (module ? 1 : 0)) };
}

function expectSameAsReference(bytes: Uint8Array) {
  const ours = encodeQr(bytes);
  const reference = referenceOf(bytes);
  expect({ version: ours.version, size: ours.size }).toEqual({ version: reference.version, size: reference.size });
  expect(Array.from(ours.modules)).toEqual(reference.modules);
}

describe("encodeQr", () => {
  it("makes the reference encoder's symbol for deposit addresses of every family and for URLs", () => {
    for (const text of [
      "TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf",
      "0x52908400098527886E0F7030069857D2E4169EE7",
      "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
      "bc1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3qccfmv3",
      "ltc1qg82tycn9mnmp4sgg7lqhcwsglsqtcsj2hrfux3",
      "UQBvW8Z5huBkMJYdnfAEM5JqTNkuWX3diqYENkWsIL0XggGG",
      "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV",
      "https://pay.example.com/pay/link/0b0f5c4e-4c1f-4b9a-9d0e-5f7e2f2c3a11",
      "a",
    ]) {
      expectSameAsReference(Buffer.from(text, "utf8"));
    }
  });

  it("makes the reference encoder's symbol at every version, at the largest length each holds and one byte past the previous", () => {
    const versionOf = (length: number) => {
      try {
        return encodeQr(new Uint8Array(length)).version;
      } catch {
        return null;
      }
    };
    let previousLargest = 0;
    for (let version = 1; version <= 40; version++) {
      let largest = previousLargest;
      while (versionOf(largest + 1) === version) largest++;
      for (const length of new Set([previousLargest + 1, largest])) {
        const bytes = randomBytes(length);
        expect(encodeQr(bytes).version).toBe(version);
        expectSameAsReference(bytes);
      }
      previousLargest = largest;
    }
    // Version 40 at level M holds 2331 bytes in byte mode.
    expect(previousLargest).toBe(2331);
  });

  it("refuses more than a version-40 symbol holds", () => {
    expect(() => encodeQr(new Uint8Array(2332))).toThrow(/do not fit/);
  });
});
