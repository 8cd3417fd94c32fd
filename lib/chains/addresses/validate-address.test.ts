import { describe, expect, it } from "vitest";
import type { NetworkId } from "@/lib/catalogue";
import type { AddressChain } from "@/lib/chains/addresses/address-chain";
import { validateAddress, type AddressValidation } from "@/lib/chains/addresses/validate-address";

type Row = readonly [network: NetworkId, address: string, expected: AddressValidation, chain?: AddressChain];

const ok = (normalized: string): AddressValidation => ({ ok: true, normalized });
const MALFORMED: AddressValidation = { ok: false, reason: "malformed" };
const WRONG_NETWORK: AddressValidation = { ok: false, reason: "wrong_network" };

const BTC_P2WPKH = "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu";
const EVM = "0x9858EfFD232B4033E47d90003D41EC34EcaEda94";
const TRON = "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH";
const SOLANA = "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk";
const TON_NON_BOUNCEABLE = "UQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-RKY";

function runTable(rows: readonly Row[]): void {
  const cases = rows.map(([network, address, expected, chain]) => ({ network, address, expected, chain }));
  it.each(cases)("$network $address ($chain)", ({ network, address, expected, chain }) => {
    expect(validateAddress(network, address, { chain })).toEqual(expected);
  });
}

describe("validateAddress: bitcoin", () => {
  runTable([
    ["bitcoin", BTC_P2WPKH, ok(BTC_P2WPKH)],
    // bech32 may be written all upper case (QR codes); it normalises to lower case.
    ["bitcoin", BTC_P2WPKH.toUpperCase(), ok(BTC_P2WPKH)],
    ["bitcoin", "bc1qpyysjzgfpyysjzgfpyysjzgfpyysjzgfpyysjzgfpyysjzgfpyys8frmrc", ok("bc1qpyysjzgfpyysjzgfpyysjzgfpyysjzgfpyysjzgfpyysjzgfpyys8frmrc")],
    // BIP-86 first taproot address of the test mnemonic (bech32m).
    ["bitcoin", "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr", ok("bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr")],
    // BIP-44 and BIP-49 first addresses of the test mnemonic.
    ["bitcoin", "1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA", ok("1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA")],
    ["bitcoin", "37VucYSaXLCAsxYyAPfbSi9eh4iEcbShgf", ok("37VucYSaXLCAsxYyAPfbSi9eh4iEcbShgf")],
    ["bitcoin", "tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl", ok("tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl"), "test"],
    ["bitcoin", "bcrt1q6rz28mcfaxtmd6v789l9rrlrusdprr9pz3cppk", ok("bcrt1q6rz28mcfaxtmd6v789l9rrlrusdprr9pz3cppk"), "regtest"],
    ["bitcoin", "2My47gHNc8nhX5kBWqXHU4f8uuQvQKEgwMd", ok("2My47gHNc8nhX5kBWqXHU4f8uuQvQKEgwMd"), "test"],

    ["bitcoin", "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyv", MALFORMED], // checksum
    ["bitcoin", "bc1qCR8te4kr609gcawutmrza0j4xv80jy8z306fyu", MALFORMED], // mixed case
    ["bitcoin", "bc1qqurswpc8qurswpc8qurswpc8qurswpc8s4fapw", MALFORMED], // v0 with a bech32m checksum
    ["bitcoin", "bc1pqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvpse2hjr3", MALFORMED], // v1 with a bech32 checksum
    ["bitcoin", "bc1pqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcr2llkq0", MALFORMED], // v1 with a 20-byte program
    ["bitcoin", "bc1zqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvpsyt73gc", MALFORMED], // v2: no spending rules yet
    ["bitcoin", "1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabB", MALFORMED], // base58 checksum
    ["bitcoin", "", MALFORMED],
    ["bitcoin", ` ${BTC_P2WPKH}`, MALFORMED],

    ["bitcoin", "tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl", WRONG_NETWORK], // testnet on main
    ["bitcoin", "2My47gHNc8nhX5kBWqXHU4f8uuQvQKEgwMd", WRONG_NETWORK],
    ["bitcoin", BTC_P2WPKH, WRONG_NETWORK, "regtest"],
    ["bitcoin", "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh", WRONG_NETWORK],
    ["bitcoin", "DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC", WRONG_NETWORK],
    ["bitcoin", EVM, WRONG_NETWORK],
    ["bitcoin", SOLANA, WRONG_NETWORK],
  ]);
});

