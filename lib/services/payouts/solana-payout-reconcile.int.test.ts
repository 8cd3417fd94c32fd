import { createAssociatedTokenAccountIdempotentInstruction, createTransferCheckedInstruction, getAssociatedTokenAddressSync } from "@solana/spl-token";
import { Keypair, PublicKey, SystemProgram } from "@solana/web3.js";
import { describe, expect, it } from "vitest";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { getChainSender } from "@/lib/chains/registry";
import { deriveSigningKey, HOT_WALLET_INDEX } from "@/lib/chains/signing-keys";
import { mintTestTokens, tokensOf } from "@/lib/chains/solana/testing/test-mint";
import { parseAmount } from "@/lib/domain/money/amount";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import type { ApiDeps } from "@/lib/api/deps";
import { hasDrift } from "@/lib/services/reconcile/reconcile-with-chains";
import { reconcileWithChains } from "@/lib/jobs/handlers/reconcile-with-chains";
import { callSigned, makeMerchant, type TestMerchant } from "@/lib/testing/harness";
import { useServedInProcessChains } from "@/lib/testing/served-in-process-chains";
import { sendPayouts } from "@/lib/jobs/handlers/send-payouts";

// A USDT payout on Solana (litesvm, served through the registry as RPC_SOLANA is) that creates
// the recipient's token account, on a database of this file's own: the merchant's balance from
// an invoice paid there, the rent booked as the payout's cost, and afterwards the books agree
// with the chain — the tokens and the SOL — and the payout's delivery is read back from it.

const served = useServedInProcessChains("solana_payout_reconcile");

/** A merchant paid in USDT on litesvm by a payer of its own (a real transfer the watcher sees). */
async function fundedMerchant(deps: ApiDeps): Promise<TestMerchant> {
  const chains = served.chains();
  const { chain, usdtMint, mintAuthority } = chains.solana;
  const merchant = await makeMerchant({ deps });
  const invoice = (await callSigned("/v1/payment", { amount: "50.00", currency: "USD", to_currency: "USDT", network: "solana" }, merchant, { deps })).body.result;
  const payer = Keypair.generate();
  chain.airdrop(payer.publicKey.toBase58(), 1_000_000_000n);
  await mintTestTokens(chain, mintAuthority, usdtMint, payer.publicKey, 100_000_000n);
  chain.advanceSlots(1); // the payment lands after the invoice was made
  const owner = new PublicKey(invoice.address);
  const ata = getAssociatedTokenAddressSync(usdtMint, owner, true);
  await chain.sendInstructions(
    [
      createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, ata, owner, usdtMint),
      createTransferCheckedInstruction(getAssociatedTokenAddressSync(usdtMint, payer.publicKey), usdtMint, ata, payer.publicKey, parseAmount(invoice.payer_amount, 6)!, 6),
    ],
    [payer],
  );
  await served.settle("solana", 5);
  expect((await callSigned("/v1/payment/info", { uuid: invoice.uuid }, merchant, { deps })).body.result.payment_status).toBe("paid");
  return merchant;
}

describe("a Solana USDT payout that creates its recipient's token account, reconciled with the chain", () => {
  it("books the rent with the fee, and the books agree with the chain afterwards", { timeout: 120_000 }, async () => {
    const deps = served.deps();
    const { chain, usdtMint, mintAuthority } = served.chains().solana;
    await served.settle("solana", 1);
    const merchant = await fundedMerchant(deps);
    // The hot wallet's SOL and USDT come from outside the books: a surplus, never a shortfall.
    const hot = deriveSigningKey((await loadKeyMaterial(deps.db, deps.secretBox)).openSeed(), "solana", HOT_WALLET_INDEX).address;
    const funder = Keypair.generate();
    chain.airdrop(funder.publicKey.toBase58(), 2_000_000_000n);
    await chain.sendInstructions([SystemProgram.transfer({ fromPubkey: funder.publicKey, toPubkey: new PublicKey(hot), lamports: 1_000_000_000n })], [funder]);
    await mintTestTokens(chain, mintAuthority, usdtMint, new PublicKey(hot), 40_000_000n);

    const recipient = Keypair.generate().publicKey.toBase58();
    const created = await callSigned("/v1/payout", { amount: "12.5", currency: "USDT", network: "solana", address: recipient, order_id: "sol-ata" }, merchant, { deps });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const sender = getChainSender(deps.db, deps.config, "solana")!;
    for (let pass = 0; pass < 4; pass++) {
      await sendPayouts(deps, "solana", sender);
      chain.advanceSlots(40);
    }
    const info = (await callSigned("/v1/payout/info", { uuid: created.body.result.uuid }, merchant, { deps })).body.result;
    expect(info).toMatchObject({ status: "paid", is_final: true });
    expect(tokensOf(chain, usdtMint, recipient)).toBe(parseAmount(info.receive_amount, 6));
    const [transfer] = await deps.db.outgoingTransfer.findMany({ where: { kind: "payout" } });
    const rent = await chain.getMinimumBalanceForRentExemption(165);
    expect(BigInt(transfer.feeMinor!.toFixed())).toBe(5_000n + rent);
    expect(await auditLedger(deps.db)).toEqual(CLEAN_LEDGER_AUDIT);

    const reconciled = await reconcileWithChains(deps, { network: "solana", timeoutMs: 10_000, payoutDays: 1, now: new Date() });
    const byCurrency = Object.fromEntries(reconciled.map((row) => [row.currency, row]));
    expect(byCurrency.USDT).toMatchObject({ shortfall: 0n, unprovenPayouts: [], landedDeadTransfers: [], uncheckedTransactions: 0 });
    expect(byCurrency.SOL).toMatchObject({ shortfall: 0n });
    expect(reconciled.filter(hasDrift)).toEqual([]);

    // Recorded as paying another recipient than the chain's transaction paid: unproven.
    await deps.db.outgoingTransfer.update({ where: { id: transfer.id }, data: { toAddress: Keypair.generate().publicKey.toBase58() } });
    const [misdelivered] = (await reconcileWithChains(deps, { network: "solana", timeoutMs: 10_000, payoutDays: 1, now: new Date() })).filter((row) => row.currency === "USDT");
    expect(misdelivered.unprovenPayouts).toEqual([created.body.result.uuid]);
  });
});
