import type { Command } from "commander";
import { findNetwork, findSettlementAsset } from "@/lib/catalogue";
import { formatAmount } from "@/lib/domain/money/amount";
import { IN_FLIGHT_OUTGOING_STATUSES } from "@/lib/domain/outgoing/transition";
import { CliError } from "../cli-error";
import { defineAction } from "../command-kit";
import { parseCount } from "../lookups";
import { withCliDatabase } from "../open-database";
import { formatTable } from "../table";

/** Seconds as people read a wait: "45 s", "12 min", "3 h". */
function describeAge(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7200) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h`;
}

export function registerTransfersCommands(program: Command): void {
  const transfers = program.command("transfers").description("the service's own on-chain transfers: payouts, sweeps and their gas");
  defineAction<{ network?: string; replaced?: boolean; limit: string }>(
    transfers
      .command("list")
      .description("transfers on their way (planned, signed, broadcast, seen), oldest first: stuck ones, those replaced with a higher fee, what each last heard")
      .option("--network <id>", "only this network")
      .option("--replaced", "only those replaced with a higher fee at least once")
      .option("--limit <n>", "at most this many", "50"),
    async (options) => {
      const limit = parseCount(options.limit, "--limit", { min: 1, max: 1000 });
      if (options.network !== undefined && !findNetwork(options.network)) throw new CliError("cli.usage", `No network ${options.network}: see GET /v1/currencies`);
      return withCliDatabase(async (db) => {
        const rows = await db.outgoingTransfer.findMany({
          where: {
            status: { in: ["planned", ...IN_FLIGHT_OUTGOING_STATUSES] },
            ...(options.network ? { network: options.network } : {}),
            ...(options.replaced ? { replacements: { gt: 0 } } : {}),
          },
          orderBy: { createdAt: "asc" },
          take: limit,
        });
        const now = Date.now();
        const items = rows.map((row) => {
          const decimals = findSettlementAsset(row.currency, row.network)?.decimals ?? 0;
          const consumes = row.consumes ? (JSON.parse(row.consumes) as { supersedes?: string[] }) : {};
          return {
            id: row.id,
            network: row.network,
            kind: row.kind,
            reference: row.reference,
            status: row.status,
            amount: formatAmount(BigInt(row.amountMinor.toFixed()), decimals),
            currency: row.currency,
            from_address: row.fromAddress,
            to_address: row.toAddress,
            txid: row.txid,
            nonce: row.nonce,
            seqno: row.seqno,
            broadcasts: row.broadcasts,
            replacements: row.replacements,
            replaced_txids: consumes.supersedes ?? [],
            age_seconds: Math.max(0, Math.floor((now - row.createdAt.getTime()) / 1000)),
            last_error: row.lastError,
          };
        });
        const text = formatTable(
          items,
          [
            { header: "NETWORK", value: (item) => item.network },
            { header: "KIND", value: (item) => item.kind },
            { header: "STATUS", value: (item) => item.status },
            { header: "AMOUNT", value: (item) => `${item.amount} ${item.currency}`, align: "right" },
            { header: "AGE", value: (item) => describeAge(item.age_seconds), align: "right" },
            { header: "REPLACED", value: (item) => String(item.replacements), align: "right" },
            { header: "TXID", value: (item) => item.txid ?? "-" },
            { header: "LAST ANSWER", value: (item) => item.last_error || "-" },
          ],
          "(no transfer on its way)",
        );
        return { json: { items }, text };
      });
    },
  );
}
