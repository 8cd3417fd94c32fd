import { Address, beginCell, comment, external, loadMessage, storeMessage } from "@ton/core";
import { describe, expect, it } from "vitest";
import {
  buildJettonTransferBody,
  normalizedExternalHash,
  normalizedHashOfMessage,
  OP_JETTON_TRANSFER,
  OP_JETTON_TRANSFER_NOTIFICATION,
  parseJettonNotification,
  readTextComment,
} from "@/lib/chains/ton/ton-messages";

const alice = Address.parse(`0:${"a1".repeat(32)}`);
const bob = Address.parse(`0:${"b2".repeat(32)}`);

describe("TON message helpers", () => {
  it("builds a TEP-74 transfer: fields in order, memo as a comment in a forward_payload ref", () => {
    const body = buildJettonTransferBody({ queryId: 9n, amount: 1_500_000n, destination: alice, responseDestination: bob, forwardTonAmount: 1n, memo: "inv-1" });
    const slice = body.beginParse();
    expect(slice.loadUint(32)).toBe(OP_JETTON_TRANSFER);
    expect(slice.loadUintBig(64)).toBe(9n);
    expect(slice.loadCoins()).toBe(1_500_000n);
    expect(slice.loadAddress().equals(alice)).toBe(true);
    expect(slice.loadAddress().equals(bob)).toBe(true);
    expect(slice.loadBit()).toBe(false); // no custom_payload
    expect(slice.loadCoins()).toBe(1n);
    expect(slice.loadBit()).toBe(true); // forward_payload in a ref
    expect(readTextComment(slice.loadRef().beginParse())).toBe("inv-1");

    const withoutMemo = buildJettonTransferBody({ queryId: 1n, amount: 1n, destination: alice, responseDestination: bob, forwardTonAmount: 1n }).beginParse();
    withoutMemo.skip(32 + 64);
    withoutMemo.loadCoins();
    withoutMemo.loadAddress();
    withoutMemo.loadAddress();
    withoutMemo.skip(1);
    withoutMemo.loadCoins();
    expect(withoutMemo.loadBit()).toBe(false);
    expect(withoutMemo.remainingBits).toBe(0);
  });

  it.each([
    ["inline comment", (b: ReturnType<typeof beginCell>) => b.storeBit(false).storeUint(0, 32).storeStringTail("hello"), "hello"],
    ["comment in a ref", (b: ReturnType<typeof beginCell>) => b.storeBit(true).storeRef(comment("in ref")), "in ref"],
    ["empty payload", (b: ReturnType<typeof beginCell>) => b.storeBit(false), null],
    ["binary payload", (b: ReturnType<typeof beginCell>) => b.storeBit(false).storeUint(0xdeadbeef, 32), null],
  ])("parses a transfer_notification with %s", (_label, payload, memo) => {
    const body = payload(beginCell().storeUint(OP_JETTON_TRANSFER_NOTIFICATION, 32).storeUint(5, 64).storeCoins(42n).storeAddress(alice)).endCell();
    const notification = parseJettonNotification(body);
    expect(notification).toMatchObject({ queryId: 5n, amount: 42n, memo });
    expect(notification?.sender?.equals(alice)).toBe(true);
  });

  it("does not take other bodies for notifications", () => {
    expect(parseJettonNotification(comment("hi"))).toBeNull();
    expect(parseJettonNotification(beginCell().storeUint(OP_JETTON_TRANSFER_NOTIFICATION, 32).storeUint(1, 8).endCell())).toBeNull();
    expect(readTextComment(beginCell().storeUint(1, 32).endCell().beginParse())).toBeNull();
  });

  it("normalises external messages (TEP-467): the same hash with or without state init and body inline or in a ref", () => {
    const body = beginCell().storeUint(0xabcdef, 24).endCell();
    const expected = normalizedExternalHash(alice, body);
    const withInit = external({ to: alice, body, init: { code: beginCell().storeUint(1, 8).endCell(), data: beginCell().endCell() } });
    const roundTripped = loadMessage(beginCell().store(storeMessage(withInit)).endCell().beginParse());
    expect(normalizedHashOfMessage(roundTripped)).toBe(expected);
    expect(normalizedHashOfMessage(external({ to: alice, body }))).toBe(expected);
    expect(normalizedExternalHash(bob, body)).not.toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });
});
