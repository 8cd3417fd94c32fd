import { describe, expect, it } from "vitest";
import { Keypair, PublicKey } from "@solana/web3.js";
import { getAssociatedTokenAddressSync } from "@solana/spl-token";
import { address } from "@solana/kit";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { addressChainOf } from "@/lib/chains/registry";
import { deriveSigningKey, HOT_WALLET_INDEX } from "@/lib/chains/signing-keys";
import { createLiteSvmAccess, type LiteSvmChain } from "@/lib/chains/solana/testing/litesvm-access";
import { createSolanaSender } from "@/lib/chains/solana/solana-sender";
import { deployTestMint, mintTestTokens, tokensOf } from "@/lib/chains/solana/testing/test-mint";
import { parseAmount } from "@/lib/domain/money/amount";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { callSigned, getTestDb, makeMerchant, makeTestDeps, type TestMerchant } from "@/lib/testing/harness";
import { readTableState } from "@/lib/metrics/read-table-state";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";

// Merchant payouts on a real Solana runtime (litesvm): the merchant's balance comes from an
// invoice paid on the sandbox solana chain, the money sits in the service's hot wallet on
// litesvm, and `sendPayouts` signs real transactions with the hot wallet's key. Proves that SOL
// and SPL (USDT, a test mint) payouts go out exactly once, that the recipient receives exactly
// the payout's receive_amount, that payout.confirmed says "paid", and that a hot wallet short of
// SOL makes the payout wait (not fail) until it is funded.

const SOL = 1_000_000_000n;
const DECIMALS: Record<string, number> = { SOL: 9, USDT: 6 };

function minor(amount: string, currency: string): bigint {
  const value = parseAmount(amount, DECIMALS[currency]);
  if (value === null) throw new Error(`not an amount: ${amount}`);
  return value;
}

function lamportsOf(chain: LiteSvmChain, owner: string): bigint {
  const account = chain.svm.getAccount(address(owner));
  return account.exists ? account.lamports : 0n;
}

/** A litesvm chain with a USDT test mint, a sender bound to it, and the service's hot wallet. */
async function solanaWorld() {
  const chain = createLiteSvmAccess();
  const mintAuthority = Keypair.generate();
  chain.airdrop(mintAuthority.publicKey.toBase58(), 10n * SOL);
  const mint = await deployTestMint(chain, mintAuthority, DECIMALS.USDT);

  // The network counts as served by a node (the litesvm sender), not by the sandbox chain.
  const deps = makeTestDeps({}, { RPC_SOLANA: "http://litesvm.invalid" });
  const seed = (await loadKeyMaterial(deps.db, deps.secretBox)).openSeed();
  const hot = deriveSigningKey(seed, "solana", HOT_WALLET_INDEX, addressChainOf(deps.config, "solana")).address;
  const sender = createSolanaSender({ access: chain, mints: { USDT: mint.toBase58() } });

  const mintToHot = (amount: bigint) => mintTestTokens(chain, mintAuthority, mint, new PublicKey(hot), amount);
  // One pass sends and follows; the slots that follow (solana's min_confirmations is 3) come before
  // the next look, as blocks would.
  const pass = async () => {
    const sent = await sendPayouts(deps, "solana", sender);
    chain.advanceSlots(2);
    const followed = await sendPayouts(deps, "solana", sender);
    return { planned: sent.planned + followed.planned, confirmed: sent.confirmed + followed.confirmed };
  };
  return { chain, mint, deps, hot, sender, mintToHot, pass };
}

/** A merchant with a webhook endpoint and an available balance from an invoice paid on the sandbox solana chain. */
async function fundedMerchant(currency: "SOL" | "USDT", usd: string): Promise<{ merchant: TestMerchant; available: string }> {
  const merchant = await makeMerchant();
  expect((await callSigned("/v1/webhooks", { url: "http://127.0.0.1:9/hook" }, merchant)).status).toBe(201);
  const invoice = (await callSigned("/v1/payment", { amount: usd, currency: "USD", to_currency: currency, network: "solana" }, merchant)).body.result;
  await callSigned("/v1/sandbox/deposit", { network: "solana", currency, address: invoice.address, amount: invoice.payer_amount }, merchant);
  await callSigned("/v1/sandbox/mine", { network: "solana", blocks: 40 }, merchant);
  const available = (await callSigned("/v1/balance", { currency, network: "solana" }, merchant)).body.result.balances[0]?.available ?? "0";
  return { merchant, available };
}

