import { describe, expect, it } from "vitest";
import type { Address } from "viem";
import { createApiDeps } from "@/lib/api/deps";
import { anvilClients, callAnvil } from "@/lib/chains/evm/testing/anvil";
import { useAnvilPerFile } from "@/lib/chains/evm/testing/anvil-per-file";
import { getChainSender } from "@/lib/chains/registry";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { verifyChains } from "@/lib/services/chains/verify-chains";
import { hasDrift } from "@/lib/services/reconcile/reconcile-with-chains";
import { reconcileWithChains } from "@/lib/jobs/handlers/reconcile-with-chains";
import { sweepNetwork } from "@/lib/jobs/handlers/sweep-deposits";
import { makeMerchantFundedOnAnvil } from "@/lib/testing/funding";
import { getTestSecretBox, makeTestConfig } from "@/lib/testing/harness";
import { useOwnDatabasePerFile } from "@/lib/testing/own-database";
import { moveExcessToCold } from "@/lib/jobs/handlers/move-to-cold";
import { bookReturnFromCold } from "@/lib/jobs/handlers/return-from-cold";

// A hot wallet limit on anvil ("bsc"), on a database of its own: BNB paid in and swept to the hot
// wallet beside an operator's unbooked top-up; with a maximum of 0 the books' share of the hot
// wallet (less the move's fee) leaves for the cold address in one transaction, the top-up stays,
// and the books agree with themselves and with the chain.

const node = useAnvilPerFile();
const database = useOwnDatabasePerFile("cold_anvil");
const COLD = "0x000000000000000000000000000000000000c01d" as Address;

describe("a hot wallet limit on a real EVM node", () => {
  it("sends the excess to the cold address once, books it, and reconciles clean", { timeout: 180_000 }, async () => {
    const clients = anvilClients(node().url);
    const env = { RPC_BSC: node().url, HOT_WALLET_MAX_BSC_BNB: "0", COLD_ADDRESS_BSC: COLD };
    const deps = createApiDeps(makeTestConfig({ ...env, DATABASE_URL: database().url }), database().db, getTestSecretBox());
    await verifyChains(deps.config, deps.db);
    const { hot } = await makeMerchantFundedOnAnvil(deps, clients, { network: "bsc", usd: "100.00" });
    const sender = getChainSender(deps.db, deps.config, "bsc")!;
    for (let pass = 0; pass < 3; pass++) {
      await sweepNetwork(deps, "bsc", sender);
      await clients.testClient.mine({ blocks: 20 });
    }
    const topUp = 10n ** 18n;
    const before = await clients.publicClient.getBalance({ address: hot });
    expect(before).toBeGreaterThan(topUp);

    const passes = await Promise.all([0, 1, 2].map(() => moveExcessToCold(deps, { timeoutMs: 10_000 })));
    const transfers = await database().db.outgoingTransfer.findMany({ where: { kind: "cold" } });
    expect(transfers).toHaveLength(1);
    expect(passes.flat().filter((check) => check.isPlanned)).toHaveLength(1);
    const amount = BigInt(transfers[0].amountMinor.toFixed());
    expect(amount).toBeGreaterThan(0n);
    expect(amount).toBeLessThan(before - topUp);

    await clients.testClient.mine({ blocks: 30 });
    await moveExcessToCold(deps, { timeoutMs: 10_000 });
    const [settled] = await database().db.outgoingTransfer.findMany({ where: { kind: "cold" } });
    expect(settled.status).toBe("confirmed");
    expect(await clients.publicClient.getBalance({ address: COLD })).toBe(amount);
    // The operator's top-up (unbooked) is still there.
    expect(await clients.publicClient.getBalance({ address: hot })).toBeGreaterThan(topUp);
    expect(await database().db.ledgerJournal.count({ where: { reference: { in: [`outgoing:${settled.id}:cold`, `outgoing:${settled.id}:fee`] } } })).toBe(2);
    expect(await auditLedger(database().db)).toEqual(CLEAN_LEDGER_AUDIT);
    const reconciled = await reconcileWithChains(deps, { network: "bsc", timeoutMs: 10_000, payoutDays: 7, now: new Date() });
    expect(reconciled.filter(hasDrift)).toEqual([]);
    // Nothing more moves: what is left is the top-up and what the next move's fee needs.
    await moveExcessToCold(deps, { timeoutMs: 10_000 });
    expect(await database().db.outgoingTransfer.count({ where: { kind: "cold" } })).toBe(1);

    // The operator sends half back from the cold address to refill the hot wallet: a surplus the
    // books do not explain until it is booked, once, for what the transaction delivered.
    const back = amount / 2n;
    await callAnvil(node().url, "anvil_impersonateAccount", [COLD]);
    const txid = (await callAnvil(node().url, "eth_sendTransaction", [{ from: COLD, to: hot, value: `0x${back.toString(16)}` }])) as string;
    const returnRequest = { network: "bsc" as const, currency: "BNB", txid };
    expect(await bookReturnFromCold(deps, returnRequest)).toEqual({ kind: "refused", reason: expect.stringMatching(/blocks deep|not in a block/) });
    await clients.testClient.mine({ blocks: 30 });
    const surplus = (await reconcileWithChains(deps, { network: "bsc", timeoutMs: 10_000, payoutDays: 7, now: new Date() })).find((row) => row.currency === "BNB")!;
    expect(surplus.surplus).toBeGreaterThanOrEqual(back);
    // From another address than the cold one, the same transaction is not a return.
    expect(await bookReturnFromCold(deps, { ...returnRequest, fromAddress: "0x000000000000000000000000000000000000bEEF" })).toMatchObject({ kind: "refused", reason: expect.stringMatching(/delivered no BNB/) });
    const racing = await Promise.all([0, 1, 2].map(() => bookReturnFromCold(deps, returnRequest)));
    expect(racing.filter((outcome) => outcome.kind === "booked")).toHaveLength(1);
    expect(racing.every((outcome) => outcome.kind !== "refused" && outcome.amount === back)).toBe(true);
    expect(await bookReturnFromCold(deps, returnRequest)).toMatchObject({ kind: "already_booked", amount: back });
    expect(await auditLedger(database().db)).toEqual(CLEAN_LEDGER_AUDIT);
    const afterReturn = (await reconcileWithChains(deps, { network: "bsc", timeoutMs: 10_000, payoutDays: 7, now: new Date() })).find((row) => row.currency === "BNB")!;
    expect(afterReturn.surplus).toBe(surplus.surplus - back);
    expect(hasDrift(afterReturn)).toBe(false);

    // More than the books hold in cold storage (the cold address had other coins): not booked.
    await callAnvil(node().url, "anvil_setBalance", [COLD, `0x${(10n ** 19n).toString(16)}`]);
    const tooMuch = (await callAnvil(node().url, "eth_sendTransaction", [{ from: COLD, to: hot, value: `0x${amount.toString(16)}` }])) as string;
    await clients.testClient.mine({ blocks: 30 });
    expect(await bookReturnFromCold(deps, { ...returnRequest, txid: tooMuch })).toMatchObject({ kind: "refused", reason: expect.stringMatching(/books hold .* in cold storage/) });
    expect(await auditLedger(database().db)).toEqual(CLEAN_LEDGER_AUDIT);
  });
});
