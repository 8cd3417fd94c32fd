import { Address } from "@ton/core";
import { keyPairFromSecretKey, keyPairFromSeed, type KeyPair } from "@ton/crypto";
import { WalletContractV4 } from "@ton/ton";
import { ChainError, type SigningKey } from "@/lib/chains/types";

/** A hot wallet ready to sign: its v4R2 contract (address, state init) and key pair. */
export interface TonHotWallet {
  contract: WalletContractV4;
  keyPair: KeyPair;
}

/**
 * The wallet v4R2 (workchain 0, default wallet id) of a signing key, the layout deposit addresses
 * use too. Refuses a key whose address is not that wallet's, so a mixed-up key never signs.
 */
export function openTonHotWallet(key: SigningKey): TonHotWallet {
  let keyPair: KeyPair;
  try {
    // A SLIP-10 key is the 32-byte seed; NaCl-style secret keys are seed + public key (64 bytes).
    keyPair = key.privateKey.length === 64 ? keyPairFromSecretKey(Buffer.from(key.privateKey)) : keyPairFromSeed(Buffer.from(key.privateKey));
  } catch (error) {
    throw new ChainError("ton: the signing key is not an ed25519 key", { retryable: false, cause: error });
  }
  const contract = WalletContractV4.create({ workchain: 0, publicKey: keyPair.publicKey });
  let claimed: Address | null = null;
  try {
    claimed = Address.parse(key.address);
  } catch {
    claimed = null;
  }
  if (!keyPair.publicKey.equals(Buffer.from(key.publicKey)) || !claimed || !claimed.equals(contract.address)) {
    throw new ChainError("ton: the signing key does not belong to its wallet v4R2 address", { retryable: false });
  }
  return { contract, keyPair };
}
