import type { Command } from "commander";
import { getConfig } from "@/lib/config/env";
import { coarsePayoutStatus, PAYOUT_STATUSES, type CoarsePayoutStatus, type PayoutStatus } from "@/lib/domain/payout/transition";
import type { PayoutObject } from "@/lib/api/serialize/payout";
import { isUuid } from "@/lib/domain/input/uuid";
import { CliError } from "../cli-error";
import { defineAction } from "../command-kit";
import { cliActor, parseCount, requireMerchant } from "../lookups";
import { withCliDatabase } from "../open-database";
import { formatTable } from "../table";

const COARSE_STATUSES: readonly CoarsePayoutStatus[] = ["check", "process", "paid", "fail", "cancel"];

/**
 * `--status` names internal statuses (pending, approved, …) or the API's coarse ones (check,
 * process, …), comma-separated; the two vocabularies share no word.
 */
function parseStatusFilter(text: string): PayoutStatus[] {
  const statuses = new Set<PayoutStatus>();
  for (const word of text.split(",").map((part) => part.trim().toLowerCase())) {
    if ((PAYOUT_STATUSES as readonly string[]).includes(word)) statuses.add(word as PayoutStatus);
    else if ((COARSE_STATUSES as readonly string[]).includes(word)) PAYOUT_STATUSES.filter((status) => coarsePayoutStatus(status) === word).forEach((status) => statuses.add(status));
    else throw new CliError("cli.usage", `--status: "${word}" is not a payout status (${[...PAYOUT_STATUSES, ...COARSE_STATUSES].join(", ")})`);
  }
  return [...statuses];
}

function describeDecision(payout: PayoutObject): string {
  return `payout ${payout.uuid} (${payout.order_id}): ${payout.internal_status}\n${payout.amount} ${payout.currency} on ${payout.network} to ${payout.address}`;
}

/**
 * Approving or rejecting runs the service POST /v1/payout/approve runs, with the operator as the
 * actor: the four-eyes rule (no one approves what they created) holds for the CLI too.
 */
async function decide(options: { merchant: string; payout: string }, isApproval: boolean) {
  if (!isUuid(options.payout)) throw new CliError("cli.usage", "--payout must be the payout's uuid");
  return withCliDatabase(async (db) => {
    const { decidePendingPayout } = await import("@/lib/services/payouts/manage-payouts");
    const { toPayoutObject } = await import("@/lib/api/serialize/payout");
    const merchant = await requireMerchant(db, options.merchant);
    const { withTransaction } = await import("@/lib/db/transaction");
    const deps = { db, config: getConfig(), now: () => new Date() };
    const decision = await decidePendingPayout.prepare(deps, { merchantId: merchant.id, input: { uuid: options.payout, approve: isApproval }, actor: cliActor() });
    const decided = await withTransaction(db, (tx) => decidePendingPayout.execute(tx, deps, decision));
    const payout = toPayoutObject(decided);
    return { json: payout, text: describeDecision(payout) };
  });
}

export function registerPayoutCommands(program: Command): void {
  const payout = program.command("payout").description("merchants' payouts: approval of manual payouts, lists");

  defineAction<{ merchant: string; payout: string }>(
    payout
      .command("approve")
      .description("approves a pending (manual) payout as cli:<os user>; its creator may not approve it")
      .requiredOption("--merchant <merchant_id>", "the merchant")
      .requiredOption("--payout <uuid>", "the payout"),
    (options) => decide(options, true),
  );

  defineAction<{ merchant: string; payout: string }>(
    payout
      .command("reject")
      .description("rejects a pending (manual) payout as cli:<os user>; its reserve returns to the balance")
      .requiredOption("--merchant <merchant_id>", "the merchant")
      .requiredOption("--payout <uuid>", "the payout"),
    (options) => decide(options, false),
  );

  defineAction<{ merchant: string; status?: string; limit: string }>(
    payout
      .command("list")
      .description("the merchant's payouts, newest first")
      .requiredOption("--merchant <merchant_id>", "the merchant")
      .option("--status <statuses>", "only these statuses, comma-separated: internal (pending, approved, …) or coarse (check, process, …)")
      .option("--limit <n>", "how many, 1 to 100", "20"),
    async (options) => {
      const status = options.status === undefined ? undefined : parseStatusFilter(options.status);
      const limit = parseCount(options.limit, "--limit", { min: 1, max: 100 });
      return withCliDatabase(async (db) => {
        const { listPayouts } = await import("@/lib/services/payouts/manage-payouts");
        const { toPayoutObject } = await import("@/lib/api/serialize/payout");
        const merchant = await requireMerchant(db, options.merchant);
        const page = await listPayouts(db, merchant.id, { status }, { limit });
        const items = page.items.map(toPayoutObject);
        const text = formatTable(
          items,
          [
            { header: "PAYOUT", value: (item) => item.uuid },
            { header: "ORDER", value: (item) => item.order_id },
            { header: "STATUS", value: (item) => item.internal_status },
            { header: "AMOUNT", value: (item) => item.amount, align: "right" },
            { header: "CURRENCY", value: (item) => `${item.currency}/${item.network}` },
            { header: "SOURCE", value: (item) => item.source },
            { header: "CREATED", value: (item) => item.created_at },
          ],
          "(no payouts)",
        );
        return { json: { items }, text };
      });
    },
  );
}
