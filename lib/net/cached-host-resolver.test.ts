import { describe, expect, it } from "vitest";
import { createCachedHostResolver, type HostResolver } from "./cached-host-resolver";
import { OutboundUrlError, vetOutboundUrl } from "./outbound-url";

function countingResolver(answers: Record<string, { address: string; family: number }[] | Error>) {
  const lookups: string[] = [];
  const resolve: HostResolver = async (host) => {
    lookups.push(host);
    const answer = answers[host];
    if (!answer || answer instanceof Error) throw answer ?? new Error("ENOTFOUND");
    return answer;
  };
  return { lookups, resolve };
}

describe("createCachedHostResolver", () => {
  const PUBLIC = [{ address: "93.184.216.34", family: 4 }];

  it("reuses a host's answer until it is ttlMs old, then asks again", async () => {
    const clock = { now: 0 };
    const source = countingResolver({ "hooks.example.com": PUBLIC });
    const resolve = createCachedHostResolver(source.resolve, { ttlMs: 10_000, now: () => clock.now });
    expect(await resolve("hooks.example.com")).toEqual(PUBLIC);
    clock.now = 9_999;
    expect(await resolve("hooks.example.com")).toEqual(PUBLIC);
    expect(source.lookups).toEqual(["hooks.example.com"]);
    clock.now = 10_000;
    await resolve("hooks.example.com");
    expect(source.lookups).toEqual(["hooks.example.com", "hooks.example.com"]);
  });

  it("shares one lookup between concurrent callers", async () => {
    const source = countingResolver({ "hooks.example.com": PUBLIC });
    const resolve = createCachedHostResolver(source.resolve, { now: () => 0 });
    await Promise.all([resolve("hooks.example.com"), resolve("hooks.example.com"), resolve("hooks.example.com")]);
    expect(source.lookups).toHaveLength(1);
  });

  it("does not keep a failed lookup", async () => {
    const answers: Record<string, { address: string; family: number }[] | Error> = { "new.example.com": new Error("ENOTFOUND") };
    const source = countingResolver(answers);
    const resolve = createCachedHostResolver(source.resolve, { now: () => 0 });
    await expect(resolve("new.example.com")).rejects.toThrow();
    answers["new.example.com"] = PUBLIC;
    expect(await resolve("new.example.com")).toEqual(PUBLIC);
    expect(source.lookups).toHaveLength(2);
  });

  it.each([
    ["a private address", [{ address: "10.1.2.3", family: 4 }]],
    ["cloud metadata", [{ address: "169.254.169.254", family: 4 }]],
    ["a public and a private address", [...PUBLIC, { address: "fd00::1", family: 6 }]],
  ])("leaves the SSRF rule to every use: a cached answer with %s is still refused", async (_label, answer) => {
    const resolve = createCachedHostResolver(countingResolver({ "hooks.example.com": answer }).resolve, { now: () => 0 });
    for (let use = 0; use < 2; use++) {
      await expect(vetOutboundUrl("https://hooks.example.com/in", { allowLoopback: false, resolve })).rejects.toMatchObject({
        constructor: OutboundUrlError,
        problem: "forbidden_address",
      });
    }
  });

  it("allows a cached loopback answer only when the call allows loopback", async () => {
    const resolve = createCachedHostResolver(countingResolver({ localhost: [{ address: "127.0.0.1", family: 4 }] }).resolve, { now: () => 0 });
    expect((await vetOutboundUrl("http://localhost:8080/in", { allowLoopback: true, resolve })).address).toBe("127.0.0.1");
    await expect(vetOutboundUrl("http://localhost:8080/in", { allowLoopback: false, resolve })).rejects.toMatchObject({ problem: "forbidden_address" });
  });
});
