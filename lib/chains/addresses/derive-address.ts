import { createHmac } from "node:crypto";
import * as ecc from "@bitcoinerlab/secp256k1";
import * as libsecp256k1 from "tiny-secp256k1";
import { ed25519 } from "@noble/curves/ed25519";
import { BIP32Factory, type BIP32Interface } from "bip32";
import { payments } from "bitcoinjs-lib";
import bs58 from "bs58";
import type { NetworkId } from "@/lib/catalogue";
import type { AddressChain } from "@/lib/chains/addresses/address-chain";
import {
  ED25519_FAMILIES,
  XPUB_FAMILIES,
  assertChildIndex,
  getDepositPath,
  getEd25519DepositPath,
  getExtendedKeyVersions,
  getFamilyOrThrow,
} from "@/lib/chains/addresses/derivation-paths";
import { formatEvmAddress } from "@/lib/chains/addresses/evm-address";
import { pointArithmetic } from "@/lib/chains/addresses/point-arithmetic";
import { deriveSlip10Ed25519 } from "@/lib/chains/addresses/slip10";
import { computeWalletV4R2AccountId, formatTonAddress } from "@/lib/chains/addresses/ton-address";
import { formatTronAddress } from "@/lib/chains/addresses/tron-address";
import { getUtxoParams } from "@/lib/chains/addresses/utxo-params";

const bip32 = BIP32Factory(ecc);

/** Depth of an account-level key: m / purpose' / coin' / account'. */
const ACCOUNT_DEPTH = 3;
/** BIP-44 external (receive) chain; the change chain (1) is never used for deposits. */
const RECEIVE_CHAIN = 0;

/** A deposit address and the full BIP-32 / SLIP-10 path of its key. */
export interface DepositAddress {
  readonly address: string;
  /** e.g. `m/84'/0'/0'/0/7`; the signer derives the private key from the seed along this path. */
  readonly path: string;
}

export interface Ed25519DepositAddress extends DepositAddress {
  /** The 32-byte ed25519 public key of the deposit key. */
  readonly publicKey: Uint8Array;
}

export interface DeriveDepositAddressInput {
  readonly network: NetworkId;
  /** Account-level extended public key (`m/84'/0'/0'` for bitcoin), as made by `deriveAccountXpubs`. */
  readonly accountXpub: string;
  /** Invoice address index, 0 to 2^31 − 1. */
  readonly index: number;
  /** Which chain's encoding to use; only UTXO networks differ. Defaults to "main". */
  readonly chain?: AddressChain;
}

/** Parses an account xpub for `network` and refuses anything that is not a public account-level key. */
function parseAccountXpub(network: NetworkId, accountXpub: string, chain: AddressChain): BIP32Interface {
  let node: BIP32Interface;
  try {
    node = bip32.fromBase58(accountXpub, getExtendedKeyVersions(network, chain));
  } catch (error) {
    throw new Error(`Not an extended public key for ${network} (${chain})`, { cause: error });
  }
  // The web process must only ever see public keys; an xprv here means a leaked secret.
  if (!node.isNeutered()) throw new Error(`Expected an extended public key for ${network}, got a private one`);
  if (node.depth !== ACCOUNT_DEPTH) {
    throw new Error(`Expected an account-level key (depth ${ACCOUNT_DEPTH}) for ${network}, got depth ${node.depth}`);
  }
  return node;
}

function formatUtxoAddress(network: NetworkId, chain: AddressChain, publicKey: Uint8Array): string {
  const params = getUtxoParams(network, chain);
  const payment =
    params.depositType === "p2wpkh"
      ? payments.p2wpkh({ pubkey: publicKey, network: params.bitcoinjs })
      : payments.p2pkh({ pubkey: publicKey, network: params.bitcoinjs });
  if (!payment.address) throw new Error(`Could not encode a ${network} address`);
  return payment.address;
}

/** A parsed `<account>/0` node, whose public key each address of the chain is derived from. */
interface ReceiveChainKey {
  readonly node: BIP32Interface;
  /** Its public key uncompressed: libsecp256k1 then parses it without a square root. */
  readonly uncompressed: Uint8Array;
}

const receiveChainKeys = new Map<string, ReceiveChainKey>();

/** The `<account>/0` node, parsed and derived once per key: each address is then one derivation step. */
function receiveChainKey(network: NetworkId, accountXpub: string, chain: AddressChain): ReceiveChainKey {
  const key = `${network}|${chain}|${accountXpub}`;
  let found = receiveChainKeys.get(key);
  if (!found) {
    const node = parseAccountXpub(network, accountXpub, chain).derive(RECEIVE_CHAIN);
    found = { node, uncompressed: libsecp256k1.pointCompress(node.publicKey, false) };
    receiveChainKeys.set(key, found);
  }
  return found;
}

