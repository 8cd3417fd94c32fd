import type { Command } from "commander";
import type { LedgerAudit } from "@/lib/ledger/audit";
import { findNetwork, findSettlementAsset } from "@/lib/catalogue";
import { getConfig } from "@/lib/config/env";
import { getSecretBox } from "@/lib/crypto/master-key";
import { formatAmount } from "@/lib/domain/money/amount";
import { CliError } from "../cli-error";
import { defineAction } from "../command-kit";
import { parseCount } from "../lookups";
import { withCliDatabase } from "../open-database";
import { formatTable } from "../table";

/**
 * The audit's checks in report order: the JSON key and what a finding means, for people. Keyed
 * by the audit's own fields, so a new check does not compile until it is described here.
 */
const CHECK_DESCRIPTIONS: Record<keyof LedgerAudit, { field: string; meaning: string }> = {
  mismatched: { field: "mismatched", meaning: "cached balance differs from its postings" },
  negative: { field: "negative", meaning: "account on the wrong side of zero" },
  unbalancedJournals: { field: "unbalanced_journals", meaning: "journal does not sum to zero" },
  transfersVsCredits: { field: "transfers_vs_credits", meaning: "chain transfer credited unlike its state" },
  settledVsJournals: { field: "settled_vs_journals", meaning: "invoice settled unlike its journals" },
  lotsVsMaturing: { field: "lots_vs_maturing", meaning: "maturing balance differs from its lots" },
  outgoingVsFees: { field: "outgoing_vs_fees", meaning: "outgoing transfer's fee booked unlike recorded" },
  payoutsVsHeld: { field: "payouts_vs_held", meaning: "payout_held differs from live payouts and links" },
  payoutsVsJournals: { field: "payouts_vs_journals", meaning: "payout's journals unlike its status" },
  payoutsVsTransfers: { field: "payouts_vs_transfers", meaning: "payout's transfers unlike its status" },
  refundsVsPaid: { field: "refunds_vs_paid", meaning: "refunds exceed what the payment received" },
  splitsVsHeld: { field: "splits_vs_held", meaning: "split_held differs from held shares" },
  blockedVsHeld: { field: "blocked_vs_held", meaning: "blocked_held differs from blocked wallets' deposits" },
  coldVsTransfers: { field: "cold_vs_transfers", meaning: "move to cold storage booked unlike its transfer" },
};

const CHECKS = (Object.keys(CHECK_DESCRIPTIONS) as (keyof LedgerAudit)[]).map((key) => ({ key, ...CHECK_DESCRIPTIONS[key] }));

/** How a finding is named in the table: an account id, or the mismatch's account and amounts. */
function describeFinding(finding: LedgerAudit[keyof LedgerAudit][number]): string {
  return typeof finding === "string" ? finding : `${finding.accountId} (${finding.cached} cached, ${finding.fromPostings} posted)`;
}