describe("validateAddress: litecoin", () => {
  runTable([
    ["litecoin", "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh", ok("ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh")],
    ["litecoin", "ltc1pqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvps0jfwuk", ok("ltc1pqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvps0jfwuk")],
    // BIP-44 litecoin first address of the test mnemonic, and a P2SH with litecoin's own version 0x32.
    ["litecoin", "LUWPbpM43E2p7ZSh8cyTBEkvpHmr3cB8Ez", ok("LUWPbpM43E2p7ZSh8cyTBEkvpHmr3cB8Ez")],
    ["litecoin", "MDi3vRrYUT3bgTpsGGewGMQ41mJgdGfHpA", ok("MDi3vRrYUT3bgTpsGGewGMQ41mJgdGfHpA")],
    ["litecoin", "rltc1q6rz28mcfaxtmd6v789l9rrlrusdprr9puuzgkg", ok("rltc1q6rz28mcfaxtmd6v789l9rrlrusdprr9puuzgkg"), "regtest"],
    ["litecoin", "QSQsoJEr9tkcDvwZTdKV9MaM3oNEGYZtTA", ok("QSQsoJEr9tkcDvwZTdKV9MaM3oNEGYZtTA"), "regtest"],
    ["litecoin", "tltc1q6rz28mcfaxtmd6v789l9rrlrusdprr9pesrjxk", ok("tltc1q6rz28mcfaxtmd6v789l9rrlrusdprr9pesrjxk"), "test"],

    ["litecoin", "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wx", MALFORMED],
    ["litecoin", "ltc1qqvpsxqcrqvpsxqcrqvpsxqcrqvpsxqcrqvggykc0", MALFORMED], // v0 with a 21-byte program
    ["litecoin", "LUWPbpM43E2p7ZSh8cyTBEkvpHmr3cB8E", MALFORMED],

    // A bitcoin address given for litecoin, including the legacy `3…` P2SH that Litecoin Core still accepts.
    ["litecoin", BTC_P2WPKH, WRONG_NETWORK],
    ["litecoin", "37VucYSaXLCAsxYyAPfbSi9eh4iEcbShgf", WRONG_NETWORK],
    ["litecoin", "1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA", WRONG_NETWORK],
    ["litecoin", "rltc1q6rz28mcfaxtmd6v789l9rrlrusdprr9puuzgkg", WRONG_NETWORK],
    ["litecoin", "ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh", WRONG_NETWORK, "regtest"],
    ["litecoin", TRON, WRONG_NETWORK],
  ]);
});

describe("validateAddress: dogecoin", () => {
  runTable([
    ["dogecoin", "DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC", ok("DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC")],
    ["dogecoin", "9xFAMPWUbQ54nKvSaXL1gqn2Pe6GhVApmq", ok("9xFAMPWUbQ54nKvSaXL1gqn2Pe6GhVApmq")], // P2SH 0x16
    ["dogecoin", "nZVmfmUtKPmskB9Ds4P9GUJy9eYFqPKHqH", ok("nZVmfmUtKPmskB9Ds4P9GUJy9eYFqPKHqH"), "test"],
    // Regtest P2PKH is 0x6f in Dogecoin Core 1.14.x and 0x71 in 1.21-dev: both are accepted.
    ["dogecoin", "mkpZhYtJu2r87Js3pDiWJDmPte2NRZ8bJV", ok("mkpZhYtJu2r87Js3pDiWJDmPte2NRZ8bJV"), "regtest"],
    ["dogecoin", "nZVmfmUtKPmskB9Ds4P9GUJy9eYFqPKHqH", ok("nZVmfmUtKPmskB9Ds4P9GUJy9eYFqPKHqH"), "regtest"],

    ["dogecoin", "DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgD", MALFORMED],
    ["dogecoin", "DBus3bamQjgJULBJtYXpEzDWQRwF5iwxg0", MALFORMED], // 0 is not base58

    ["dogecoin", "1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA", WRONG_NETWORK],
    ["dogecoin", BTC_P2WPKH, WRONG_NETWORK], // dogecoin has no segwit
    ["dogecoin", "nZVmfmUtKPmskB9Ds4P9GUJy9eYFqPKHqH", WRONG_NETWORK],
    ["dogecoin", "LUWPbpM43E2p7ZSh8cyTBEkvpHmr3cB8Ez", WRONG_NETWORK],
  ]);
});