async function createPayout(merchant: TestMerchant, body: { amount: string; currency: string; address: string; is_subtract?: boolean }) {
  const created = await callSigned("/v1/payout", { ...body, network: "solana", order_id: `sol-${Math.random().toString(36).slice(2)}` }, merchant);
  expect(created.status).toBe(200);
  expect(created.body.result).toMatchObject({ internal_status: "approved", status: "process", amount: body.amount, currency: body.currency });
  return created.body.result as { uuid: string; amount: string; receive_amount: string; commission: string };
}

async function infoOf(merchant: TestMerchant, uuid: string) {
  return (await callSigned("/v1/payout/info", { uuid }, merchant)).body.result;
}

function transfersOf(uuid: string) {
  return getTestDb().outgoingTransfer.findMany({ where: { reference: { startsWith: `payout:${uuid}:` } }, orderBy: { createdAt: "asc" } });
}

/** Paid, final, announced once as paid with its txid; its one transfer confirmed with that txid. */
async function expectPaid(merchant: TestMerchant, uuid: string) {
  const info = await infoOf(merchant, uuid);
  expect(info).toMatchObject({ internal_status: "confirmed", status: "paid", is_final: true, wait_reason: "" });
  expect(info.txid).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/); // a base58 Solana signature
  expect(await getTestDb().outgoingTransfer.count({ where: { reference: { startsWith: `payout:${uuid}:` }, status: "confirmed" } })).toBe(1);
  const confirmed = await getTestDb().webhookDelivery.findMany({ where: { objectId: uuid, eventType: "payout.confirmed", target: "endpoint" } });
  expect(confirmed).toHaveLength(1);
  expect(JSON.parse(confirmed[0].body)).toMatchObject({ type: "payout", uuid, status: "paid", is_final: true, txid: info.txid });
  return info;
}

/** Everything a pass could change: the payout, its transfers and webhooks, and the chain. */
async function snapshot(merchant: TestMerchant, uuid: string, chain: LiteSvmChain, accounts: string[]) {
  return {
    info: await infoOf(merchant, uuid),
    transfers: (await transfersOf(uuid)).map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() })),
    webhooks: await getTestDb().webhookDelivery.count({ where: { objectId: uuid } }),
    lamports: accounts.map((account) => lamportsOf(chain, account)),
  };
}

