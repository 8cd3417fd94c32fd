import type { Command } from "commander";
import { getSecretBox } from "@/lib/crypto/master-key";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { formatPercentBps } from "@/lib/domain/fees/platform-fee";
import { CliError } from "../cli-error";
import { defineAction } from "../command-kit";
import { requireMerchant } from "../lookups";
import { withCliDatabase } from "../open-database";
import { formatTable } from "../table";

export function registerMerchantCommands(program: Command): void {
  const merchant = program.command("merchant").description("merchants: create, list, fee overrides");

  defineAction<{ name: string; email?: string; password?: string }>(
    merchant
      .command("create")
      .description("a new merchant and its unified API key (with --email/--password, also a cabinet owner)")
      .requiredOption("--name <name>", "the merchant's name")
      .option("--email <email>", "the cabinet owner's e-mail")
      .option("--password <password>", "the cabinet owner's password"),
    async (options) =>
      withCliDatabase(async (db) => {
        const { createMerchant } = await import("@/lib/services/merchants/create-merchant");
        const { withTransaction } = await import("@/lib/db/transaction");
        let created;
        try {
          const merchant = await createMerchant.prepare(undefined, { name: options.name, email: options.email, password: options.password });
          created = await withTransaction(db, (tx) => createMerchant.execute(tx, { secretBox: getSecretBox() }, merchant));
        } catch (error) {
          // The service refuses bad input with plain errors whose message is for the operator.
          if (error instanceof Error && error.name === "Error") throw new CliError("cli.usage", error.message);
          throw error;
        }
        return {
          json: { merchant_id: created.merchantId, public_id: created.apiKey.publicId, secret: created.apiKey.secret },
          text: `merchant_id: ${created.merchantId}\npublic_id:   ${created.apiKey.publicId}\nsecret:      ${created.apiKey.secret}\n(the secret is shown once; store it now)`,
        };
      }),
  );

  defineAction<{ merchant: string; percent?: string; fixedUsd?: string }>(
    merchant
      .command("set-fee")
      .description("platform fee override for the merchant's new invoices (default 1.5 % + 0.30 USD)")
      .requiredOption("--merchant <merchant_id>", "the merchant")
      .option("--percent <percent>", "percentage, 0 to 100 with at most 2 decimals")
      .option("--fixed-usd <amount>", "fixed part in USD, at most 2 decimals"),
    async (options) => {
      const percentBps = options.percent === undefined ? undefined : parseAmount(options.percent, 2);
      const fixedUsdMinor = options.fixedUsd === undefined ? undefined : parseAmount(options.fixedUsd, 2);
      if (percentBps === null || (percentBps !== undefined && percentBps > 10_000n)) throw new CliError("cli.usage", "--percent must be from 0 to 100 with at most 2 decimals");
      if (fixedUsdMinor === null) throw new CliError("cli.usage", "--fixed-usd must be a decimal amount with at most 2 decimals");
      return withCliDatabase(async (db) => {
        const { id: merchantId } = await requireMerchant(db, options.merchant);
        const updated = await db.merchant.update({
          where: { id: merchantId },
          data: {
            ...(percentBps !== undefined ? { feePercentBps: Number(percentBps) } : {}),
            ...(fixedUsdMinor !== undefined ? { feeFixedUsdMinor: fixedUsdMinor.toString() } : {}),
          },
          select: { feePercentBps: true, feeFixedUsdMinor: true },
        });
        const percent = updated.feePercentBps === null ? null : formatPercentBps(updated.feePercentBps);
        const fixed = updated.feeFixedUsdMinor === null ? null : formatAmount(BigInt(updated.feeFixedUsdMinor.toFixed()), 2, 2);
        return { json: { merchant_id: merchantId, fee_percent: percent, fee_fixed_usd: fixed }, text: `fee: ${percent ?? "default"} % + ${fixed ?? "default"} USD` };
      });
    },
  );

  defineAction(
    merchant.command("list").description("every merchant, newest first: active API keys and cabinet users"),
    async () =>
      withCliDatabase(async (db) => {
        const merchants = await db.merchant.findMany({
          orderBy: [{ createdAt: "desc" }, { id: "asc" }],
          select: {
            id: true,
            name: true,
            createdAt: true,
            _count: { select: { apiKeys: { where: { revokedAt: null } }, cabinetUsers: { where: { disabledAt: null } } } },
          },
        });
        const items = merchants.map((row) => ({
          merchant_id: row.id,
          name: row.name,
          created_at: row.createdAt.toISOString(),
          api_keys: row._count.apiKeys,
          cabinet_users: row._count.cabinetUsers,
        }));
        const text = formatTable(
          items,
          [
            { header: "MERCHANT", value: (item) => item.merchant_id },
            { header: "NAME", value: (item) => item.name },
            { header: "CREATED", value: (item) => item.created_at },
            { header: "KEYS", value: (item) => String(item.api_keys), align: "right" },
            { header: "CABINET USERS", value: (item) => String(item.cabinet_users), align: "right" },
          ],
          "(no merchants)",
        );
        return { json: { items }, text };
      }),
  );
}