describe("validateAddress: EVM", () => {
  runTable([
    ["ethereum", EVM, ok(EVM)],
    ["ethereum", EVM.toLowerCase(), ok(EVM)],
    ["bsc", EVM.toLowerCase(), ok(EVM)],
    ["avalanche", "0xdAC17F958D2ee523a2206206994597C13D831ec7", ok("0xdAC17F958D2ee523a2206206994597C13D831ec7")],
    // A chain does not change EVM addresses.
    ["polygon", EVM, ok(EVM), "regtest"],

    ["ethereum", "0x9858EfFD232B4033E47d90003D41EC34EcaEda95", MALFORMED], // checksum is valid only for ...94
    ["ethereum", "0x9858efFD232B4033E47d90003D41EC34EcaEda94", MALFORMED], // one letter's case flipped
    ["ethereum", "0x9858EFFD232B4033E47D90003D41EC34ECAEDA94", MALFORMED], // all upper case carries no checksum we accept
    ["ethereum", "9858EfFD232B4033E47d90003D41EC34EcaEda94", MALFORMED],
    ["ethereum", "0x9858EfFD232B4033E47d90003D41EC34EcaEda9", MALFORMED],
    ["ethereum", "0x9858EfFD232B4033E47d90003D41EC34EcaEda9g", MALFORMED],

    ["ethereum", TRON, WRONG_NETWORK],
    ["base", BTC_P2WPKH, WRONG_NETWORK],
    ["arbitrum", SOLANA, WRONG_NETWORK],
    ["optimism", TON_NON_BOUNCEABLE, WRONG_NETWORK],
  ]);
});

describe("validateAddress: tron", () => {
  runTable([
    ["tron", TRON, ok(TRON)],
    ["tron", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", ok("TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t")],

    ["tron", "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdJ", MALFORMED], // checksum
    ["tron", "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYd", MALFORMED],
    ["tron", "41c7a0d8e5b86e07eb8b6c54c4e0d2a2e5d98fe1c4", MALFORMED], // the hex form is not a user address

    ["tron", EVM, WRONG_NETWORK],
    ["tron", EVM.toLowerCase(), WRONG_NETWORK],
    ["tron", "1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA", WRONG_NETWORK],
    ["tron", SOLANA, WRONG_NETWORK],
  ]);
});

describe("validateAddress: solana", () => {
  runTable([
    ["solana", SOLANA, ok(SOLANA)],
    ["solana", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", ok("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v")],
    ["solana", "11111111111111111111111111111111", ok("11111111111111111111111111111111")], // the system program

    ["solana", "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3D", MALFORMED], // 40 characters decode to fewer than 32 bytes
    ["solana", "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqkk", MALFORMED],
    ["solana", "HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpq0", MALFORMED], // 0 is not base58
    ["solana", "hello", MALFORMED],

    ["solana", EVM, WRONG_NETWORK],
    ["solana", TRON, WRONG_NETWORK],
    ["solana", "1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA", WRONG_NETWORK],
    ["solana", TON_NON_BOUNCEABLE, WRONG_NETWORK],
  ]);
});

describe("validateAddress: ton", () => {
  runTable([
    ["ton", TON_NON_BOUNCEABLE, ok(TON_NON_BOUNCEABLE)],
    ["ton", "EQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-U9d", ok("EQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-U9d")],
    // Standard base64 is accepted and normalised to base64url.
    ["ton", "UQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9+RKY", ok(TON_NON_BOUNCEABLE)],
    ["ton", "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs", ok("EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs")],
    ["ton", "Ef8zWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-bAV", ok("Ef8zWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-bAV")], // masterchain
    // Raw form carries no flags: it becomes bounceable, as TON libraries print it.
    ["ton", "0:335996ba9cce6625ebfdd7019ced50927c1a08b1846a289a55efc37c01d77df9", ok("EQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-U9d")],
    ["ton", "0:335996BA9CCE6625EBFDD7019CED50927C1A08B1846A289A55EFC37C01D77DF9", ok("EQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-U9d")],
    ["ton", "0QAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-akS", ok("0QAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-akS"), "test"],
    ["ton", "kQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-fTX", ok("kQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-fTX"), "test"],
    ["ton", TON_NON_BOUNCEABLE, ok(TON_NON_BOUNCEABLE), "test"],
    ["ton", "0:335996ba9cce6625ebfdd7019ced50927c1a08b1846a289a55efc37c01d77df9", ok("kQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-fTX"), "test"],

    ["ton", "UQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-RKZ", MALFORMED], // CRC16
    ["ton", "UQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-RK", MALFORMED], // 47 characters
    ["ton", "UQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9+RK_", MALFORMED], // mixed alphabets
    ["ton", "1:335996ba9cce6625ebfdd7019ced50927c1a08b1846a289a55efc37c01d77df9", MALFORMED], // no workchain 1
    ["ton", "0:335996ba9cce6625ebfdd7019ced50927c1a08b1846a289a55efc37c01d77df", MALFORMED],

    // Testnet-only flags on main.
    ["ton", "0QAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-akS", WRONG_NETWORK],
    ["ton", "kQAzWZa6nM5mJev91wGc7VCSfBoIsYRqKJpV78N8Add9-fTX", WRONG_NETWORK],
    ["ton", EVM, WRONG_NETWORK],
    ["ton", SOLANA, WRONG_NETWORK],
  ]);
});
