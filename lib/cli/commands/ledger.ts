import type { Command } from "commander";
import type { LedgerAudit } from "@/lib/ledger/audit";
import { defineAction } from "../command-kit";
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
};

const CHECKS = (Object.keys(CHECK_DESCRIPTIONS) as (keyof LedgerAudit)[]).map((key) => ({ key, ...CHECK_DESCRIPTIONS[key] }));

/** How a finding is named in the table: an account id, or the mismatch's account and amounts. */
function describeFinding(finding: LedgerAudit[keyof LedgerAudit][number]): string {
  return typeof finding === "string" ? finding : `${finding.accountId} (${finding.cached} cached, ${finding.fromPostings} posted)`;
}

export function registerLedgerCommands(program: Command): void {
  const ledger = program.command("ledger").description("the books");
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
