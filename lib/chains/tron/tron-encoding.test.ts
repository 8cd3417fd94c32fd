import { TronWeb, utils } from "tronweb";
import { describe, expect, it } from "vitest";
import {
  decodeTrc20TransferCall,
  encodeTrc20TransferArguments,
  TRC20_TRANSFER_SELECTOR,
  tronAddressToHex,
  tronHexToAddress,
} from "@/lib/chains/tron/tron-encoding";

const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const RECIPIENT = "TPLkz8rzTT7gKRS1bUm3hBcvw1EExAbKTV";

describe("Tron address forms", () => {
  it.each([USDT, RECIPIENT, "TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH"])("%s ↔ hex as TronWeb converts it", (address) => {
    const hex = TronWeb.address.toHex(address).toLowerCase();
    expect(tronAddressToHex(address)).toBe(hex);
    expect(tronHexToAddress(hex)).toBe(address);
    expect(tronHexToAddress(hex.toUpperCase())).toBe(address);
  });

  it("knows the USDT contract in hex", () => {
    expect(tronAddressToHex(USDT)).toBe("41a614f803b6fd780986a42c78ec9c7f77e6ded13c");
  });

  it.each(["0x9858EfFD232B4033E47d90003D41EC34EcaEda94", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u", ""])("refuses %j", (text) => {
    expect(tronAddressToHex(text)).toBeNull();
  });

  it.each(["a0" + "11".repeat(20), "41" + "11".repeat(19), "41" + "11".repeat(21)])("refuses hex %s", (hex) => {
    expect(tronHexToAddress(hex)).toBeNull();
  });
});

describe("transfer(address,uint256) call data", () => {
  it("has the selector of keccak256('transfer(address,uint256)')", () => {
    expect(utils.ethersUtils.keccak256(new TextEncoder().encode("transfer(address,uint256)")).slice(2, 10)).toBe(TRC20_TRANSFER_SELECTOR);
  });

  it("encodes arguments as TronWeb's ABI coder does", () => {
    const expected = utils.abi.encodeParams(["address", "uint256"], [RECIPIENT, 250_000_000n]).replace(/^0x/, "");
    expect(encodeTrc20TransferArguments(RECIPIENT, 250_000_000n)).toBe(expected);
  });

  it.each([0n, 1n, 250_000_000n, 2n ** 256n - 1n])("decodes what it encodes (%s)", (amount) => {
    expect(decodeTrc20TransferCall(TRC20_TRANSFER_SELECTOR + encodeTrc20TransferArguments(RECIPIENT, amount))).toEqual({ toAddress: RECIPIENT, amount });
  });

  it("takes the low 20 bytes of the address word, as the token does", () => {
    const hash = tronAddressToHex(RECIPIENT)!.slice(2);
    const amount = "0".repeat(63) + "1";
    expect(decodeTrc20TransferCall(`a9059cbb${"0".repeat(22)}41${hash}${amount}`)).toEqual({ toAddress: RECIPIENT, amount: 1n });
  });

  it.each([
    ["another selector", "095ea7b3" + "0".repeat(128)],
    ["short data", "a9059cbb" + "0".repeat(127)],
    ["not hex", "a9059cbb" + "z".repeat(128)],
  ])("returns null for %s", (_, data) => {
    expect(decodeTrc20TransferCall(data)).toBeNull();
  });

  it("refuses an amount above uint256", () => {
    expect(() => encodeTrc20TransferArguments(RECIPIENT, 2n ** 256n)).toThrow();
  });
});
