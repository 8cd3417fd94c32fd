import * as ecc from "@bitcoinerlab/secp256k1";
import { BIP32Factory } from "bip32";
import { TronWeb, utils, type Types } from "tronweb";
import { describe, expect, it } from "vitest";
import { deriveAccountXpubs, deriveDepositAddress, deriveMasterSeed } from "@/lib/chains/addresses";
import { bytesToHex, hexToBytes } from "@/lib/chains/tron/tron-encoding";
import { readFixtureJson } from "@/lib/chains/tron/testing/tron-recorded-conversation";
import { computeTronTxId, recoverTronSigner, signTronTxId, tronAddressOfPrivateKey } from "@/lib/chains/tron/tron-signer";
import { sha256 } from "@noble/hashes/sha2";

const MNEMONIC = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const PATH = "m/44'/195'/0'/0/0";
/** STACK-NOTES §5 Tron vector. */
const VECTOR_ADDRESS = "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH";

const lowerCase = (text: string): string => text.toLowerCase();

function hotWalletPrivateKey(): Uint8Array {
  const key = BIP32Factory(ecc).fromSeed(Buffer.from(deriveMasterSeed(MNEMONIC))).derivePath(PATH).privateKey;
  if (!key) throw new Error("no private key");
  return Uint8Array.from(key);
}

/** An unsigned transaction fixture (createtransaction, or the `transaction` of triggersmartcontract), in TronWeb's type. */
function fixtureTransaction(name: string): Types.Transaction {
  const json = readFixtureJson(name) as { transaction?: Types.Transaction } & Types.Transaction;
  return structuredClone(json.transaction ?? json);
}

describe("derivation (STACK-NOTES §5)", () => {
  it(`derives ${VECTOR_ADDRESS} at ${PATH}, from the xpub and from the private key`, () => {
    const accountXpub = deriveAccountXpubs(deriveMasterSeed(MNEMONIC)).tron;
    if (!accountXpub) throw new Error("no tron xpub");
    expect(deriveDepositAddress({ network: "tron", accountXpub, index: 0 }).address).toBe(VECTOR_ADDRESS);
    expect(tronAddressOfPrivateKey(hotWalletPrivateKey())).toBe(VECTOR_ADDRESS);
  });

  it("agrees with TronWeb's own BIP-39/BIP-44 derivation", () => {
    const account = TronWeb.fromMnemonic(MNEMONIC, PATH);
    expect(account.address).toBe(VECTOR_ADDRESS);
    expect(account.privateKey).toBe(`0x${bytesToHex(hotWalletPrivateKey())}`);
  });
});

describe("transaction ids and signatures, cross-checked with TronWeb", () => {
  const privateKey = hotWalletPrivateKey();
  const privateKeyHex = bytesToHex(privateKey);

  it.each(["createtransaction.json", "triggersmartcontract.json", "docs-createtransaction-nile.json"])(
    "txID of %s is sha256(raw_data_hex), as TronWeb computes it from raw_data",
    (name) => {
      const transaction = fixtureTransaction(name);
      expect(computeTronTxId(transaction.raw_data_hex)).toBe(transaction.txID);
      expect(utils.transaction.txPbToTxID(utils.transaction.txJsonToPb(transaction))).toBe(`0x${transaction.txID}`);
    },
  );

  it.each(["createtransaction.json", "triggersmartcontract.json"])("signs %s exactly as TronWeb does", async (name) => {
    const transaction = fixtureTransaction(name);
    const ours = signTronTxId(computeTronTxId(transaction.raw_data_hex), privateKey);

    const bySigner = utils.crypto.signTransaction(privateKeyHex, fixtureTransaction(name));
    // trx.sign also checks the owner against the key and raw_data against raw_data_hex (txCheck); it makes no request.
    const tronWeb = new TronWeb({ fullHost: "http://127.0.0.1:9" });
    const byTrx = await tronWeb.trx.sign(fixtureTransaction(name), privateKeyHex);

    expect(ours).toMatch(/^[0-9a-f]{128}(1b|1c)$/);
    // TronWeb writes v in upper case ("1B"); nodes read hex in either case.
    expect(bySigner.signature.map(lowerCase)).toEqual([ours]);
    expect(byTrx.signature.map(lowerCase)).toEqual([ours]);
    expect(byTrx.txID).toBe(transaction.txID);
  });

  it("matches TronWeb's ECKeySign over many keys and ids (both recovery ids, leading zeros)", () => {
    const recoveryIds = new Set<string>();
    let hasLeadingZero = false;
    for (let i = 0; i < 40; i++) {
      const key = sha256(new TextEncoder().encode(`key ${i}`));
      const txId = bytesToHex(sha256(new TextEncoder().encode(`tx ${i}`)));
      const ours = signTronTxId(txId, key);
      expect(ours).toBe(utils.crypto.ECKeySign(hexToBytes(txId), key).toLowerCase());
      recoveryIds.add(ours.slice(128));
      hasLeadingZero ||= ours.startsWith("0") || ours.slice(64).startsWith("0");
    }
    expect(recoveryIds).toEqual(new Set(["1b", "1c"]));
    expect(hasLeadingZero).toBe(true);
  });

  it("produces signatures that recover to the signer's address", () => {
    const transaction = fixtureTransaction("createtransaction.json");
    const signature = signTronTxId(transaction.txID, privateKey);
    expect(recoverTronSigner(transaction.txID, signature)).toBe(VECTOR_ADDRESS);
    // TronWeb's recovery (ethers) answers in hex: 41 ‖ account hash.
    expect(TronWeb.address.fromHex(utils.crypto.ecRecover(transaction.txID, signature))).toBe(VECTOR_ADDRESS);
    // Another message recovers to someone else; a malformed signature to nobody.
    expect(recoverTronSigner("00".repeat(32), signature)).not.toBe(VECTOR_ADDRESS);
    expect(recoverTronSigner(transaction.txID, signature.slice(2))).toBeNull();
  });
});