describe("payouts on litesvm", () => {
  it("pays out SOL from the hot wallet once: the recipient gets exactly receive_amount", async () => {
    const { chain, hot, pass } = await solanaWorld();
    chain.airdrop(hot, 5n * SOL);
    const { merchant, available } = await fundedMerchant("SOL", "100.00");
    expect(Number(available)).toBeGreaterThan(0.1);

    const recipient = Keypair.generate().publicKey.toBase58();
    const payout = await createPayout(merchant, { amount: "0.05", currency: "SOL", address: recipient });
    // By default the recipient bears the fee: what arrives is less than the amount.
    const receive = minor(payout.receive_amount, "SOL");
    expect(receive).toBe(minor("0.05", "SOL") - minor(payout.commission, "SOL"));
    expect(receive).toBeLessThan(minor("0.05", "SOL"));
    const hotBefore = lamportsOf(chain, hot);

    expect(await pass()).toEqual({ planned: 1, confirmed: 1 });

    const info = await expectPaid(merchant, payout.uuid);
    const transfers = await transfersOf(payout.uuid);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ kind: "payout", status: "confirmed", currency: "SOL", fromAddress: hot, toAddress: recipient, txid: info.txid });
    expect(BigInt(transfers[0].amountMinor.toFixed())).toBe(receive);
    // On chain: one transaction to the recipient, which now holds exactly receive_amount; the hot
    // wallet paid that plus the network fee, once.
    expect(await chain.listSignatures(recipient, -1)).toEqual([expect.objectContaining({ signature: info.txid, isFailed: false })]);
    expect(lamportsOf(chain, recipient)).toBe(receive);
    expect(hotBefore - lamportsOf(chain, hot)).toBe(receive + BigInt(transfers[0].feeMinor!.toFixed()));

    // Another pass, even after new blocks, sends and changes nothing.
    const before = await snapshot(merchant, payout.uuid, chain, [recipient, hot]);
    chain.advanceSlots(5);
    expect(await pass()).toEqual({ planned: 0, confirmed: 0 });
    expect(await snapshot(merchant, payout.uuid, chain, [recipient, hot])).toEqual(before);

    const balance = (await callSigned("/v1/balance", { currency: "SOL", network: "solana" }, merchant)).body.result.balances[0];
    expect(balance.payout_held).toBe("0");
    expect(minor(available, "SOL") - minor(balance.available, "SOL")).toBe(minor("0.05", "SOL"));
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("pays out USDT (an SPL token) once, creating the recipient's token account", async () => {
    const { chain, mint, hot, pass, mintToHot } = await solanaWorld();
    chain.airdrop(hot, 1n * SOL); // for the network fee and the recipient's token account rent
    await mintToHot(1_000n * 10n ** 6n);
    const { merchant, available } = await fundedMerchant("USDT", "50.00");
    expect(Number(available)).toBeGreaterThan(20);

    const recipient = Keypair.generate().publicKey.toBase58();
    const payout = await createPayout(merchant, { amount: "12.5", currency: "USDT", address: recipient });
    const receive = minor(payout.receive_amount, "USDT");
    expect(receive).toBe(minor("12.5", "USDT") - minor(payout.commission, "USDT"));
    expect(receive).toBeLessThan(minor("12.5", "USDT"));
    const hotTokensBefore = tokensOf(chain, mint, hot);
    const hotLamportsBefore = lamportsOf(chain, hot);
    expect(tokensOf(chain, mint, recipient)).toBe(0n);

    expect(await pass()).toEqual({ planned: 1, confirmed: 1 });

    const info = await expectPaid(merchant, payout.uuid);
    const transfers = await transfersOf(payout.uuid);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({ kind: "payout", status: "confirmed", currency: "USDT", fromAddress: hot, toAddress: recipient, txid: info.txid });
    expect(tokensOf(chain, mint, recipient)).toBe(receive);
    expect(hotTokensBefore - tokensOf(chain, mint, hot)).toBe(receive);
    // The cost booked is what the hot wallet paid: the fee and the rent of the recipient's new token account.
    const rent = await chain.getMinimumBalanceForRentExemption(165);
    expect(hotLamportsBefore - lamportsOf(chain, hot)).toBe(5_000n + rent);
    expect(BigInt(transfers[0].feeMinor!.toFixed())).toBe(5_000n + rent);
    const feeJournal = await getTestDb().ledgerJournal.findUnique({ where: { reference: `outgoing:${transfers[0].id}:fee` }, include: { postings: true } });
    expect(feeJournal!.postings.map((posting) => BigInt(posting.amount.toFixed())).sort()).toEqual([-(5_000n + rent), 5_000n + rent]);
    const recipientAta = getAssociatedTokenAddressSync(mint, new PublicKey(recipient), true).toBase58();
    expect(await chain.listSignatures(recipientAta, -1)).toEqual([expect.objectContaining({ signature: info.txid, isFailed: false })]);

    const before = { snapshot: await snapshot(merchant, payout.uuid, chain, [hot]), tokens: tokensOf(chain, mint, recipient) };
    chain.advanceSlots(5);
    expect(await pass()).toEqual({ planned: 0, confirmed: 0 });
    expect({ snapshot: await snapshot(merchant, payout.uuid, chain, [hot]), tokens: tokensOf(chain, mint, recipient) }).toEqual(before);

    const balance = (await callSigned("/v1/balance", { currency: "USDT", network: "solana" }, merchant)).body.result.balances[0];
    expect(balance.payout_held).toBe("0");
    expect(minor(available, "USDT") - minor(balance.available, "USDT")).toBe(minor("12.5", "USDT"));
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("waits while the hot wallet is short of SOL, then goes out once it is funded", async () => {
    const { chain, hot, pass } = await solanaWorld();
    chain.airdrop(hot, SOL / 100n); // 0.01 SOL: less than the payout
    const { merchant } = await fundedMerchant("SOL", "100.00");

    const recipient = Keypair.generate().publicKey.toBase58();
    const payout = await createPayout(merchant, { amount: "0.05", currency: "SOL", address: recipient, is_subtract: true });
    expect(payout.receive_amount).toBe("0.05"); // the fee comes on top

    await pass();
    const waiting = await infoOf(merchant, payout.uuid);
    expect(waiting).toMatchObject({ internal_status: "approved", status: "process", is_final: false, txid: "" });
    expect(waiting.wait_reason).toMatch(/hot wallet/);
    expect(waiting.wait_reason).toMatch(/insufficient SOL/);
    expect(lamportsOf(chain, recipient)).toBe(0n);
    expect(await chain.listSignatures(hot, -1)).toEqual([]); // nothing was sent
    // Nothing was signed: the transfer stays planned until its backoff is over.
    const refused = await transfersOf(payout.uuid);
    expect(refused.map((row) => [row.status, row.isShortOfFunds, row.txid])).toEqual([["planned", true, null]]);
    const tries = refused[0].attempts;
    // And /metrics counts it among the payouts waiting for hot wallet funds.
    const awaiting = (await readTableState(getTestDb(), new Date(), null)).payoutsAwaitingFunds.find((row) => row.asset === "SOL:solana");
    expect(awaiting?.count).toBeGreaterThanOrEqual(1);
    expect(awaiting?.amount).toBeGreaterThanOrEqual(0.05);

    // Before its backoff is over, another pass leaves it waiting, untried.
    await pass();
    expect((await transfersOf(payout.uuid)).map((row) => row.attempts)).toEqual([tries]);

    chain.airdrop(hot, 2n * SOL);
    const hotBefore = lamportsOf(chain, hot);
    await getTestDb().outgoingTransfer.updateMany({ where: { reference: { startsWith: `payout:${payout.uuid}:` } }, data: { retryAt: new Date(0) } });
    for (let round = 0; round < 3; round++) await pass();

    const info = await expectPaid(merchant, payout.uuid);
    // The same transfer went out once funded: one row for the whole wait.
    const transfers = await transfersOf(payout.uuid);
    expect(transfers.map((row) => row.status)).toEqual(["confirmed"]);
    expect(transfers[0]).toMatchObject({ fromAddress: hot, toAddress: recipient, txid: info.txid, isShortOfFunds: false, retryAt: null });
    expect(await chain.listSignatures(recipient, -1)).toEqual([expect.objectContaining({ signature: info.txid })]);
    expect(lamportsOf(chain, recipient)).toBe(minor("0.05", "SOL"));
    expect(hotBefore - lamportsOf(chain, hot)).toBe(minor("0.05", "SOL") + BigInt(transfers[0].feeMinor!.toFixed()));
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });

  it("sends two identical payouts as two transactions: the second waits for a fresh blockhash instead of sharing the first's", async () => {
    const { chain, hot, pass, deps, sender } = await solanaWorld();
    chain.airdrop(hot, 5n * SOL);
    const { merchant } = await fundedMerchant("SOL", "60.00");
    const recipient = Keypair.generate().publicKey.toBase58();
    const first = await createPayout(merchant, { amount: "0.05", currency: "SOL", address: recipient, is_subtract: true });
    const second = await createPayout(merchant, { amount: "0.05", currency: "SOL", address: recipient, is_subtract: true });
    await sendPayouts(deps, "solana", sender);
    // Same blockhash, same transfer: the same signature, so the second is not stored as sent.
    expect((await transfersOf(second.uuid))[0]).toMatchObject({ status: "planned", lastError: expect.stringMatching(/identical/) });
    chain.advanceSlots(5);
    await pass();
    chain.advanceSlots(5);
    await pass();
    const [one, two] = [await expectPaid(merchant, first.uuid), await expectPaid(merchant, second.uuid)];
    expect(one).not.toBe(two);
    expect(lamportsOf(chain, recipient)).toBe(2n * minor("0.05", "SOL"));
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });
});
