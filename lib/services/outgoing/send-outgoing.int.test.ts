import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSandboxSender } from "@/lib/chains/sandbox/sandbox-sender";
import { mineSandboxBlocks, randomSandboxPayerAddress } from "@/lib/chains/sandbox/sandbox-chain";
import type { BroadcastOutcome, ChainSender, SigningKey } from "@/lib/chains/types";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { getTestDb } from "@/lib/testing/harness";
import { planOutgoingTransfer } from "./plan-outgoing";
import { followOutgoingTransfers, sendOutgoingTransfers } from "@/lib/jobs/handlers/send-outgoing";

// The outgoing-transfer mechanism on a sandbox chain, with senders wrapped to misbehave the way
// nodes and networks do. The real-node versions of these (anvil, litecoind) live beside it.

const db = getTestDb();
const deps = { db, now: () => new Date() };

function keyOf(address: string): SigningKey {
  return { address, privateKey: new Uint8Array(32), publicKey: new Uint8Array(33) };
}
const keyFor = (transfer: { fromAddress: string }) => keyOf(transfer.fromAddress);

async function planOne(network: "tron" | "ethereum", overrides: { amountMinor?: bigint } = {}) {
  const from = randomSandboxPayerAddress(network);
  const reference = `test:${randomUUID()}`;
  await planOutgoingTransfer(
    db,
    {
      kind: "sweep",
      reference,
      network,
      currency: network === "tron" ? "TRX" : "ETH",
      fromAddress: from,
      fromIndex: 7,
      toAddress: randomSandboxPayerAddress(network),
      amountMinor: overrides.amountMinor ?? 1_000_000n,
      coveredMinor: overrides.amountMinor ?? 1_000_000n,
    },
    new Date(),
  );
  return db.outgoingTransfer.findUniqueOrThrow({ where: { reference } });
}

/** A sender whose broadcasts answer as scripted (then as the chain does), counting the real ones. */
function scripted(sender: ChainSender, answers: Array<BroadcastOutcome | "crash">) {
  const broadcasts: string[] = [];
  const wrapped: ChainSender = {
    ...sender,
    async broadcast(signed) {
      const answer = answers.shift();
      if (answer === "crash") throw new Error("worker died before broadcasting");
      if (answer && answer.kind !== "accepted") return answer;
      broadcasts.push(signed.txid);
      return sender.broadcast(signed);
    },
  };
  return { sender: wrapped, broadcasts };
}

