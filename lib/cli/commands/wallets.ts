import type { Command } from "commander";
import { getConfig } from "@/lib/config/env";
import { getSecretBox } from "@/lib/crypto/master-key";
import { defineAction } from "../command-kit";
import { parseCount } from "../lookups";
import { withCliDatabase } from "../open-database";
import { formatTable } from "../table";

/** The latest reconciliation in a few words: "clean", or what drifted. */
function describeReconciliation(reconciliation: { drift: boolean; shortfall: string; unproven_payouts: number } | null): string {
  if (!reconciliation) return "never";
  if (!reconciliation.drift) return "clean";
  const parts = [reconciliation.shortfall !== "0" ? `short ${reconciliation.shortfall}` : "", reconciliation.unproven_payouts ? `${reconciliation.unproven_payouts} unproven payouts` : ""].filter(Boolean);
  return `DRIFT${parts.length ? `: ${parts.join(", ")}` : ""}`;
}

export function registerWalletsCommands(program: Command): void {
  const wallets = program.command("wallets").description("the service's hot wallets");
  defineAction<{ all?: boolean; timeout: string }>(
    wallets
      .command("status")
      .description("per network and asset: the hot wallet's balance on chain against what the ledger owes merchants, and the difference")
      .option("--all", "also assets where everything is zero")
      .option("--timeout <ms>", "deadline of each chain read", "5000"),
    async (options) => {
      const timeoutMs = parseCount(options.timeout, "--timeout", { min: 100, max: 120_000 });
      return withCliDatabase(async (db) => {
        const { listWalletStatus } = await import("../wallets/wallet-status");
        const items = await listWalletStatus({ db, config: getConfig(), secretBox: getSecretBox() }, { isAll: options.all === true, timeoutMs });
        const text = formatTable(
          items,
          [
            { header: "NETWORK", value: (row) => row.network },
            { header: "ASSET", value: (row) => row.currency },
            { header: "SOURCE", value: (row) => row.source },
            { header: "HOT WALLET", value: (row) => row.hot_wallet_balance ?? "?", align: "right" },
            { header: "OWED", value: (row) => row.owed, align: "right" },
            { header: "DIFFERENCE", value: (row) => row.difference ?? "?", align: "right" },
            { header: "LEDGER ON CHAIN", value: (row) => row.ledger_on_chain, align: "right" },
            { header: "RECONCILED", value: (row) => describeReconciliation(row.reconciliation) },
            { header: "ADDRESS", value: (row) => row.hot_wallet_address ?? "" },
            { header: "NOTE", value: (row) => row.note },
          ],
          "(no balances anywhere; --all lists every asset)",
        );
        return { json: { items }, text };
      });
    },
  );
}
