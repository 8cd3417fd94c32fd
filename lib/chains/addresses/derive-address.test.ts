import * as ecc from "@bitcoinerlab/secp256k1";
import { BIP32Factory } from "bip32";
import { describe, expect, it } from "vitest";
import { listNetworks, type NetworkId } from "@/lib/catalogue";
import { deriveAccountXpub, deriveAccountXpubs, deriveMasterSeed } from "@/lib/chains/addresses/account-keys";
import { decodeBase58Check, encodeBase58Check } from "@/lib/chains/addresses/base58check";
import { deriveDepositAddress, deriveEd25519DepositAddress } from "@/lib/chains/addresses/derive-address";
import { validateAddress } from "@/lib/chains/addresses/validate-address";

const TEST_MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const SEED = deriveMasterSeed(TEST_MNEMONIC);
const MAIN_XPUBS = deriveAccountXpubs(SEED);
const REGTEST_XPUBS = deriveAccountXpubs(SEED, { chain: "regtest" });

function xpubOf(network: NetworkId): string {
  const xpub = MAIN_XPUBS[network];
  if (!xpub) throw new Error(`no xpub for ${network}`);
  return xpub;
}

describe("deriveDepositAddress from the account xpub (STACK-NOTES §5 vectors, index 0)", () => {
  it.each([
    ["bitcoin", "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu", "m/84'/0'/0'/0/0"],
    ["litecoin", "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh", "m/84'/2'/0'/0/0"],
    // Not in STACK-NOTES: the first BIP-44 Dogecoin receive address of this mnemonic as Ledger Live
    // and the Ian Coleman BIP-39 tool show it.
    ["dogecoin", "DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC", "m/44'/3'/0'/0/0"],
    ["ethereum", "0x9858EfFD232B4033E47d90003D41EC34EcaEda94", "m/44'/60'/0'/0/0"],
    ["tron", "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH", "m/44'/195'/0'/0/0"],
  ] as const)("%s → %s", (network, address, path) => {
    expect(deriveDepositAddress({ network, accountXpub: xpubOf(network), index: 0 })).toEqual({ address, path });
  });

  it("gives the same EVM address on all seven EVM networks", () => {
    const evmNetworks = listNetworks().filter((network) => network.family === "evm");
    expect(evmNetworks).toHaveLength(7);
    for (const network of evmNetworks) {
      expect(deriveDepositAddress({ network: network.id, accountXpub: xpubOf(network.id), index: 0 }).address).toBe(
        "0x9858EfFD232B4033E47d90003D41EC34EcaEda94",
      );
    }
  });

  it("derives the litecoin regtest vector at m/84'/1'/0'/0/0", () => {
    const accountXpub = REGTEST_XPUBS.litecoin;
    if (!accountXpub) throw new Error("no regtest litecoin xpub");
    expect(deriveDepositAddress({ network: "litecoin", accountXpub, index: 0, chain: "regtest" })).toEqual({
      address: "rltc1q6rz28mcfaxtmd6v789l9rrlrusdprr9puuzgkg",
      path: "m/84'/1'/0'/0/0",
    });
  });

  it.each([
    ["bitcoin", "test", "tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl"],
    ["bitcoin", "regtest", "bcrt1q6rz28mcfaxtmd6v789l9rrlrusdprr9pz3cppk"],
    ["litecoin", "test", "tltc1q6rz28mcfaxtmd6v789l9rrlrusdprr9pesrjxk"],
    ["dogecoin", "test", "nZVmfmUtKPmskB9Ds4P9GUJy9eYFqPKHqH"],
    ["dogecoin", "regtest", "mkpZhYtJu2r87Js3pDiWJDmPte2NRZ8bJV"],
  ] as const)("encodes %s %s addresses with that chain's prefix", (network, chain, address) => {
    const accountXpub = deriveAccountXpub(SEED, network, chain);
    expect(deriveDepositAddress({ network, accountXpub, index: 0, chain }).address).toBe(address);
  });
});

describe("BIP-84 published test vector", () => {
  // bip-0084.mediawiki, account 0: the account zprv and the first two receive addresses.
  const BIP84_ACCOUNT_ZPRV =
    "zprvAdG4iTXWBoARxkkzNpNh8r6Qag3irQB8PzEMkAFeTRXxHpbF9z4QgEvBRmfvqWvGp42t42nvgGpNgYSJA9iefm1yYNZKEm7z6qUWCroSQnE";

  /** The BIP's xpub, built independently of `deriveAccountXpubs`: re-version the zprv to xprv, then neuter it. */
  function bip84AccountXpub(): string {
    const payload = decodeBase58Check(BIP84_ACCOUNT_ZPRV);
    if (!payload) throw new Error("bad zprv");
    const xprv = new Uint8Array(payload);
    new DataView(xprv.buffer).setUint32(0, 0x0488ade4, false);
    return BIP32Factory(ecc).fromBase58(encodeBase58Check(xprv)).neutered().toBase58();
  }

  it("matches the account xpub the operator tool derives", () => {
    expect(bip84AccountXpub()).toBe(xpubOf("bitcoin"));
  });

  it.each([
    [0, "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu"],
    [1, "bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g"],
  ])("receive address %i", (index, address) => {
    expect(deriveDepositAddress({ network: "bitcoin", accountXpub: bip84AccountXpub(), index }).address).toBe(address);
  });
});

