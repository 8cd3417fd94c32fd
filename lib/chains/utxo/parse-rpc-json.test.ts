import { describe, expect, it } from "vitest";
import { parseRpcJson } from "./parse-rpc-json";

describe("parseRpcJson", () => {
  it.each([
    ["amount with 8 decimals", '{"value":1.23456789}', { value: "1.23456789" }],
    ["amount a float cannot hold", '{"value":20999999.99999999}', { value: "20999999.99999999" }],
    ["trailing zeros kept", '{"amount":50.00000000}', { amount: "50.00000000" }],
    ["negative fee", '{"fee":-0.00000141}', { fee: "-0.00000141" }],
    ["exponent", '{"difficulty":4.6565423739069e-10}', { difficulty: "4.6565423739069e-10" }],
    ["safe integers stay numbers", '{"height":101,"n":0,"confirmations":-1}', { height: 101, n: 0, confirmations: -1 }],
    ["unsafe integer becomes text", '{"big":12345678901234567890}', { big: "12345678901234567890" }],
    ["digits inside strings untouched", '{"hex":"0014ab","desc":"addr(x)#1.5","q":"say \\"2.5\\""}', { hex: "0014ab", desc: "addr(x)#1.5", q: 'say "2.5"' }],
    ["escaped backslash before a quote", '{"a":"x\\\\","b":0.1}', { a: "x\\", b: "0.1" }],
    ["arrays and null", '[1.5,null,true,[2]]', ["1.5", null, true, [2]]],
  ])("%s", (_name, text, expected) => {
    expect(parseRpcJson(text)).toEqual(expected);
  });

  it.each(["", "<html>oops</html>", '{"a":1.}', "{'a':1}", '{"a":01}'])("refuses non-JSON %j", (text) => {
    expect(() => parseRpcJson(text)).toThrow(SyntaxError);
  });

  it("keeps a multi-megabyte hex string intact", () => {
    const hex = "ab".repeat(4_000_000);
    expect(parseRpcJson(`{"hex":"${hex}","value":0.5}`)).toEqual({ hex, value: "0.5" });
  });
});