describe("outgoing transfers", () => {
  it("stores the signed bytes before broadcasting, follows them to confirmation and books the fee the chain took", async () => {
    const transfer = await planOne("tron");
    const { sender, broadcasts } = scripted(createSandboxSender(db, "tron"), []);
    await sendOutgoingTransfers(deps, "tron", sender, keyFor);
    const sent = await db.outgoingTransfer.findUniqueOrThrow({ where: { id: transfer.id } });
    expect(sent).toMatchObject({ status: "broadcast", attempts: 1, broadcasts: 1 });
    expect(sent.rawTransaction).toBeTruthy();
    expect(broadcasts).toEqual([sent.txid]);
    await followOutgoingTransfers(deps, "tron", sender, keyFor);
    expect((await db.outgoingTransfer.findUniqueOrThrow({ where: { id: transfer.id } })).status).toBe("seen");
    await mineSandboxBlocks(db, "tron", 1, new Date());
    await followOutgoingTransfers(deps, "tron", sender, keyFor);
    const confirmed = await db.outgoingTransfer.findUniqueOrThrow({ where: { id: transfer.id } });
    expect(confirmed.status).toBe("confirmed");
    const fee = await db.ledgerJournal.findUniqueOrThrow({ where: { reference: `outgoing:${transfer.id}:fee` }, include: { postings: true } });
    expect(fee.postings.map((posting) => BigInt(posting.amount.toFixed())).sort()).toEqual([-1_000_000n, 1_000_000n]);
    // Following again books nothing twice.
    await followOutgoingTransfers(deps, "tron", sender, keyFor);
    expect(await db.ledgerJournal.count({ where: { reference: `outgoing:${transfer.id}:fee` } })).toBe(1);
    expect(await auditLedger(db)).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("after a crash between signing and broadcasting, broadcasts the same bytes: one transaction, never a second signature", async () => {
    const transfer = await planOne("ethereum");
    const crashing = scripted(createSandboxSender(db, "ethereum"), ["crash"]);
    await sendOutgoingTransfers(deps, "ethereum", crashing.sender, keyFor);
    const signed = await db.outgoingTransfer.findUniqueOrThrow({ where: { id: transfer.id } });
    expect(signed).toMatchObject({ status: "signed", attempts: 1 });
    expect(crashing.broadcasts).toEqual([]);
    // The lease of the dead worker lapses; the next worker finds the signed transfer.
    await db.signerLease.deleteMany({ where: { network: "ethereum", address: transfer.fromAddress } });
    const next = scripted(createSandboxSender(db, "ethereum"), []);
    await sendOutgoingTransfers(deps, "ethereum", next.sender, keyFor);
    const sent = await db.outgoingTransfer.findUniqueOrThrow({ where: { id: transfer.id } });
    expect(sent).toMatchObject({ status: "broadcast", txid: signed.txid, rawTransaction: signed.rawTransaction, attempts: 1 });
    expect(next.broadcasts).toEqual([signed.txid]);
    expect(await db.sandboxTransaction.count({ where: { fromAddress: transfer.fromAddress } })).toBe(1);
  });

  it("keeps broadcasting the same bytes while the node gives no answer, and accepts them once it does", async () => {
    const transfer = await planOne("tron");
    const flaky = scripted(createSandboxSender(db, "tron"), [
      { kind: "uncertain", reason: "timeout" },
      { kind: "rejected", reason: "server busy", retryable: true },
    ]);
    await sendOutgoingTransfers(deps, "tron", flaky.sender, keyFor);
    await sendOutgoingTransfers(deps, "tron", flaky.sender, keyFor);
    const waiting = await db.outgoingTransfer.findUniqueOrThrow({ where: { id: transfer.id } });
    expect(waiting).toMatchObject({ status: "signed", attempts: 1, broadcasts: 2, lastError: "server busy" });
    await sendOutgoingTransfers(deps, "tron", flaky.sender, keyFor);
    expect(await db.outgoingTransfer.findUniqueOrThrow({ where: { id: transfer.id } })).toMatchObject({ status: "broadcast", txid: waiting.txid, attempts: 1 });
    expect(flaky.broadcasts).toEqual([waiting.txid]);
  });

  it("frees the resources of bytes the node refused for good and the chain never took", async () => {
    const transfer = await planOne("tron");
    const refusing = scripted(createSandboxSender(db, "tron"), [{ kind: "rejected", reason: "insufficient balance", retryable: false }]);
    await sendOutgoingTransfers(deps, "tron", refusing.sender, keyFor);
    expect(await db.outgoingTransfer.findUniqueOrThrow({ where: { id: transfer.id } })).toMatchObject({ status: "failed", isReleased: true, lastError: "insufficient balance" });
    expect(refusing.broadcasts).toEqual([]);
  });

  it("gives up a transaction only when the chain proves it can no longer land", async () => {
    const transfer = await planOne("tron");
    const sandbox = createSandboxSender(db, "tron");
    await sendOutgoingTransfers(deps, "tron", sandbox, keyFor);
    const sent = await db.outgoingTransfer.findUniqueOrThrow({ where: { id: transfer.id } });
    // Evicted from the mempool: while it can still land, the same bytes go out again.
    await db.sandboxTransaction.deleteMany({ where: { txid: sent.txid! } });
    await followOutgoingTransfers(deps, "tron", sandbox, keyFor);
    expect(await db.sandboxTransaction.count({ where: { txid: sent.txid! } })).toBe(1);
    expect((await db.outgoingTransfer.findUniqueOrThrow({ where: { id: transfer.id } })).status).toBe("broadcast");
    // Evicted again, and now provably dead (its lifetime over): replaced, nothing booked.
    await db.sandboxTransaction.deleteMany({ where: { txid: sent.txid! } });
    await followOutgoingTransfers(deps, "tron", { ...sandbox, canStillLand: async () => false }, keyFor);
    expect(await db.outgoingTransfer.findUniqueOrThrow({ where: { id: transfer.id } })).toMatchObject({ status: "replaced", isReleased: true });
    expect(await db.ledgerJournal.count({ where: { reference: `outgoing:${transfer.id}:fee` } })).toBe(0);
  });

  it("lets one of many concurrent workers sign for an address: every transfer is signed and sent once", async () => {
    const first = await planOne("ethereum");
    const from = first.fromAddress;
    const references = [first.reference];
    for (let i = 0; i < 9; i++) {
      const reference = `test:${randomUUID()}`;
      references.push(reference);
      await planOutgoingTransfer(
        db,
        { kind: "sweep", reference, network: "ethereum", currency: "ETH", fromAddress: from, fromIndex: 7, toAddress: first.toAddress, amountMinor: BigInt(i + 1), coveredMinor: BigInt(i + 1) },
        new Date(),
      );
    }
    const sandbox = createSandboxSender(db, "ethereum");
    let signings = 0;
    const counting: ChainSender = {
      ...sandbox,
      async sign(...args) {
        signings++;
        return sandbox.sign(...args);
      },
    };
    // Until every transfer is out: workers racing for the address's lease.
    for (let round = 0; round < 5; round++) await Promise.all(Array.from({ length: 4 }, () => sendOutgoingTransfers(deps, "ethereum", counting, keyFor)));
    const rows = await db.outgoingTransfer.findMany({ where: { reference: { in: references } } });
    expect(rows.map((row) => row.status)).toEqual(Array(10).fill("broadcast"));
    expect(signings).toBe(10);
    expect(await db.sandboxTransaction.count({ where: { fromAddress: from } })).toBe(10);
  });
});
