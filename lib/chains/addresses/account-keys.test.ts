import { validateMnemonic } from "bip39";
import { describe, expect, it } from "vitest";
import { listNetworks } from "@/lib/catalogue";
import { createRandomMasterSeed, deriveAccountXpubs, deriveMasterSeed } from "@/lib/chains/addresses/account-keys";
import { deriveDepositAddress } from "@/lib/chains/addresses/derive-address";

const TEST_MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";

describe("deriveMasterSeed", () => {
  it("gives the BIP-39 seed of the test mnemonic (empty passphrase)", () => {
    expect(Buffer.from(deriveMasterSeed(TEST_MNEMONIC)).toString("hex")).toBe(
      "5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4",
    );
  });

  it("ignores extra whitespace between words", () => {
    expect(deriveMasterSeed(`  ${TEST_MNEMONIC.replaceAll(" ", "  ")}\n`)).toEqual(deriveMasterSeed(TEST_MNEMONIC));
  });

  it("refuses words with a bad checksum", () => {
    expect(() => deriveMasterSeed(TEST_MNEMONIC.replace(/about$/, "abandon"))).toThrow(/BIP-39/);
  });
});

describe("deriveAccountXpubs", () => {
  const xpubs = deriveAccountXpubs(deriveMasterSeed(TEST_MNEMONIC));

  it("covers every UTXO, EVM and Tron network and no ed25519 network", () => {
    const expected = listNetworks()
      .filter((network) => ["utxo", "evm", "tron"].includes(network.family))
      .map((network) => network.id);
    expect(Object.keys(xpubs).sort()).toEqual([...expected].sort());
    expect(xpubs.solana).toBeUndefined();
    expect(xpubs.ton).toBeUndefined();
  });

  it("encodes each key with the network's extended-key version", () => {
    expect(xpubs.bitcoin).toMatch(/^xpub/);
    expect(xpubs.litecoin).toMatch(/^xpub/);
    expect(xpubs.dogecoin).toMatch(/^dgub/);
    expect(xpubs.tron).toMatch(/^xpub/);
    expect(new Set([xpubs.ethereum, xpubs.bsc, xpubs.polygon, xpubs.arbitrum, xpubs.base, xpubs.optimism, xpubs.avalanche]).size).toBe(1);
  });

  it("uses tpub and coin type 1 on test chains", () => {
    const regtest = deriveAccountXpubs(deriveMasterSeed(TEST_MNEMONIC), { chain: "regtest" });
    expect(regtest.bitcoin).toMatch(/^tpub/);
    // Bitcoin and litecoin test accounts share m/84'/1'/0', so the key is the same.
    expect(regtest.litecoin).toBe(regtest.bitcoin);
    expect(regtest.ethereum).toBe(xpubs.ethereum);
  });
});

describe("createRandomMasterSeed", () => {
  it("returns a valid 24-word mnemonic and the seed it stands for", () => {
    const { mnemonic, seed } = createRandomMasterSeed();
    expect(mnemonic.split(" ")).toHaveLength(24);
    expect(validateMnemonic(mnemonic)).toBe(true);
    expect(seed).toEqual(deriveMasterSeed(mnemonic));
  });

  it("is random and usable at once", () => {
    const first = createRandomMasterSeed();
    const second = createRandomMasterSeed();
    expect(first.mnemonic).not.toBe(second.mnemonic);
    const accountXpub = deriveAccountXpubs(first.seed).bitcoin;
    if (!accountXpub) throw new Error("no bitcoin xpub");
    expect(deriveDepositAddress({ network: "bitcoin", accountXpub, index: 0 }).address).toMatch(/^bc1q/);
  });
});
