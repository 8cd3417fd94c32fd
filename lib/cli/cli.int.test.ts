import { describe, expect, it } from "vitest";
import { z } from "zod";
import { callAnvil, startAnvil } from "@/lib/chains/evm/testing/anvil";
import { startLitecoind } from "@/lib/chains/utxo/testing/litecoind";
import { hotWalletAddress } from "@/lib/chains/hot-wallet";
import { loadKeyMaterial } from "@/lib/chains/key-material";
import { parseAmount } from "@/lib/domain/money/amount";
import { runUnit } from "@/lib/deps/unit-of-work";
import { createPayout } from "@/lib/services/payouts/create-payout";
import { depositOnSandbox, mineOnSandbox } from "@/lib/jobs/handlers/sandbox-chain";
import { makeFundedMerchant } from "@/lib/testing/funding";
import { addApiKey, callSigned, getTestDb, getTestSecretBox, makeMerchant, makeTestDeps } from "@/lib/testing/harness";
import { cliActor } from "./lookups";
import { runCli } from "./testing/cli-process";

// The operator CLI as operators run it: its own process on the test database. Under --json every
// command prints exactly one JSON object on stdout; the contract commands (operator contract §2)
// keep their exact keys.

const TRON_ADDRESS = "TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC";

/** stdout holds one line, one JSON object, nothing else. */
function expectOneObject(run: { stdout: string; json: unknown }) {
  expect(run.stdout.trimEnd().split("\n")).toHaveLength(1);
  expect(run.json).toBeTypeOf("object");
}

