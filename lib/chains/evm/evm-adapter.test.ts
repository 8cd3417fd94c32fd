import { describe, expect, test } from "vitest";
import { decodeTransferLog, ERC20_TRANSFER_TOPIC } from "@/lib/chains/evm/evm-adapter";

const addressTopic = (hex40: string) => `0x${"0".repeat(24)}${hex40}`;
const FROM = "f39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const TO = "70997970c51812dc3a010c7d01b50e0d17dc79c8";
const word = (value: bigint) => `0x${value.toString(16).padStart(64, "0")}`;

describe("decodeTransferLog", () => {
  test("an ERC-20 transfer, addresses checksummed", () => {
    expect(decodeTransferLog([ERC20_TRANSFER_TOPIC, addressTopic(FROM), addressTopic(TO)], word(25_000_000n))).toEqual({
      from: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      to: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      amount: 25_000_000n,
    });
  });

  test("the largest uint256", () => {
    expect(decodeTransferLog([ERC20_TRANSFER_TOPIC, addressTopic(FROM), addressTopic(TO)], word(2n ** 256n - 1n))?.amount).toBe(2n ** 256n - 1n);
  });

  test.each([
    ["an ERC-721 transfer (token id indexed)", [ERC20_TRANSFER_TOPIC, addressTopic(FROM), addressTopic(TO), word(7n)], "0x"],
    ["unindexed parameters", [ERC20_TRANSFER_TOPIC], `0x${"0".repeat(192)}`],
    ["another event", [`0x${"12".repeat(32)}`, addressTopic(FROM), addressTopic(TO)], word(1n)],
    ["a topic that is not an address", [ERC20_TRANSFER_TOPIC, `0x${"1".repeat(64)}`, addressTopic(TO)], word(1n)],
    ["a value of the wrong length", [ERC20_TRANSFER_TOPIC, addressTopic(FROM), addressTopic(TO)], "0x01"],
  ])("not decoded: %s", (_name, topics, data) => {
    expect(decodeTransferLog(topics, data)).toBeNull();
  });
});