export function registerLedgerCommands(program: Command): void {
  const ledger = program.command("ledger").description("the books");
  defineAction<{ network?: string; timeout: string; payoutDays: string }>(
    ledger
      .command("reconcile")
      .description("checks the books against the chains: what every address the service controls holds, and each recent payout's transaction; exits 1 on drift")
      .option("--network <id>", "only this network")
      .option("--timeout <ms>", "deadline of each chain read", "10000")
      .option("--payout-days <days>", "payouts paid within this many days are looked up on chain", "7"),
    async (options) => {
      const timeoutMs = parseCount(options.timeout, "--timeout", { min: 100, max: 120_000 });
      const payoutDays = parseCount(options.payoutDays, "--payout-days", { min: 0, max: 3650 });
      if (options.network !== undefined && !findNetwork(options.network)) throw new CliError("cli.usage", `No network ${options.network}: see GET /v1/currencies`);
      return withCliDatabase(async (db) => {
        const { hasDrift } = await import("@/lib/services/reconcile/reconcile-with-chains");
        const { reconcileWithChains } = await import("@/lib/jobs/handlers/reconcile-with-chains");
        const { verifyConfiguredNodes } = await import("../wallets/wallet-status");
        const config = getConfig();
        await verifyConfiguredNodes(db, config, timeoutMs);
        const rows = await reconcileWithChains({ db, config, secretBox: getSecretBox() }, { network: options.network, timeoutMs, payoutDays, now: new Date() });
        const isClean = rows.every((row) => !hasDrift(row));
        const items = rows.map((row) => {
          const decimals = findSettlementAsset(row.currency, row.network)?.decimals ?? 0;
          const amount = (minor: bigint | null) => (minor === null ? null : formatAmount(minor, decimals));
          return {
            network: row.network,
            currency: row.currency,
            addresses: row.addresses,
            chain: amount(row.chain),
            ledger: amount(row.ledger),
            in_flight_out: amount(row.inFlightOut),
            in_flight_fees: amount(row.inFlightFees),
            unbooked_in: amount(row.unbookedIn),
            pending_in: amount(row.pendingIn),
            shortfall: amount(row.shortfall),
            surplus: amount(row.surplus),
            unproven_payouts: row.unprovenPayouts,
            landed_dead_transfers: row.landedDeadTransfers,
            unchecked_transactions: row.uncheckedTransactions,
            drift: hasDrift(row),
            note: row.note,
          };
        });
        const table = formatTable(
          items,
          [
            { header: "NETWORK", value: (row) => row.network },
            { header: "ASSET", value: (row) => row.currency },
            { header: "CHAIN", value: (row) => row.chain ?? "?", align: "right" },
            { header: "LEDGER", value: (row) => row.ledger!, align: "right" },
            { header: "IN FLIGHT", value: (row) => `-${row.in_flight_out} -${row.in_flight_fees} fees`, align: "right" },
            { header: "UNBOOKED IN", value: (row) => row.unbooked_in!, align: "right" },
            { header: "SHORTFALL", value: (row) => row.shortfall!, align: "right" },
            { header: "SURPLUS", value: (row) => row.surplus!, align: "right" },
            { header: "UNPROVEN PAYOUTS", value: (row) => String(row.unproven_payouts.length), align: "right" },
            { header: "DEAD LANDED", value: (row) => String(row.landed_dead_transfers.length), align: "right" },
            { header: "DRIFT", value: (row) => (row.drift ? "yes" : "no") },
            { header: "NOTE", value: (row) => row.note },
          ],
          "(nothing held or booked on any served network)",
        );
        const verdict = isClean ? "the books agree with the chains" : "the books disagree with the chains: see the rows marked drift";
        return { json: { clean: isClean, items }, text: `${table}\n\n${verdict}`, exitCode: isClean ? 0 : 1 };
      });
    },
  );
  defineAction(
    ledger.command("audit").description("checks the books against themselves and the state they pay for; exits 1 when it finds drift"),
    async () =>
      withCliDatabase(async (db) => {
        const { auditLedger, isCleanAudit } = await import("@/lib/ledger/audit");
        const { countOpenInvoiceReviews } = await import("@/lib/services/invoices/invoice-reviews");
        const audit = await auditLedger(db);
        const isClean = isCleanAudit(audit);
        const invoicesInReview = await countOpenInvoiceReviews(db);
        const report: Record<string, unknown> = { clean: isClean };
        for (const check of CHECKS) {
          report[check.field] =
            check.key === "mismatched"
              ? audit.mismatched.map((row) => ({ account_id: row.accountId, cached: row.cached.toString(), from_postings: row.fromPostings.toString() }))
              : audit[check.key];
        }
        report.invoices_in_review = invoicesInReview;
        const table = formatTable(CHECKS, [
          { header: "CHECK", value: (check) => check.field },
          { header: "FOUND", value: (check) => String(audit[check.key].length), align: "right" },
          {
            header: "FIRST FINDINGS",
            value: (check) => {
              const findings = audit[check.key] as LedgerAudit[keyof LedgerAudit];
              const shown = findings.slice(0, 3).map(describeFinding).join(", ");
              return findings.length > 3 ? `${shown}, …` : shown || "-";
            },
          },
          { header: "MEANING", value: (check) => check.meaning },
        ]);
        const verdict = isClean ? "the ledger is clean" : "the ledger has drift: see the checks above";
        return { json: report, text: `${table}\n\ninvoices in review: ${invoicesInReview}\n${verdict}`, exitCode: isClean ? 0 : 1 };
      }),
  );
}
