import * as ecc from "@bitcoinerlab/secp256k1";
import { BIP32Factory } from "bip32";
import { payments } from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import type { NetworkId } from "@/lib/catalogue";
import { deriveAccountXpub, deriveMasterSeed } from "@/lib/chains/addresses/account-keys";
import type { AddressChain } from "@/lib/chains/addresses/address-chain";
import { deriveDepositAddress, deriveDepositAddresses } from "@/lib/chains/addresses/derive-address";
import { getExtendedKeyVersions } from "@/lib/chains/addresses/derivation-paths";
import { formatEvmAddress } from "@/lib/chains/addresses/evm-address";
import { formatTronAddress } from "@/lib/chains/addresses/tron-address";
import { getUtxoParams } from "@/lib/chains/addresses/utxo-params";

const bip32 = BIP32Factory(ecc);
const SEED = deriveMasterSeed("abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about");

/** The address as the bip32 library derives it, step by step from the account xpub. */
function addressByLibrary(network: NetworkId, chain: AddressChain, index: number): string {
  const account = bip32.fromBase58(deriveAccountXpub(SEED, network, chain), getExtendedKeyVersions(network, chain));
  const publicKey = account.derive(0).derive(index).publicKey;
  if (network === "tron") return formatTronAddress(publicKey);
  if (network === "ethereum") return formatEvmAddress(publicKey);
  const params = getUtxoParams(network, chain);
  const payment = params.depositType === "p2wpkh" ? payments.p2wpkh({ pubkey: publicKey, network: params.bitcoinjs }) : payments.p2pkh({ pubkey: publicKey, network: params.bitcoinjs });
  return payment.address!;
}

describe("deriveDepositAddress agrees with the bip32 library's public derivation", () => {
  const indexes = [0, 1, 2, 7, 255, 256, 65_535, 1_000_003, 2_000_000_000, 0x7fffffff];
  it.each([
    ["tron", "main"],
    ["ethereum", "main"],
    ["bitcoin", "main"],
    ["bitcoin", "regtest"],
    ["litecoin", "test"],
    ["dogecoin", "main"],
  ] as const)("%s (%s) at indexes from 0 to 2^31 − 1", (network, chain) => {
    const accountXpub = deriveAccountXpub(SEED, network, chain);
    for (const index of [...indexes, ...Array.from({ length: 40 }, (_, i) => 1000 + i * 37)]) {
      expect(deriveDepositAddress({ network, accountXpub, index, chain }).address).toBe(addressByLibrary(network, chain, index));
    }
  });
});

describe("deriveDepositAddresses agrees too, in the order asked", () => {
  it.each([
    ["tron", "main"],
    ["ethereum", "main"],
    ["bitcoin", "regtest"],
  ] as const)("%s (%s)", (network, chain) => {
    const accountXpub = deriveAccountXpub(SEED, network, chain);
    const indexes = [0x7fffffff, 5, 0, ...Array.from({ length: 60 }, (_, i) => 5000 + i * 11), 5];
    const derived = deriveDepositAddresses({ network, accountXpub, indexes, chain });
    expect(derived.map((address) => address.address)).toEqual(indexes.map((index) => addressByLibrary(network, chain, index)));
    expect(derived[1].path).toMatch(/\/0\/5$/);
  });
});