/**
 * The uncompressed public key of child `index` (BIP-32 CKDpub): K = Kpar + IL·G with
 * IL = HMAC-SHA512(chain code, Kpar ‖ index)[0..32]. The point arithmetic is libsecp256k1's
 * (see pointArithmetic): 35 µs native, 115 µs in WebAssembly, where the pure-JavaScript curve
 * took 220 µs. IL follows from the account xpub, which is public, so nothing here needs to be
 * constant-time.
 */
function deriveReceivePublicKey(parent: ReceiveChainKey, index: number): Uint8Array {
  const data = Buffer.allocUnsafe(37);
  data.set(parent.node.publicKey, 0);
  data.writeUInt32BE(index, 33);
  const tweak = createHmac("sha512", parent.node.chainCode).update(data).digest().subarray(0, 32);
  const child = pointArithmetic.addTweakTimesG(parent.uncompressed, tweak);
  if (child) return child;
  // BIP-32's invalid-key case (odds about 1 in 2^127): the library applies the standard's rule.
  return libsecp256k1.pointCompress(parent.node.derive(index).publicKey, false);
}

/**
 * Deposit address `index` of a UTXO, EVM or Tron network, derived from the account xpub alone
 * (public derivation `<account>/0/<index>`), so the web process never needs the seed.
 */
export function deriveDepositAddress(input: DeriveDepositAddressInput): DepositAddress {
  const { index, ...rest } = input;
  return deriveDepositAddresses({ ...rest, indexes: [index] })[0];
}

/** The deposit addresses at several indexes (as deriveDepositAddress). */
export function deriveDepositAddresses(input: Omit<DeriveDepositAddressInput, "index"> & { readonly indexes: readonly number[] }): DepositAddress[] {
  const { network, accountXpub, indexes, chain = "main" } = input;
  indexes.forEach(assertChildIndex);
  const family = getFamilyOrThrow(network);
  if (!XPUB_FAMILIES.has(family)) {
    throw new Error(`${network} keys are ed25519; use deriveEd25519DepositAddress`);
  }
  const parent = receiveChainKey(network, accountXpub, chain);
  return indexes.map((index) => {
    const path = getDepositPath(network, index, chain);
    // The account hash of EVM and Tron is defined over the uncompressed key, the form derived.
    const uncompressed = deriveReceivePublicKey(parent, index);
    if (family === "utxo") return { address: formatUtxoAddress(network, chain, pointArithmetic.compress(uncompressed)), path };
    if (family === "evm") return { address: formatEvmAddress(uncompressed), path };
    return { address: formatTronAddress(uncompressed), path };
  });
}

export interface DeriveEd25519DepositAddressInput {
  readonly network: NetworkId;
  /** BIP-39 seed (64 bytes from a mnemonic) or another 16–64 byte master seed. */
  readonly seed: Uint8Array;
  /** Invoice address index, 0 to 2^31 − 1. */
  readonly index: number;
  /** "test" flags TON addresses testnet-only; Solana addresses are the same everywhere. Defaults to "main". */
  readonly chain?: AddressChain;
}

/**
 * Deposit address `index` of an ed25519 network (Solana, TON). SLIP-10 ed25519 is hardened-only, so
 * this needs the seed: Solana gets base58 of the public key, TON the non-bounceable (`UQ…`) address of
 * a wallet v4R2 on workchain 0.
 */
export function deriveEd25519DepositAddress(input: DeriveEd25519DepositAddressInput): Ed25519DepositAddress {
  const { network, seed, index, chain = "main" } = input;
  const family = getFamilyOrThrow(network);
  if (!ED25519_FAMILIES.has(family)) throw new Error(`${network} keys are not ed25519; use deriveDepositAddress`);
  if (seed.length < 16 || seed.length > 64) throw new Error("A master seed has 16 to 64 bytes");

  const path = getEd25519DepositPath(network, index);
  const publicKey = ed25519.getPublicKey(deriveSlip10Ed25519(seed, path).privateKey);
  if (family === "solana") return { address: bs58.encode(publicKey), path, publicKey };
  // TON docs: show wallet (deposit) addresses non-bounceable, because the wallet is not deployed yet.
  const address = formatTonAddress({
    workchain: 0,
    hash: computeWalletV4R2AccountId(publicKey),
    isBounceable: false,
    isTestOnly: chain === "test",
  });
  return { address, path, publicKey };
}
