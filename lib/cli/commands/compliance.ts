import type { Command } from "commander";
import { CliError } from "../cli-error";
import { defineAction } from "../command-kit";
import { withCliDatabase } from "../open-database";
import { formatTable } from "../table";

export function registerComplianceCommands(program: Command): void {
  const compliance = program.command("compliance").description("the deny list of payout, refund and claim destinations");

  defineAction<{ address: string; network?: string; reason?: string }>(
    compliance
      .command("block")
      .description("refuses payouts, refunds and claims to the address (on one network, or on every network without --network)")
      .requiredOption("--address <address>", "the address")
      .option("--network <network>", "only on this network")
      .option("--reason <text>", "why, for the operators (never shown to merchants)"),
    async (options) =>
      withCliDatabase(async (db) => {
        const { blockAddress } = await import("@/lib/services/compliance/screening");
        let blocked;
        try {
          blocked = await blockAddress(db, options);
        } catch (error) {
          // The service refuses an unknown network or an empty address with a message for the operator.
          throw new CliError("cli.usage", error instanceof Error ? error.message : String(error));
        }
        return { json: { blocked }, text: `blocked ${blocked.address} on ${blocked.network === "*" ? "every network" : blocked.network}` };
      }),
  );

  defineAction<{ address: string; network?: string }>(
    compliance
      .command("unblock")
      .description("takes the address off the deny list (the entry for --network, or the one for every network)")
      .requiredOption("--address <address>", "the address")
      .option("--network <network>", "the network of the entry"),
    async (options) =>
      withCliDatabase(async (db) => {
        const { unblockAddress } = await import("@/lib/services/compliance/screening");
        if (!(await unblockAddress(db, options))) {
          throw new CliError("cli.not_found", `${options.address} is not on the deny list${options.network ? ` for ${options.network}` : ""}`);
        }
        return { json: { unblocked: true }, text: `unblocked ${options.address}` };
      }),
  );

  defineAction(compliance.command("list").description("the deny list"), async () =>
    withCliDatabase(async (db) => {
      const { listBlockedAddresses } = await import("@/lib/services/compliance/screening");
      const blocked = await listBlockedAddresses(db);
      const text = formatTable(
        blocked,
        [
          { header: "NETWORK", value: (row) => row.network },
          { header: "ADDRESS", value: (row) => row.address },
          { header: "REASON", value: (row) => row.reason },
          { header: "SINCE", value: (row) => row.created_at },
        ],
        "(the deny list is empty)",
      );
      return { json: { blocked }, text };
    }),
  );
}
