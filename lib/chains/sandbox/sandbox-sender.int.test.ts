import { describe, expect, it } from "vitest";
import { getTestDb } from "@/lib/testing/harness";
import { withSending } from "../testing/with-sending";
import { ChainError, type SigningKey } from "../types";
import { mineSandboxBlocks, randomSandboxPayerAddress, submitSandboxTransaction } from "./sandbox-chain";
import { createSandboxSender } from "./sandbox-sender";

// Balances of a sandbox chain, rebuilt from its transactions in the run's database. "avalanche" is
// a sandbox chain no other file sends on, so mining it confirms only this file's transactions.

const NETWORK = "avalanche";
const AVAX = 10n ** 18n;
const USDT = 1_000_000n;

/** A sandbox key: the sandbox signs nothing, only the address counts. */
function keyOf(address: string): SigningKey {
  return { address, privateKey: new Uint8Array(), publicKey: new Uint8Array() };
}

describe("sandbox sender: balances", () => {
  it("count what arrived in a block, less what left (the mempool too) and the nominal fee of each send", async () => {
    const db = getTestDb();
    const sender = withSending(createSandboxSender(db, NETWORK));
    const wallet = randomSandboxPayerAddress(NETWORK);
    const recipient = randomSandboxPayerAddress(NETWORK);
    const now = new Date();
    for (const [currency, amountMinor] of [
      ["AVAX", 3n * AVAX],
      ["USDT", 50n * USDT],
    ] as const) {
      await submitSandboxTransaction(db, { network: NETWORK, currency, fromAddress: randomSandboxPayerAddress(NETWORK), toAddress: wallet, amountMinor, now });
    }
    // In the mempool: not received yet.
    expect(await sender.getBalance(wallet, "AVAX")).toBe(0n);
    await mineSandboxBlocks(db, NETWORK, 1, now);
    expect(await sender.getBalance(wallet, "AVAX")).toBe(3n * AVAX);
    expect(await sender.getBalance(wallet, "USDT")).toBe(50n * USDT);
    expect(await sender.getBalance(wallet, "USDC")).toBe(0n);

    const { feeMinor, feeCurrency } = await sender.estimateFee(keyOf(wallet), { currency: "USDT", toAddress: recipient, amountMinor: 1n });
    expect(feeCurrency).toBe("AVAX");
    await sender.send(keyOf(wallet), { currency: "AVAX", toAddress: recipient, amountMinor: AVAX });
    await sender.send(keyOf(wallet), { currency: "USDT", toAddress: recipient, amountMinor: 20n * USDT });
    // Spent as soon as it is sent; each send paid the coin's fee, the token's included.
    expect(await sender.getBalance(wallet, "AVAX")).toBe(2n * AVAX - 2n * feeMinor);
    expect(await sender.getBalance(wallet, "USDT")).toBe(30n * USDT);
    expect(await sender.getBalance(recipient, "AVAX")).toBe(0n);

    await mineSandboxBlocks(db, NETWORK, 1, now);
    expect(await sender.getBalance(recipient, "AVAX")).toBe(AVAX);
    expect(await sender.getBalance(recipient, "USDT")).toBe(20n * USDT);
    expect(await sender.getBalance(wallet, "AVAX")).toBe(2n * AVAX - 2n * feeMinor);
  });

  it("refuses a currency the network does not carry, for good", async () => {
    const error = await createSandboxSender(getTestDb(), NETWORK)
      .getBalance(randomSandboxPayerAddress(NETWORK), "TRX")
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ChainError);
    expect((error as ChainError).retryable).toBe(false);
  });
});
