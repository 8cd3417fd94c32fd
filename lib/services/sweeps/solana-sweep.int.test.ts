import { describe, expect, it } from "vitest";
import { Keypair, PublicKey } from "@solana/web3.js";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { deriveSigningKey, HOT_WALLET_INDEX } from "@/lib/chains/signing-keys";
import { createLiteSvmAccess } from "@/lib/chains/solana/testing/litesvm-access";
import { createSolanaSender } from "@/lib/chains/solana/solana-sender";
import { deployTestMint, mintTestTokens, tokensOf } from "@/lib/chains/solana/testing/test-mint";
import { auditLedger, CLEAN_LEDGER_AUDIT } from "@/lib/ledger/audit";
import { callSigned, getTestDb, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { sweepNetwork } from "@/lib/jobs/handlers/sweep-deposits";
import { parseAmount } from "@/lib/domain/money/amount";

const SOL = 1_000_000_000n;

// The sweeper against litesvm: an SPL deposit needs SOL for its fee, which the hot wallet sends first.
describe("sweeping SPL tokens on litesvm", () => {
  it("sends gas from the hot wallet, then moves the tokens to the hot wallet", async () => {
    const chain = createLiteSvmAccess();
    const payer = Keypair.generate();
    chain.airdrop(payer.publicKey.toBase58(), 100n * SOL);
    const mint = await deployTestMint(chain, payer, 6);

    // An invoice paid (on the sandbox ledger) whose deposit owner holds the tokens on litesvm.
    const merchant = await makeMerchant();
    const invoice = (await callSigned("/v1/payment", { amount: "20.00", currency: "USD", to_currency: "USDT", network: "solana" }, merchant)).body.result;
    await callSigned("/v1/sandbox/deposit", { network: "solana", currency: "USDT", address: invoice.address, amount: invoice.payer_amount }, merchant);
    await callSigned("/v1/sandbox/mine", { network: "solana", blocks: 40 }, merchant);
    const amount = parseAmount(invoice.payer_amount, 6)!;
    await mintTestTokens(chain, payer, mint, new PublicKey(invoice.address), amount);

    // The network now counts as served by a node (the litesvm sender), so gas is needed.
    const deps = makeTestDeps({}, { RPC_SOLANA: "http://litesvm.invalid" });
    const hot = deriveSigningKey((await loadKeyMaterial(deps.db, deps.secretBox)).openSeed(), "solana", HOT_WALLET_INDEX);
    chain.airdrop(hot.address, 10n * SOL);
    const sender = createSolanaSender({ access: chain, mints: { USDT: mint.toBase58() } });

    const onlyThis = async () => {
      // Other test files' Solana invoices have no funds on this litesvm: keep their rows out of the way.
      await getTestDb().outgoingTransfer.updateMany({ where: { network: "solana", kind: { in: ["sweep", "gas"] }, fromAddress: { not: invoice.address }, toAddress: { not: invoice.address } }, data: { status: "failed" } });
      await sweepNetwork(deps, "solana", sender);
    };
    for (let pass = 0; pass < 4; pass++) await onlyThis();

    const rows = await getTestDb().outgoingTransfer.findMany({ where: { OR: [{ fromAddress: invoice.address }, { toAddress: invoice.address }] }, orderBy: { createdAt: "asc" } });
    expect(rows.map((row) => `${row.kind}:${row.currency}:${row.status}`)).toEqual(["gas:SOL:confirmed", "sweep:USDT:confirmed"]);
    expect(tokensOf(chain, mint, invoice.address)).toBe(0n);
    expect(tokensOf(chain, mint, hot.address)).toBe(amount);
    expect(await auditLedger(getTestDb())).toEqual(CLEAN_LEDGER_AUDIT);
  });
});
