import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { NetworkId } from "@/lib/catalogue";
import { deriveAccountXpubs, deriveMasterSeed } from "./account-keys";
import { DerivationThreads } from "./derivation-threads";
import { deriveDepositAddresses } from "./derive-address";
import { renderQrCode } from "./qr-code";

const XPUBS = deriveAccountXpubs(deriveMasterSeed("abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"));
const INDEXES = [0, 1, 2, 7, 1_000_003];

function jobFor(network: NetworkId) {
  return { network, chain: "main" as const, accountXpub: XPUBS[network]!, indexes: INDEXES };
}

/** The same addresses and QR codes, made on this thread. */
async function madeHere(network: NetworkId) {
  const addresses = deriveDepositAddresses(jobFor(network)).map((entry) => entry.address);
  return { addresses, qrCodes: await Promise.all(addresses.map(renderQrCode)) };
}

describe("derivation threads", () => {
  it("make the addresses and QR codes the request thread would, for every xpub family", async () => {
    const threads = new DerivationThreads(2);
    const networks: NetworkId[] = ["tron", "ethereum", "bitcoin", "litecoin"];
    const answers = await Promise.all(networks.map((network) => threads.derive(jobFor(network))));
    expect(threads.running).toBe(2);
    for (const [position, network] of networks.entries()) expect(answers[position]).toEqual(await madeHere(network));
  });

  it("answer a job whose thread died on the calling thread, and stop starting threads that keep dying", async () => {
    const exitingBody = pathToFileURL(path.join(process.cwd(), "lib", "chains", "testing", "exiting-derivation-thread.ts")).href;
    const threads = new DerivationThreads(1, exitingBody);
    for (let attempt = 0; attempt < 4; attempt++) expect(await threads.derive(jobFor("tron"))).toEqual(await madeHere("tron"));
    expect(threads.running).toBe(0);
  });

  it("answer jobs on the calling thread when a thread cannot start", async () => {
    const threads = new DerivationThreads(1, pathToFileURL(path.join(process.cwd(), "lib", "chains", "testing", "no-such-thread-body.ts")).href);
    const answers = await Promise.all([threads.derive(jobFor("ethereum")), threads.derive(jobFor("ethereum"))]);
    for (const answer of answers) expect(answer).toEqual(await madeHere("ethereum"));
  });

  it("reject a job the derivation itself refuses, as the calling thread would", async () => {
    const threads = new DerivationThreads(1);
    await expect(threads.derive({ ...jobFor("tron"), accountXpub: "xpub-that-is-not" })).rejects.toThrow(/Not an extended public key for tron/);
  });
});
