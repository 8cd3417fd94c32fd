import { describe, expect, it } from "vitest";
import { paymentUriTargetOf } from "@/lib/chains/payment-uri-target";
import { buildPaymentUri, type PaymentUriTarget } from "./payment-uri";

const EVM_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";
const SOLANA_ADDRESS = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const TON_ADDRESS = "UQBvI0aFLnw2QbZgjMPCLRdtRHxhUyinQudg6sdiohIwg5jL";

/** The catalogue's target of a pair on its main chain; the test fails if the catalogue has none. */
function targetOf(currency: string, network: string): PaymentUriTarget {
  const target = paymentUriTargetOf(currency, network, "main");
  expect(target, `${currency} on ${network}`).not.toBeNull();
  return target!;
}

describe("buildPaymentUri", () => {
  it("writes BIP-21 with the amount in whole coins, exactly, for each UTXO network's own scheme", () => {
    expect(buildPaymentUri(targetOf("BTC", "bitcoin"), "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", 123_456n)).toBe("bitcoin:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq?amount=0.00123456");
    expect(buildPaymentUri(targetOf("LTC", "litecoin"), "ltc1qg82m4gq2cvkcelkyxkxh6rjnx4x5ht4gw6kq5v", 150_000_000n)).toBe("litecoin:ltc1qg82m4gq2cvkcelkyxkxh6rjnx4x5ht4gw6kq5v?amount=1.5");
    expect(buildPaymentUri(targetOf("DOGE", "dogecoin"), "DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L", 4_200_000_000n)).toBe("dogecoin:DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L?amount=42");
  });

  it("writes EIP-681 for a native coin in wei with the network's chain id", () => {
    expect(buildPaymentUri(targetOf("ETH", "ethereum"), EVM_ADDRESS, 12_345_678_901_234_567_890n)).toBe(`ethereum:${EVM_ADDRESS}@1?value=12345678901234567890`);
    expect(buildPaymentUri(targetOf("BNB", "bsc"), EVM_ADDRESS, 1n)).toBe(`ethereum:${EVM_ADDRESS}@56?value=1`);
  });

  it("writes EIP-681 for a token as a transfer call on its contract, in the token's minor units on that chain", () => {
    expect(buildPaymentUri(targetOf("USDT", "ethereum"), EVM_ADDRESS, 25_123_456n)).toBe(
      `ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=${EVM_ADDRESS}&uint256=25123456`,
    );
    // BSC's USDT has 18 decimals on chain: 25.5 USDT is 255 followed by 17 zeros.
    expect(buildPaymentUri(targetOf("USDT", "bsc"), EVM_ADDRESS, 25_500_000_000_000_000_000n)).toBe(
      `ethereum:0x55d398326f99059fF775485246999027B3197955@56/transfer?address=${EVM_ADDRESS}&uint256=25500000000000000000`,
    );
  });

  it("writes Solana Pay with a decimal amount, and the mint for an SPL token", () => {
    expect(buildPaymentUri(targetOf("SOL", "solana"), SOLANA_ADDRESS, 1_500_000_000n)).toBe(`solana:${SOLANA_ADDRESS}?amount=1.5`);
    expect(buildPaymentUri(targetOf("USDT", "solana"), SOLANA_ADDRESS, 10_000_001n)).toBe(`solana:${SOLANA_ADDRESS}?amount=10.000001&spl-token=Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB`);
  });

  it("writes TON transfer links in nanotons, and a jetton's minor units with its master", () => {
    expect(buildPaymentUri(targetOf("TON", "ton"), TON_ADDRESS, 2_500_000_000n)).toBe(`ton://transfer/${TON_ADDRESS}?amount=2500000000`);
    expect(buildPaymentUri(targetOf("USDT", "ton"), TON_ADDRESS, 7_000_000n)).toBe(`ton://transfer/${TON_ADDRESS}?jetton=EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs&amount=7000000`);
    // A standard-base64 address keeps its `+` and `/` as data, not as URI syntax.
    expect(buildPaymentUri(targetOf("TON", "ton"), "EQAb+cd/ef", 1n)).toBe("ton://transfer/EQAb%2Bcd%2Fef?amount=1");
  });

  it("keeps amounts beyond a float's precision exact", () => {
    const target: PaymentUriTarget = { standard: "bip21", scheme: "bitcoin", decimals: 8 };
    expect(buildPaymentUri(target, "bc1q", 9_007_199_254_740_993n)).toBe("bitcoin:bc1q?amount=90071992.54740993");
    expect(buildPaymentUri({ standard: "solana-pay", splMint: null, decimals: 9 }, SOLANA_ADDRESS, 0n)).toBe(`solana:${SOLANA_ADDRESS}?amount=0`);
  });

  it("refuses a negative amount", () => {
    expect(() => buildPaymentUri({ standard: "ton", jettonMaster: null, decimals: 9 }, TON_ADDRESS, -1n)).toThrow(RangeError);
  });
});

describe("paymentUriTargetOf", () => {
  it("has no scheme for Tron, nor for a pair the catalogue does not list", () => {
    expect(paymentUriTargetOf("TRX", "tron", "main")).toBeNull();
    expect(paymentUriTargetOf("USDT", "tron", "main")).toBeNull();
    expect(paymentUriTargetOf("USDT", "bitcoin", "main")).toBeNull();
    expect(paymentUriTargetOf("BTC", "nowhere", "main")).toBeNull();
  });

  it("has none on an EVM test chain, whose id the catalogue does not know; UTXO test chains keep BIP-21", () => {
    expect(paymentUriTargetOf("ETH", "ethereum", "test")).toBeNull();
    expect(paymentUriTargetOf("BTC", "bitcoin", "regtest")).toEqual({ standard: "bip21", scheme: "bitcoin", decimals: 8 });
  });
});