describe("operator CLI", () => {
  it("keeps the contract commands' exact outputs: merchant create, key create, key revoke", { timeout: 240_000 }, async () => {
    const email = `owner-${Date.now()}@example.com`;
    const [plain, withCabinet] = await Promise.all([
      runCli(["merchant", "create", "--name", "CLI Shop", "--json"]),
      runCli(["merchant", "create", "--name", "CLI Cabinet Shop", "--email", email, "--password", "a long enough password", "--json"]),
    ]);
    for (const created of [plain, withCabinet]) {
      expect(created.status, created.stderr).toBe(0);
      expectOneObject(created);
      expect(Object.keys(created.json).sort()).toEqual(["merchant_id", "public_id", "secret"]);
    }
    // The unified key signs calls.
    const key = { merchantId: plain.json.merchant_id, publicId: plain.json.public_id, secret: plain.json.secret };
    expect((await callSigned("/v1/payment/services", {}, key)).status).toBe(200);
    expect(await getTestDb().cabinetUser.count({ where: { merchantId: withCabinet.json.merchant_id, email } })).toBe(1);

    const issued = await runCli(["key", "create", "--merchant", plain.json.merchant_id, "--kind", "payout", "--json"]);
    expect(issued.status, issued.stderr).toBe(0);
    expectOneObject(issued);
    expect(Object.keys(issued.json).sort()).toEqual(["kind", "public_id", "secret"]);
    expect(issued.json.kind).toBe("payout");

    const [revoked, unknownMerchant, badKind] = await Promise.all([
      runCli(["key", "revoke", "--public-id", issued.json.public_id, "--json"]),
      runCli(["key", "create", "--merchant", "00000000-0000-4000-8000-000000000000", "--kind", "payment", "--json"]),
      runCli(["key", "create", "--merchant", plain.json.merchant_id, "--kind", "admin", "--json"]),
    ]);
    expect(revoked.json).toEqual({ revoked: true });
    expect(revoked.status).toBe(0);
    const payoutKey = { merchantId: key.merchantId, publicId: issued.json.public_id, secret: issued.json.secret };
    expect((await callSigned("/v1/payout/services", {}, payoutKey)).body.error.code).toBe("merchant.unknown_key");

    // Failures: exit 1, the message on stderr, {"error": {code, message}} as the one object.
    expect(unknownMerchant.status).toBe(1);
    expectOneObject(unknownMerchant);
    expect(unknownMerchant.json).toEqual({ error: { code: "cli.not_found", message: "No merchant 00000000-0000-4000-8000-000000000000" } });
    expect(unknownMerchant.stderr).toContain("No merchant");
    expect(badKind.status).toBe(1);
    expect(badKind.json.error.code).toBe("cli.usage");
    expect(badKind.json.error.message).toMatch(/unified, payment, payout/);
  });

  it("lists merchants with their active keys and cabinet users, as a table and as items", { timeout: 240_000 }, async () => {
    const merchant = await makeMerchant({ name: `Listed ${Date.now()}` });
    const [asJson, asTable] = await Promise.all([runCli(["merchant", "list", "--json"]), runCli(["merchant", "list"])]);
    expect(asJson.status, asJson.stderr).toBe(0);
    expectOneObject(asJson);
    const row = asJson.json.items.find((item: { merchant_id: string }) => item.merchant_id === merchant.merchantId);
    expect(row).toEqual({ merchant_id: merchant.merchantId, name: expect.stringMatching(/^Listed /), created_at: expect.any(String), api_keys: 1, cabinet_users: 0 });
    const lines = asTable.stdout.split("\n");
    expect(lines[0]).toMatch(/^MERCHANT\s+NAME\s+CREATED\s+KEYS\s+CABINET USERS$/);
    expect(lines[1]).toMatch(/^-+(\s+-+){4}$/);
    const line = lines.find((text) => text.startsWith(merchant.merchantId));
    // Every row's columns start where the header's do.
    expect(line!.indexOf("Listed ")).toBe(lines[0].indexOf("NAME"));
  });

  it("approves a manual payout through the approval service, and its creator may not", { timeout: 240_000 }, async () => {
    const { merchant } = await makeFundedMerchant("100.00");
    // Made with a key a store member made in the cabinet (not the operator's, which the operator answers for).
    const member = await addApiKey(merchant.merchantId, "payout");
    const created = await callSigned("/v1/payout", { amount: "5", currency: "USDT", network: "tron", address: TRON_ADDRESS, source: "manual", order_id: "cli-manual-1" }, member);
    expect(created.body.result.internal_status).toBe("pending");
    // A manual payout the operator made from this CLI: the operator cannot approve it too.
    const own = await runUnit(makeTestDeps(), createPayout, { merchantId: merchant.merchantId, input: { amount: "5", currency: "USDT", network: "tron", address: TRON_ADDRESS, source: "manual", order_id: "cli-manual-2" }, actor: cliActor() });

    const [approved, refused, listed] = await Promise.all([
      runCli(["payout", "approve", "--merchant", merchant.merchantId, "--payout", created.body.result.uuid, "--json"]),
      runCli(["payout", "approve", "--merchant", merchant.merchantId, "--payout", own.id, "--json"]),
      runCli(["payout", "list", "--merchant", merchant.merchantId, "--status", "pending", "--json"]),
    ]);
    expect(approved.status, approved.stderr).toBe(0);
    expectOneObject(approved);
    expect(approved.json).toMatchObject({ uuid: created.body.result.uuid, internal_status: "approved", status: "process", approval_required: true });
    const row = await getTestDb().payout.findUniqueOrThrow({ where: { id: created.body.result.uuid } });
    expect(row.approvedBy).toBe(cliActor());
    expect(cliActor()).toMatch(/^cli:.+/);

    expect(refused.status).toBe(1);
    expect(refused.json.error.code).toBe("payout.approver_is_creator");
    expect((await getTestDb().payout.findUniqueOrThrow({ where: { id: own.id } })).status).toBe("pending");

    // Listed before the decisions or after the approval: the operator's payout is pending either way.
    expect(listed.json.items.map((item: { uuid: string }) => item.uuid)).toContain(own.id);
    expect(listed.json.items.every((item: { internal_status: string }) => item.internal_status === "pending")).toBe(true);

    const [again, otherMerchant] = await Promise.all([
      runCli(["payout", "approve", "--merchant", merchant.merchantId, "--payout", created.body.result.uuid, "--json"]),
      runCli(["payout", "reject", "--merchant", (await makeMerchant()).merchantId, "--payout", own.id, "--json"]),
    ]);
    expect(again.json.error.code).toBe("payout.not_pending");
    expect(otherMerchant.json.error.code).toBe("payout.not_found");
  });

  it("audits the ledger: a table for people, the report's keys with --json, exit 1 on drift", { timeout: 240_000 }, async () => {
    const [asJson, asTable] = await Promise.all([runCli(["ledger", "audit", "--json"]), runCli(["ledger", "audit"])]);
    expectOneObject(asJson);
    expect(Object.keys(asJson.json)).toEqual([
      "clean",
      "mismatched",
      "negative",
      "unbalanced_journals",
      "transfers_vs_credits",
      "settled_vs_journals",
      "lots_vs_maturing",
      "outgoing_vs_fees",
      "payouts_vs_held",
      "payouts_vs_journals",
      "payouts_vs_transfers",
      "refunds_vs_paid",
      "splits_vs_held",
      "blocked_vs_held",
      "cold_vs_transfers",
      "invoices_in_review",
    ]);
    expect(asJson.status).toBe(asJson.json.clean ? 0 : 1);
    const lines = asTable.stdout.split("\n");
    expect(lines[0]).toMatch(/^CHECK\s+FOUND\s+FIRST FINDINGS\s+MEANING$/);
    for (const check of ["mismatched", "unbalanced_journals", "payouts_vs_transfers", "blocked_vs_held"]) expect(lines.some((line) => new RegExp(`^${check}\\s+\\d+\\s`).test(line))).toBe(true);
    expect(asTable.stdout).toMatch(/the ledger (is clean|has drift)/);
  });

  it("shows hot wallets' balances (sandbox chain, real EVM and UTXO nodes) against what the ledger owes, and the difference", { timeout: 300_000 }, async () => {
    // dogecoin: a sandbox network no other test sends from, so the hot wallet holds only this test's coins.
    const deps = makeTestDeps();
    const db = getTestDb();
    const hot = hotWalletAddress(await loadKeyMaterial(db, getTestSecretBox()), "dogecoin", "main");
    await depositOnSandbox(deps, { network: "dogecoin", currency: "DOGE", address: hot, amount: "12.34567891" });
    await mineOnSandbox(deps, { network: "dogecoin", blocks: 1 });
    const merchant = await makeMerchant();
    const invoice = (await callSigned("/v1/payment", { amount: "20.00", currency: "USD", to_currency: "DOGE", network: "dogecoin", order_id: "cli-wallets" }, merchant)).body.result;
    await callSigned("/v1/sandbox/deposit", { network: "dogecoin", currency: "DOGE", address: invoice.address, amount: invoice.payer_amount }, merchant);
    await callSigned("/v1/sandbox/mine", { network: "dogecoin", blocks: 60 }, merchant);
    const balances = (await callSigned("/v1/balance", { currency: "DOGE", network: "dogecoin" }, merchant)).body.result.balances[0];

    // Real nodes too, for this CLI run only: arbitrum served by anvil, its hot wallet holding 1 ETH
    // and 1 wei; litecoin by litecoind -regtest, its hot wallet paid 0.75 LTC and 0.1 LTC unconfirmed.
    const [anvil, litecoind] = await Promise.all([startAnvil(), startLitecoind()]);
    let onNode;
    let asJson;
    let asTable;
    try {
      const keys = await loadKeyMaterial(db, getTestSecretBox());
      const evmHot = hotWalletAddress(keys, "arbitrum", "test");
      await callAnvil(anvil.url, "anvil_setBalance", [evmHot, "0xde0b6b3a7640001"]);
      const utxoHot = hotWalletAddress(keys, "litecoin", "regtest");
      await litecoind.rpc.call("sendtoaddress", [utxoHot, "0.75"], z.string());
      await litecoind.mine(1);
      await litecoind.rpc.call("sendtoaddress", [utxoHot, "0.1"], z.string());
      [asJson, asTable, onNode] = await Promise.all([
        runCli(["wallets", "status", "--json"]),
        runCli(["wallets", "status"]),
        runCli(["wallets", "status", "--json"], { RPC_ARBITRUM: anvil.url, RPC_LITECOIN: litecoind.rpcUrl }),
      ]);
      expect(onNode.status, onNode.stderr).toBe(0);
      const evmRow = onNode.json.items.find((item: { network: string; currency: string }) => item.network === "arbitrum" && item.currency === "ETH");
      expect(evmRow).toMatchObject({ source: "rpc", hot_wallet_address: evmHot, hot_wallet_balance: "1.000000000000000001", note: "" });
      const wei = (text: string) => parseAmount(text.replace(/^-/, ""), 18)! * (text.startsWith("-") ? -1n : 1n);
      expect(wei(evmRow.difference)).toBe(wei(evmRow.hot_wallet_balance) - wei(evmRow.owed));
      // What a payout could spend: the confirmed coins only.
      const utxoRow = onNode.json.items.find((item: { network: string; currency: string }) => item.network === "litecoin" && item.currency === "LTC");
      expect(utxoRow).toMatchObject({ source: "rpc", hot_wallet_address: utxoHot, hot_wallet_balance: "0.75", note: "" });
      const litoshi = (text: string) => parseAmount(text.replace(/^-/, ""), 8)! * (text.startsWith("-") ? -1n : 1n);
      expect(litoshi(utxoRow.difference)).toBe(75_000_000n - litoshi(utxoRow.owed));
    } finally {
      await Promise.all([anvil.stop(), litecoind.stop()]);
    }
    expect(asJson.status, asJson.stderr).toBe(0);
    expectOneObject(asJson);
    const row = asJson.json.items.find((item: { network: string; currency: string }) => item.network === "dogecoin" && item.currency === "DOGE");
    expect(row).toMatchObject({ source: "sandbox", hot_wallet_address: hot, note: "" });
    const minor = (text: string) => parseAmount(text.replace(/^-/, ""), 8)! * (text.startsWith("-") ? -1n : 1n);
    // Nothing was swept or sent here: the hot wallet holds exactly the coins sent to it.
    expect(row.hot_wallet_balance).toBe("12.34567891");
    expect(minor(row.owed)).toBeGreaterThanOrEqual(minor(balances.available) + minor(balances.maturing));
    expect(minor(row.difference)).toBe(minor(row.hot_wallet_balance) - minor(row.owed));
    expect(minor(row.ledger_on_chain)).toBe(minor(row.owed) + minor(row.platform) - minor(row.cold_storage));
    expect(asTable.stdout.split("\n")[0]).toMatch(/^NETWORK\s+ASSET\s+SOURCE\s+HOT WALLET\s+OWED\s+DIFFERENCE\s+LEDGER ON CHAIN\s+LIMIT\s+IN COLD\s+RECONCILED\s+ADDRESS\s+NOTE$/);
    expect(asTable.stdout.split("\n").some((line) => /^dogecoin\s+DOGE\s+sandbox\s+12\.34567891\s/.test(line))).toBe(true);
  });

  it("lists every command in --help, and a group's commands in its own help", { timeout: 120_000 }, async () => {
    const [root, group, unknown] = await Promise.all([runCli(["--help"]), runCli(["payout", "--help"]), runCli(["merchant", "delete", "--json"])]);
    expect(root.status).toBe(0);
    for (const usage of [
      "merchant create --name <name>",
      "merchant set-fee --merchant <merchant_id>",
      "merchant list",
      "key create --merchant <merchant_id> --kind unified|payment|payout",
      "key revoke --public-id <public_id>",
      "payout approve --merchant <merchant_id> --payout <uuid>",
      "payout list --merchant <merchant_id> [--status <statuses>]",
      "batch watch <batch_id>",
      "wallets status",
      "transfers list",
      "events list [--merchant <merchant_id>] [--type <types>] [--limit <n>]",
      "events resend <event_id>",
      "listen --merchant <merchant_id> --forward-to <url> [--events <types>]",
      "trigger <event_type> --merchant <merchant_id>",
      "ledger audit",
      "ledger reconcile",
      "compliance block --address <address>",
      "compliance unblock",
      "compliance list",
      "mailbox",
      "db migrate",
      "errors",
    ]) {
      expect(root.stdout).toContain(usage);
    }
    expect(group.status).toBe(0);
    expect(group.stdout).toContain("payout approve --merchant <merchant_id> --payout <uuid> [--json]");
    expect(group.stdout).not.toContain("merchant create");
    expect(unknown.status).toBe(1);
    expect(unknown.json.error.code).toBe("cli.usage");
  });
});
