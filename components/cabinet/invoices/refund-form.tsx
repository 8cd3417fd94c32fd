"use client";

import { useState, type FormEvent } from "react";
import { Alert, Field } from "@/components/cabinet/form-controls";
import { Amount } from "@/components/cabinet/page-kit";
import { useCabinetAction } from "@/components/cabinet/use-cabinet-action";
import { Button } from "@/components/ui/button";
import { toPlainDecimal } from "@/lib/i18n/format";
import { destinationProblem, type DestinationNetwork } from "@/components/cabinet/destination-check";

/** What the refund form needs to know of the payment (plain data from the server). */
export interface RefundablePayment extends DestinationNetwork {
  uuid: string;
  /** The coin the payment arrived in: a refund goes back in it, on the same network. */
  currency: string;
  /** The payer's address; empty where the chain does not tell (UTXO): an address is then required. */
  payerAddress: string;
  /** What is left to refund: received minus the refunds not failed or cancelled (decimal string). */
  left: string;
}

/** Refusals about one field. */
const ADDRESS_CODES = new Set(["payout.bad_address", "payout.address_network_mismatch", "refund.no_address", "refund.destination_internal"]);
const AMOUNT_CODES = new Set(["refund.bad_amount", "refund.exceeds_refundable", "refund.dust"]);

interface RefundResult {
  uuid: string;
  amount: string;
  currency: string;
  address: string;
}

/**
 * A refund of the payment: by default everything left, to the payer's address. Its amount and
 * address are shown again for review before it is made, because a refund goes out by itself and
 * cannot be stopped once sent (spec: POST /v1/payment/refund); confirming then asks for a fresh
 * code (refund.create is sensitive). The service decides; refusals carry the API's codes.
 */
export function RefundForm({ payment }: { payment: RefundablePayment }) {
  const { run, isPending, dialog } = useCabinetAction();
  const [address, setAddress] = useState("");
  const [amount, setAmount] = useState("");
  const [isConfirming, setIsConfirming] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: "success" | "danger"; text: string; code?: string } | null>(null);
  const isAddressRequired = payment.payerAddress === "";
  const destination = address.trim() || payment.payerAddress;
  const plainAmount = toPlainDecimal("en", amount);
  const refusal = outcome?.tone === "danger" ? outcome : null;
  // A refusal about one field marks it invalid; its words are in the alert above the form.
  const isAddressRefused = Boolean(refusal && ADDRESS_CODES.has(refusal.code ?? ""));
  const isAmountRefused = Boolean(refusal && AMOUNT_CODES.has(refusal.code ?? ""));

  const review = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // A typo is told now, before the confirmation asks for a fresh code.
    const problem = destinationProblem(payment, address);
    if (problem) {
      setOutcome({ tone: "danger", text: problem, code: "payout.bad_address" });
      return;
    }
    setOutcome(null);
    setIsConfirming(true);
  };

  const confirm = async () => {
    const result = await run("refund.create", { uuid: payment.uuid, address: address.trim() || undefined, amount: plainAmount || undefined });
    if (!result) return;
    setIsConfirming(false);
    if (!result.ok) {
      setOutcome({ tone: "danger", text: result.message, code: result.code });
      return;
    }
    const refund = result.result as RefundResult;
    setOutcome({ tone: "success", text: `Refund of ${refund.amount} ${refund.currency} to ${refund.address} created. It goes out by itself; follow it in the refunds table.` });
    setAddress("");
    setAmount("");
  };

  // Stays mounted when the last refund leaves nothing (the page refreshes), so its outcome stays shown.
  if (payment.left === "0") {
    return (
      <div className="flex flex-col gap-3">
        {outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}
        <p className="text-sm text-(--ui-muted)">Everything this payment received is refunded.</p>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      {dialog}
      {outcome ? <Alert tone={outcome.tone}>{outcome.text}</Alert> : null}
      <form onSubmit={review} className="flex flex-col gap-4" aria-label="Refund this payment">
        <p className="text-sm text-(--ui-muted)">
          Left to refund: <Amount value={payment.left} currency={payment.currency} /> on {payment.networkName}. A refund goes back in the coin received, on the same network, and
          is not revalued.
        </p>
        <div className="grid gap-4 md:grid-cols-2">
          <Field
            id="refund-address"
            name="address"
            label="Address"
            value={address}
            onChange={(event) => {
              setAddress(event.target.value);
              setIsConfirming(false);
            }}
            required={isAddressRequired}
            disabled={isConfirming || isPending}
            spellCheck={false}
            autoComplete="off"
            className="font-mono"
            placeholder={payment.payerAddress || undefined}
            hint={
              isAddressRequired ? (
                `Required: ${payment.networkName} does not tell who paid. The ${payment.currency} address on ${payment.networkName} to send the refund to.`
              ) : (
                <>
                  Leave empty to refund the payer&apos;s address, <span className="font-mono break-all">{payment.payerAddress}</span>.
                </>
              )
            }
            aria-invalid={isAddressRefused || undefined}
          />
          <Field
            id="refund-amount"
            name="amount"
            label="Amount"
            value={amount}
            onChange={(event) => {
              setAmount(event.target.value);
              setIsConfirming(false);
            }}
            disabled={isConfirming || isPending}
            inputMode="decimal"
            autoComplete="off"
            placeholder={payment.left}
            hint={`In ${payment.currency}. Leave empty to refund everything left (${payment.left} ${payment.currency}).`}
            aria-invalid={isAmountRefused || undefined}
          />
        </div>
        {isConfirming ? (
          <div className="flex flex-col gap-3 rounded-lg border border-(--ui-warn-border) bg-(--ui-warn-bg) p-3 text-(--ui-warn)" role="group" aria-labelledby="refund-confirm-title">
            <p id="refund-confirm-title" className="text-sm font-medium">
              Refund {plainAmount ? `${plainAmount} ${payment.currency}` : `everything left (${payment.left} ${payment.currency})`} to{" "}
              <span className="font-mono break-all">{destination || "the address above"}</span> on {payment.networkName}?
            </p>
            <p className="text-sm">It goes out by itself and cannot be stopped once sent.</p>
            <div className="flex flex-wrap gap-2">
              <Button onClick={() => void confirm()} disabled={isPending} autoFocus>
                {isPending ? "Refunding…" : "Confirm refund"}
              </Button>
              <Button variant="secondary" onClick={() => setIsConfirming(false)} disabled={isPending}>
                Change
              </Button>
            </div>
          </div>
        ) : (
          <div>
            <Button type="submit">Create refund</Button>
          </div>
        )}
      </form>
    </div>
  );
}
