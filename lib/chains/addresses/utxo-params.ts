import type { Network as BitcoinjsNetwork } from "bitcoinjs-lib";
import type { NetworkId } from "@/lib/catalogue";
import type { AddressChain } from "@/lib/chains/addresses/address-chain";

/** Address and key encoding of one UTXO network on one chain (networks.md §2). */
export interface UtxoParams {
  /** bitcoinjs-lib parameters; the first version of each list below is the one used for new addresses. */
  readonly bitcoinjs: BitcoinjsNetwork;
  /** Base58 version bytes accepted for P2PKH addresses. */
  readonly pubKeyHashVersions: readonly number[];
  /** Base58 version bytes accepted for P2SH addresses. */
  readonly scriptHashVersions: readonly number[];
  /** Segwit HRP, or null where the network has no segwit (dogecoin). */
  readonly bech32Prefix: string | null;
  /** Script of the deposit addresses we derive. */
  readonly depositType: "p2wpkh" | "p2pkh";
  /** BIP-43 purpose of the deposit account: 84 for native segwit, 44 for legacy P2PKH. */
  readonly purpose: 44 | 84;
  /** SLIP-44 coin type; test and regtest accounts use 1 on every network. */
  readonly coinType: number;
}

const XPUB = { public: 0x0488b21e, private: 0x0488ade4 };
const TPUB = { public: 0x043587cf, private: 0x04358394 };
const DOGE_DGUB = { public: 0x02facafd, private: 0x02fac398 };

const BITCOIN_MESSAGE_PREFIX = "\x18Bitcoin Signed Message:\n";
const LITECOIN_MESSAGE_PREFIX = "\x19Litecoin Signed Message:\n";
const DOGECOIN_MESSAGE_PREFIX = "\x19Dogecoin Signed Message:\n";

function defineParams(input: {
  messagePrefix: string;
  bip32: { public: number; private: number };
  wif: number;
  pubKeyHashVersions: readonly number[];
  scriptHashVersions: readonly number[];
  bech32Prefix: string | null;
  depositType: "p2wpkh" | "p2pkh";
  purpose: 44 | 84;
  coinType: number;
}): UtxoParams {
  return {
    bitcoinjs: {
      messagePrefix: input.messagePrefix,
      // bitcoinjs wants a string; an HRP no real address can carry keeps dogecoin free of segwit.
      bech32: input.bech32Prefix ?? "",
      bip32: input.bip32,
      pubKeyHash: input.pubKeyHashVersions[0],
      scriptHash: input.scriptHashVersions[0],
      wif: input.wif,
    },
    pubKeyHashVersions: input.pubKeyHashVersions,
    scriptHashVersions: input.scriptHashVersions,
    bech32Prefix: input.bech32Prefix,
    depositType: input.depositType,
    purpose: input.purpose,
    coinType: input.coinType,
  };
}

const UTXO_PARAMS: Partial<Record<NetworkId, Record<AddressChain, UtxoParams>>> = {
  bitcoin: {
    main: defineParams({
      messagePrefix: BITCOIN_MESSAGE_PREFIX, bip32: XPUB, wif: 0x80,
      pubKeyHashVersions: [0x00], scriptHashVersions: [0x05], bech32Prefix: "bc",
      depositType: "p2wpkh", purpose: 84, coinType: 0,
    }),
    test: defineParams({
      messagePrefix: BITCOIN_MESSAGE_PREFIX, bip32: TPUB, wif: 0xef,
      pubKeyHashVersions: [0x6f], scriptHashVersions: [0xc4], bech32Prefix: "tb",
      depositType: "p2wpkh", purpose: 84, coinType: 1,
    }),
    regtest: defineParams({
      messagePrefix: BITCOIN_MESSAGE_PREFIX, bip32: TPUB, wif: 0xef,
      pubKeyHashVersions: [0x6f], scriptHashVersions: [0xc4], bech32Prefix: "bcrt",
      depositType: "p2wpkh", purpose: 84, coinType: 1,
    }),
  },
  // Litecoin Core still accepts the legacy P2SH versions (0x05 mainnet, 0xc4 test), but those are
  // also bitcoin's `3…`/`2…` addresses. We accept only litecoin's own versions, so that a bitcoin
  // address pasted for litecoin is reported as wrong_network instead of silently paid.
  litecoin: {
    main: defineParams({
      messagePrefix: LITECOIN_MESSAGE_PREFIX, bip32: XPUB, wif: 0xb0,
      pubKeyHashVersions: [0x30], scriptHashVersions: [0x32], bech32Prefix: "ltc",
      depositType: "p2wpkh", purpose: 84, coinType: 2,
    }),
    test: defineParams({
      messagePrefix: LITECOIN_MESSAGE_PREFIX, bip32: TPUB, wif: 0xef,
      pubKeyHashVersions: [0x6f], scriptHashVersions: [0x3a], bech32Prefix: "tltc",
      depositType: "p2wpkh", purpose: 84, coinType: 1,
    }),
    regtest: defineParams({
      messagePrefix: LITECOIN_MESSAGE_PREFIX, bip32: TPUB, wif: 0xef,
      pubKeyHashVersions: [0x6f], scriptHashVersions: [0x3a], bech32Prefix: "rltc",
      depositType: "p2wpkh", purpose: 84, coinType: 1,
    }),
  },
  // Dogecoin has no segwit in use, so deposits are P2PKH under BIP-44.
  dogecoin: {
    main: defineParams({
      messagePrefix: DOGECOIN_MESSAGE_PREFIX, bip32: DOGE_DGUB, wif: 0x9e,
      pubKeyHashVersions: [0x1e], scriptHashVersions: [0x16], bech32Prefix: null,
      depositType: "p2pkh", purpose: 44, coinType: 3,
    }),
    // networks.md §2: test/regtest extended-key versions vary by node version; tpub (Core 1.21-dev) is used.
    test: defineParams({
      messagePrefix: DOGECOIN_MESSAGE_PREFIX, bip32: TPUB, wif: 0xf1,
      pubKeyHashVersions: [0x71], scriptHashVersions: [0xc4], bech32Prefix: null,
      depositType: "p2pkh", purpose: 44, coinType: 1,
    }),
    // Regtest P2PKH is 0x6f in the released 1.14.x line and 0x71 in 1.21-dev (networks.md §2):
    // new addresses use 0x6f, validation accepts both.
    regtest: defineParams({
      messagePrefix: DOGECOIN_MESSAGE_PREFIX, bip32: TPUB, wif: 0xef,
      pubKeyHashVersions: [0x6f, 0x71], scriptHashVersions: [0xc4], bech32Prefix: null,
      depositType: "p2pkh", purpose: 44, coinType: 1,
    }),
  },
};

/** Encoding parameters of a UTXO network on a chain; null for networks of other families. */
export function findUtxoParams(network: NetworkId, chain: AddressChain): UtxoParams | null {
  return UTXO_PARAMS[network]?.[chain] ?? null;
}

/** Like `findUtxoParams`, but throws for a network that is not in the UTXO table. */
export function getUtxoParams(network: NetworkId, chain: AddressChain): UtxoParams {
  const params = findUtxoParams(network, chain);
  if (!params) throw new Error(`${network} has no UTXO address parameters`);
  return params;
}
