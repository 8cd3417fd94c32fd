"use client";

import { useState } from "react";
import { Alert, Field } from "@/components/cabinet/form-controls";
import { Amount } from "@/components/cabinet/page-kit";
import { useCabinetAction } from "@/components/cabinet/use-cabinet-action";
import { Button } from "@/components/ui/button";
import { toPlainDecimal } from "@/lib/i18n/format";
import { destinationProblem, type DestinationNetwork } from "@/components/cabinet/destination-check";

/** A payment that ended underpaid or overpaid and waits for the merchant's one decision (plain data). */
export interface PaymentToResolve extends DestinationNetwork {
  uuid: string;
  status: "wrong_amount" | "paid_over";
  currency: string;
  /** What arrived, what was asked, and (overpaid) the difference: decimal strings in `currency`. */
  received: string;
  expected: string;
  excess: string;
  /** Empty where the chain does not tell who paid (UTXO): a refund then needs an address. */
  payerAddress: string;
  /** The decision taken: null while it waits for one. */
  resolution: "accepted" | "refunded" | null;
}

type Decision = "accept" | "refund";

/**
 * The decision on an underpaid or overpaid payment (/v1/payment/resolve), taken once: accept it
 * as it is (an underpayment becomes paid and invoice.paid is sent; an overpayment's excess is
 * kept), or refund what arrived (underpaid) or the excess (overpaid). Asked twice, as it cannot be
 * undone: the decision is reviewed, then confirmed with a fresh code (invoice.resolve is sensitive).
 */
export function ResolvePayment({ payment }: { payment: PaymentToResolve }) {
  const { run, isPending, dialog } = useCabinetAction();
  const [address, setAddress] = useState("");
  const [amount, setAmount] = useState("");
  const [pending, setPending] = useState<Decision | null>(null);
  const [outcome, setOutcome] = useState<{ tone: "success" | "danger"; text: string } | null>(null);
  const isUnderpaid = payment.status === "wrong_amount";
  const refundAmount = isUnderpaid ? payment.received : toPlainDecimal("en", amount) || payment.excess;
  const destination = address.trim() || payment.payerAddress;

  const decide = async (decision: Decision) => {
    const input = decision === "accept" ? { uuid: payment.uuid, action: "accept" } : { uuid: payment.uuid, action: "refund", address: address.trim() || undefined, amount: isUnderpaid ? undefined : toPlainDecimal("en", amount) || undefined };
    const result = await run("invoice.resolve", input);
    if (!result) return;
    setPending(null);
    if (!result.ok) {
      setOutcome({ tone: "danger", text: result.message });
      return;
    }
    const resolved = result.result as { refund: { amount: string; currency: string; address: string } | null };
    setOutcome({
      tone: "success",
      text: resolved.refund
        ? `Refund of ${resolved.refund.amount} ${resolved.refund.currency} to ${resolved.refund.address} created. It goes out by itself.`
        : isUnderpaid
          ? "Accepted: the payment is paid now, and invoice.paid is on its way to your webhook."
          : "Accepted: the excess stays in your balance.",
    });
  };

  const question =
    pending === "accept"
      ? isUnderpaid
        ? `Accept ${payment.received} ${payment.currency} as full payment?`
        : `Keep the excess of ${payment.excess} ${payment.currency}?`
      : `Refund ${refundAmount} ${payment.currency} to ${destination || "the address above"} on ${payment.networkName}?`;

  // Stays mounted when the decision is stored (the page refreshes), so its outcome stays shown.
  if (payment.resolution) {
    return (
      <div className="flex flex-col gap-3">
        {outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}
        <p className="text-sm">
          {payment.resolution === "accepted"
            ? isUnderpaid
              ? "Decided: accepted as paid."
              : "Decided: the excess was kept."
            : isUnderpaid
              ? "Decided: what arrived was refunded (see Refunds)."
              : "Decided: the excess was refunded (see Refunds)."}
        </p>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      {dialog}
      {outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}
      <p className="text-sm">
        {isUnderpaid ? (
          <>
            The payment ended underpaid: <Amount value={payment.received} currency={payment.currency} /> arrived of the{" "}
            <Amount value={payment.expected} currency={payment.currency} /> asked. Accept it as paid, or refund everything that arrived.
          </>
        ) : (
          <>
            The payment received <Amount value={payment.received} currency={payment.currency} />, that is{" "}
            <Amount value={payment.excess} currency={payment.currency} /> more than the <Amount value={payment.expected} currency={payment.currency} /> asked. Keep the
            excess, or refund it.
          </>
        )}{" "}
        This is decided once.
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <Field
          id="resolve-address"
          name="address"
          label="Address"
          value={address}
          onChange={(event) => {
            setAddress(event.target.value);
            setPending(null);
          }}
          disabled={pending !== null || isPending}
          spellCheck={false}
          autoComplete="off"
          className="font-mono"
          placeholder={payment.payerAddress || undefined}
          hint={
            payment.payerAddress ? (
              <>
                Where a refund goes. Leave empty for the payer&apos;s address, <span className="font-mono break-all">{payment.payerAddress}</span>.
              </>
            ) : (
              `Where a refund goes: required to refund, as ${payment.networkName} does not tell who paid.`
            )
          }
        />
        {isUnderpaid ? null : (
          <Field
            id="resolve-amount"
            name="amount"
            label="Amount"
            value={amount}
            onChange={(event) => {
              setAmount(event.target.value);
              setPending(null);
            }}
            disabled={pending !== null || isPending}
            inputMode="decimal"
            autoComplete="off"
            placeholder={payment.excess}
            hint={`Of the excess to refund, in ${payment.currency}. Leave empty for all of it (${payment.excess} ${payment.currency}).`}
          />
        )}
      </div>
      {pending ? (
        <div className="flex flex-col gap-3 rounded-lg border border-(--ui-warn-border) bg-(--ui-warn-bg) p-3 text-(--ui-warn)" role="group" aria-labelledby="resolve-confirm-title">
          <p id="resolve-confirm-title" className="text-sm font-medium break-words">
            {question}
          </p>
          <p className="text-sm">This cannot be undone.</p>
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => void decide(pending)} disabled={isPending} autoFocus>
              {isPending ? "Saving…" : pending === "accept" ? "Confirm acceptance" : "Confirm refund"}
            </Button>
            <Button variant="secondary" onClick={() => setPending(null)} disabled={isPending}>
              Back
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button
            onClick={() => {
              setOutcome(null);
              setPending("accept");
            }}
          >
            {isUnderpaid ? "Accept payment" : "Keep the excess"}
          </Button>
          <Button
            variant="secondary"
            onClick={() => {
              setOutcome(null);
              if (!payment.payerAddress && address.trim() === "") {
                setOutcome({ tone: "danger", text: "Give the address to refund to." });
                return;
              }
              // A typo is told now, before the confirmation asks for a fresh code.
              const problem = destinationProblem(payment, address);
              if (problem) {
                setOutcome({ tone: "danger", text: problem });
                return;
              }
              setPending("refund");
            }}
          >
            {isUnderpaid ? "Refund payment" : "Refund the excess"}
          </Button>
        </div>
      )}
    </div>
  );
}
