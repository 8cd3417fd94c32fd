"use client";

import Link from "next/link";
import { useState, type ReactNode } from "react";
import { Alert } from "@/components/cabinet/form-controls";
import { Amount, DataTable, ShortId, Time } from "@/components/cabinet/page-kit";
import { useCabinetAction } from "@/components/cabinet/use-cabinet-action";
import { Button } from "@/components/ui/button";
import { TEXT_LINK } from "@/components/ui/theme";
import { OWN_PAYOUT_REASON } from "./payout-words";
import { networkDisplayName } from "@/lib/catalogue";

/** A pending manual payout as the approval queue shows it (plain data from the server). */
export interface PendingPayoutRow {
  uuid: string;
  orderId: string;
  amount: string;
  receiveAmount: string;
  debitAmount: string;
  currency: string;
  network: string;
  address: string;
  memo: string;
  createdAt: string;
  createdBy: string;
  /** The signed-in user made it: they may cancel it but not approve or reject it. */
  isOwn: boolean;
}

type Decision = "approve" | "reject" | "cancel";

const ACTION_OF: Record<Decision, string> = { approve: "payout.approve", reject: "payout.reject", cancel: "payout.cancel" };
const DONE_WORDS: Record<Decision, string> = {
  approve: "approved: it goes out now",
  reject: "rejected: its reserve is back in the balance",
  cancel: "cancelled: its reserve is back in the balance",
};

/** Runs a decision on a payout and keeps the outcome to show (the row may leave the list on refresh). */
function useDecision() {
  const { run, isPending, dialog } = useCabinetAction();
  const [outcome, setOutcome] = useState<{ tone: "success" | "danger"; text: string } | null>(null);
  const decide = async (decision: Decision, payout: { uuid: string; orderId: string }) => {
    setOutcome(null);
    const result = await run(ACTION_OF[decision], { uuid: payout.uuid });
    if (!result) return;
    if (result.ok) setOutcome({ tone: "success", text: `Payout ${payout.orderId} ${DONE_WORDS[decision]}.` });
    else setOutcome({ tone: "danger", text: result.code === "payout.approver_is_creator" ? `${OWN_PAYOUT_REASON} (${result.message})` : result.message });
  };
  return { decide, isPending, dialog, outcome };
}


/** Approve, Reject and Cancel for one pending payout; approve and reject ask for a fresh code. */
function DecisionButtons({
  payout,
  isPending,
  onDecide,
  describedBy,
  withNames,
}: {
  payout: { uuid: string; orderId: string; isOwn: boolean };
  isPending: boolean;
  onDecide(decision: Decision): void;
  describedBy?: string;
  /** In a table, each button's name says which payout it acts on. */
  withNames: boolean;
}) {
  const suffix = withNames ? <span className="sr-only"> payout {payout.orderId}</span> : null;
  return (
    <div className="flex flex-wrap gap-2">
      <Button size="small" disabled={isPending || payout.isOwn} aria-describedby={payout.isOwn ? describedBy : undefined} onClick={() => onDecide("approve")}>
        Approve{suffix}
      </Button>
      <Button variant="secondary" size="small" disabled={isPending || payout.isOwn} aria-describedby={payout.isOwn ? describedBy : undefined} onClick={() => onDecide("reject")}>
        Reject{suffix}
      </Button>
      <Button variant="secondary" size="small" disabled={isPending} onClick={() => onDecide("cancel")}>
        Cancel payout{suffix}
      </Button>
    </div>
  );
}

/**
 * The approval queue: pending manual payouts with their decisions (another user approves). It
 * stays mounted when the last payout leaves the queue, so the outcome of that decision stays shown.
 */
export function ApprovalQueue({ rows, canDecide, empty }: { rows: PendingPayoutRow[]; canDecide: boolean; empty: ReactNode }) {
  const { decide, isPending, dialog, outcome } = useDecision();
  return (
    <>
      {dialog}
      {outcome ? (
        <div className="mb-4">
          <Alert tone={outcome.tone}>{outcome.text}</Alert>
        </div>
      ) : null}
      {rows.length === 0 ? (
        empty
      ) : (
        <DataTable caption="Payouts awaiting approval" headers={["Created", "Order id", "Amount", "To address", "Created by", canDecide ? "Decision" : ""]}>
          {rows.map((row) => (
            <tr key={row.uuid}>
              <td className="whitespace-nowrap">
                <Time iso={row.createdAt} />
              </td>
              <td>
                <Link href={`/cabinet/payouts/${row.uuid}`} className={`font-mono text-xs ${TEXT_LINK}`}>
                  {row.orderId}
                </Link>
              </td>
              <td>
                <Amount value={row.amount} currency={row.currency} />
                <div className="text-xs text-(--ui-muted)">
                  on {networkDisplayName(row.network)}; balance gives {row.debitAmount}, recipient gets {row.receiveAmount}
                </div>
              </td>
              <td>
                <ShortId value={row.address} />
                {row.memo ? <div className="text-xs text-(--ui-muted)">memo {row.memo}</div> : null}
              </td>
              <td className="break-all">{row.createdBy}</td>
              <td>
                {canDecide ? (
                  <div className="flex min-w-56 flex-col gap-1">
                    <DecisionButtons payout={row} isPending={isPending} onDecide={(decision) => void decide(decision, row)} describedBy={`own-${row.uuid}`} withNames />
                    {row.isOwn ? (
                      <p id={`own-${row.uuid}`} className="text-xs text-(--ui-muted)">
                        {OWN_PAYOUT_REASON}
                      </p>
                    ) : null}
                  </div>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </>
  );
}

/** The decisions on the payout page of a pending payout. */
export function PayoutDecisionPanel({ payout }: { payout: { uuid: string; orderId: string; isOwn: boolean } }) {
  const { decide, isPending, dialog, outcome } = useDecision();
  return (
    <div className="flex flex-col gap-3">
      {dialog}
      {outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}
      {payout.isOwn ? (
        <p id="own-payout-reason" className="text-sm text-(--ui-muted)">
          {OWN_PAYOUT_REASON} You may still cancel it.
        </p>
      ) : (
        <p className="text-sm text-(--ui-muted)">Approving or rejecting asks for a fresh code from your authenticator app.</p>
      )}
      <DecisionButtons payout={payout} isPending={isPending} onDecide={(decision) => void decide(decision, payout)} describedBy="own-payout-reason" withNames={false} />
    </div>
  );
}
