import type { Command } from "commander";
import { findNetwork, findSettlementAsset } from "@/lib/catalogue";
import { getConfig } from "@/lib/config/env";
import { formatAmount } from "@/lib/domain/money/amount";
import { CliError } from "../cli-error";
import { getSecretBox } from "@/lib/crypto/master-key";
import { defineAction } from "../command-kit";
import { parseCount } from "../lookups";
import { withCliDatabase } from "../open-database";
import { formatTable } from "../table";

/** The latest reconciliation in a few words: "clean", or what drifted. */
function describeReconciliation(reconciliation: { drift: boolean; shortfall: string; unproven_payouts: number; landed_dead_transfers: number } | null): string {
  if (!reconciliation) return "never";
  if (!reconciliation.drift) return "clean";
  const parts = [
    reconciliation.shortfall !== "0" ? `short ${reconciliation.shortfall}` : "",
    reconciliation.unproven_payouts ? `${reconciliation.unproven_payouts} unproven payouts` : "",
    reconciliation.landed_dead_transfers ? `${reconciliation.landed_dead_transfers} dead transfers landed` : "",
  ].filter(Boolean);
  return `DRIFT${parts.length ? `: ${parts.join(", ")}` : ""}`;
}

/** A hot wallet limit in a few words: "max 5000", "max 5000, 1200 over", "max 5000, 2500 to cold (broadcast)". */
function describeLimit(limit: { max: string; excess: string; cold_transfer: { status: string; amount: string } | null; note: string } | null): string {
  if (!limit) return "-";
  if (limit.cold_transfer) return `max ${limit.max}, ${limit.cold_transfer.amount} to cold (${limit.cold_transfer.status})`;
  if (limit.excess !== "0") return `max ${limit.max}, ${limit.excess} over`;
  return limit.note ? `max ${limit.max}: ${limit.note}` : `max ${limit.max}`;
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
            { header: "LIMIT", value: (row) => describeLimit(row.limit) },
            { header: "IN COLD", value: (row) => row.cold_storage, align: "right" },
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
  defineAction<{ network?: string; dryRun?: boolean; timeout: string }>(
    wallets
      .command("to-cold")
      .description("per asset with a hot wallet limit (HOT_WALLET_MAX_*): what the hot wallet holds above its maximum, beyond what payouts reserve, sent to the cold address as one transfer at a time")
      .option("--network <id>", "only this network")
      .option("--dry-run", "show what would move; plan and send nothing")
      .option("--timeout <ms>", "deadline of each chain read", "10000"),
    async (options) => {
      const timeoutMs = parseCount(options.timeout, "--timeout", { min: 100, max: 120_000 });
      if (options.network !== undefined && !findNetwork(options.network)) throw new CliError("cli.usage", `No network ${options.network}: see GET /v1/currencies`);
      const config = getConfig();
      if (!config.hotWalletLimits.some((limit) => !options.network || limit.network === options.network)) {
        throw new CliError("cli.usage", `No hot wallet limit${options.network ? ` on ${options.network}` : ""}: set HOT_WALLET_MAX_<NETWORK>_<ASSET> and COLD_ADDRESS_<NETWORK>`);
      }
      return withCliDatabase(async (db) => {
        const { moveExcessToCold } = await import("@/lib/jobs/handlers/move-to-cold");
        const { verifyConfiguredNodes } = await import("../wallets/wallet-status");
        await verifyConfiguredNodes(db, config, timeoutMs);
        const checks = await moveExcessToCold({ db, config, secretBox: getSecretBox(), now: () => new Date() }, { network: options.network, timeoutMs, isDryRun: options.dryRun === true });
        const items = checks.map((check) => {
          const decimals = findSettlementAsset(check.currency, check.network)?.decimals ?? 0;
          const format = (minor: bigint) => formatAmount(minor, decimals);
          return {
            network: check.network,
            currency: check.currency,
            max: format(check.max),
            hot_wallet_ledger: format(check.ledgerHeld),
            hot_wallet_chain: check.chainHeld === null ? null : format(check.chainHeld),
            reserved: format(check.reserved),
            leaving: format(check.inFlight + check.feeReserve),
            excess: format(check.excess),
            cold_address: check.coldAddress,
            transfer: check.transfer ? { id: check.transfer.id, reference: check.transfer.reference, status: check.transfer.status, amount: format(check.transfer.amount), txid: check.transfer.txid } : null,
            planned: check.isPlanned,
            note: check.note,
          };
        });
        const text = formatTable(
          items,
          [
            { header: "NETWORK", value: (item) => item.network },
            { header: "ASSET", value: (item) => item.currency },
            { header: "MAX", value: (item) => item.max, align: "right" },
            { header: "HOT (BOOKS)", value: (item) => item.hot_wallet_ledger, align: "right" },
            { header: "HOT (CHAIN)", value: (item) => item.hot_wallet_chain ?? "?", align: "right" },
            { header: "RESERVED", value: (item) => item.reserved, align: "right" },
            { header: "EXCESS", value: (item) => item.excess, align: "right" },
            { header: "TO COLD", value: (item) => (item.transfer ? `${item.transfer.amount} ${item.transfer.status}${item.planned ? " (planned now)" : ""}` : options.dryRun && item.excess !== "0" ? "(dry run)" : "-") },
            { header: "TXID", value: (item) => item.transfer?.txid ?? "" },
            { header: "NOTE", value: (item) => item.note },
          ],
          "(no hot wallet limit)",
        );
        return { json: { items }, text };
      });
    },
  );
  defineAction<{ network: string; currency: string; txid: string; from?: string; timeout: string }>(
    wallets
      .command("from-cold")
      .description("books coins sent back from the cold address to the hot wallet (to refill it for payouts): what the transaction delivered, once, never more than the books hold in cold storage")
      .requiredOption("--network <id>", "the network")
      .requiredOption("--currency <symbol>", "the asset sent back")
      .requiredOption("--txid <txid>", "the transaction from the cold address to the hot wallet")
      .option("--from <address>", "the cold address it came from (default: the asset's COLD_ADDRESS_*)")
      .option("--timeout <ms>", "deadline of checking the configured node", "10000"),
    async (options) => {
      const timeoutMs = parseCount(options.timeout, "--timeout", { min: 100, max: 120_000 });
      const network = findNetwork(options.network);
      if (!network) throw new CliError("cli.usage", `No network ${options.network}: see GET /v1/currencies`);
      const asset = findSettlementAsset(options.currency.toUpperCase(), network.id);
      if (!asset) throw new CliError("cli.usage", `No ${options.currency} on ${network.id}: see GET /v1/currencies`);
      const config = getConfig();
      return withCliDatabase(async (db) => {
        const { bookReturnFromCold } = await import("@/lib/jobs/handlers/return-from-cold");
        const { verifyConfiguredNodes } = await import("../wallets/wallet-status");
        await verifyConfiguredNodes(db, config, timeoutMs);
        const outcome = await bookReturnFromCold(
          { db, config, secretBox: getSecretBox(), now: () => new Date() },
          { network: network.id, currency: asset.symbol, txid: options.txid.trim(), fromAddress: options.from?.trim() },
        );
        if (outcome.kind === "refused") throw new CliError("cli.usage", `Not booked: ${outcome.reason}`);
        const amount = formatAmount(outcome.amount, asset.decimals);
        const json = { network: network.id, currency: asset.symbol, txid: options.txid.trim(), amount, reference: outcome.reference, booked: outcome.kind === "booked" };
        const text = outcome.kind === "booked" ? `booked ${amount} ${asset.symbol} back from cold storage (${outcome.reference})` : `already booked: ${amount} ${asset.symbol} (${outcome.reference})`;
        return { json, text };
      });
    },
  );
}