describe("distinct addresses per index", () => {
  const INDEXES = Array.from({ length: 100 }, (_, index) => index);

  it.each(listNetworks().filter((network) => network.family !== "solana" && network.family !== "ton").map((network) => network.id))(
    "%s: indexes 0..99 give 100 distinct addresses, each valid for the network",
    (network) => {
      const addresses = INDEXES.map((index) => deriveDepositAddress({ network, accountXpub: xpubOf(network), index }).address);
      expect(new Set(addresses).size).toBe(100);
      for (const address of addresses) expect(validateAddress(network, address)).toEqual({ ok: true, normalized: address });
    },
  );

  it.each(["solana", "ton"] as const)("%s: indexes 0..99 give 100 distinct addresses, each valid for the network", (network) => {
    const addresses = INDEXES.map((index) => deriveEd25519DepositAddress({ network, seed: SEED, index }).address);
    expect(new Set(addresses).size).toBe(100);
    for (const address of addresses) expect(validateAddress(network, address)).toEqual({ ok: true, normalized: address });
  });
});

describe("deriveEd25519DepositAddress", () => {
  it("derives the Solana vector at m/44'/501'/0'/0'", () => {
    const derived = deriveEd25519DepositAddress({ network: "solana", seed: SEED, index: 0 });
    expect(derived.address).toBe("HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk");
    expect(derived.path).toBe("m/44'/501'/0'/0'");
    expect(derived.publicKey).toHaveLength(32);
  });

  it("derives the TON wallet v4R2 vector at m/44'/607'/0'", () => {
    const derived = deriveEd25519DepositAddress({ network: "ton", seed: SEED, index: 0 });
    expect(derived.address).toBe("UQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-RKY");
    expect(derived.path).toBe("m/44'/607'/0'");
  });

  it("puts the index in the hardened account level", () => {
    expect(deriveEd25519DepositAddress({ network: "solana", seed: SEED, index: 7 }).path).toBe("m/44'/501'/7'/0'");
    expect(deriveEd25519DepositAddress({ network: "ton", seed: SEED, index: 7 }).path).toBe("m/44'/607'/7'");
  });

  it("flags TON addresses testnet-only on the test chain", () => {
    expect(deriveEd25519DepositAddress({ network: "ton", seed: SEED, index: 0, chain: "test" }).address).toBe(
      "0QAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-akS",
    );
  });

  it("refuses secp256k1 networks and bad seeds", () => {
    expect(() => deriveEd25519DepositAddress({ network: "ethereum", seed: SEED, index: 0 })).toThrow(/not ed25519/);
    expect(() => deriveEd25519DepositAddress({ network: "solana", seed: new Uint8Array(8), index: 0 })).toThrow(/16 to 64/);
  });
});

describe("deriveDepositAddress refuses bad input", () => {
  it("refuses an xprv: the web process must only hold public keys", () => {
    const xprv = BIP32Factory(ecc).fromSeed(SEED).derivePath("m/84'/0'/0'").toBase58();
    expect(() => deriveDepositAddress({ network: "bitcoin", accountXpub: xprv, index: 0 })).toThrow(/private/);
  });

  it("refuses a key that is not at account depth", () => {
    const rootXpub = BIP32Factory(ecc).fromSeed(SEED).neutered().toBase58();
    expect(() => deriveDepositAddress({ network: "bitcoin", accountXpub: rootXpub, index: 0 })).toThrow(/depth 3/);
  });

  it("refuses an xpub with another chain's version bytes", () => {
    expect(() => deriveDepositAddress({ network: "bitcoin", accountXpub: xpubOf("bitcoin"), index: 0, chain: "test" })).toThrow(
      /Not an extended public key/,
    );
    expect(() => deriveDepositAddress({ network: "dogecoin", accountXpub: xpubOf("bitcoin"), index: 0 })).toThrow(
      /Not an extended public key/,
    );
  });

  it.each([-1, 1.5, 2 ** 31, Number.NaN])("refuses index %s", (index) => {
    expect(() => deriveDepositAddress({ network: "bitcoin", accountXpub: xpubOf("bitcoin"), index })).toThrow(RangeError);
  });

  it("sends ed25519 networks to deriveEd25519DepositAddress", () => {
    expect(() => deriveDepositAddress({ network: "solana", accountXpub: xpubOf("bitcoin"), index: 0 })).toThrow(
      /deriveEd25519DepositAddress/,
    );
  });
});
