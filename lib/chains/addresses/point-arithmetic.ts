import { createRequire } from "node:module";
import * as libsecp256k1 from "tiny-secp256k1";

/** The two curve operations public derivation needs, on uncompressed secp256k1 points. */
export interface PointArithmetic {
  /** P + tweak·G uncompressed; null when the tweak is not below the curve order or the sum is infinity. */
  addTweakTimesG(point: Uint8Array, tweak: Uint8Array): Uint8Array | null;
  compress(point: Uint8Array): Uint8Array;
}

/** The calls of the `secp256k1` package's native addon used here. */
interface NativeSecp256k1 {
  /** Throws when the tweak is not below the curve order or the sum is the point at infinity. */
  publicKeyTweakAdd(publicKey: Uint8Array, tweak: Uint8Array, compressed: boolean): Uint8Array;
  publicKeyConvert(publicKey: Uint8Array, compressed: boolean): Uint8Array;
}

/** libsecp256k1 compiled to WebAssembly (tiny-secp256k1): 115 µs for P + tweak·G, on every platform. */
export const wasmPointArithmetic: PointArithmetic = {
  addTweakTimesG(point, tweak) {
    if (!libsecp256k1.isPrivate(tweak)) return null;
    return libsecp256k1.pointAdd(point, libsecp256k1.pointFromScalar(tweak, false)!, false);
  },
  compress: (point) => libsecp256k1.pointCompress(point, true),
};

/**
 * libsecp256k1 compiled for this machine (the `secp256k1` package's prebuilt addon, for Linux,
 * macOS and Windows on x64): 35 µs for P + tweak·G. Null where no prebuild loads (Linux on ARM,
 * say). The package's own entry point would fall back to elliptic, slower than WebAssembly, so
 * its bindings are loaded directly.
 */
export const nativePointArithmetic: PointArithmetic | null = (() => {
  let native: NativeSecp256k1;
  try {
    native = createRequire(import.meta.url)("secp256k1/bindings") as NativeSecp256k1;
  } catch {
    return null;
  }
  return {
    addTweakTimesG(point, tweak) {
      try {
        return native.publicKeyTweakAdd(point, tweak, false);
      } catch {
        return null;
      }
    },
    compress: (point) => native.publicKeyConvert(point, true),
  };
})();

/** The fastest that loads here. */
export const pointArithmetic: PointArithmetic = nativePointArithmetic ?? wasmPointArithmetic;
