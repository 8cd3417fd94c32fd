"use client";

import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { CoinNetworkFields, useCoinNetwork } from "@/components/cabinet/coin-network-fields";
import { Alert, Field } from "@/components/cabinet/form-controls";
import { Amount } from "@/components/cabinet/page-kit";
import { useCabinetAction } from "@/components/cabinet/use-cabinet-action";
import { Button } from "@/components/ui/button";
import { formatAmount, parseAmount } from "@/lib/domain/money/amount";
import { computePayoutAmounts } from "@/lib/domain/payout/amounts";

/** An asset the payout may be sent in, with what the balance holds and the fee (plain data from the server). */
export interface PayoutAssetOption {
  currency: string;
  network: string;
  networkName: string;
  decimals: number;
  hasMemo: boolean;
  /** The payout fee in the asset; null when no rate answered (it is quoted at creation). */
  fee: string | null;
  available: string;
}

/** What the payout would deliver and cost, with the same rule as the service (computePayoutAmounts). */
function preview(option: PayoutAssetOption | undefined, amountText: string, isFeeOnTop: boolean) {
  if (!option || option.fee === null) return null;
  const requested = parseAmount(amountText.trim(), option.decimals);
  const fee = parseAmount(option.fee, option.decimals);
  if (requested === null || requested <= 0n || fee === null) return null;
  const amounts = computePayoutAmounts({ requested, fee, isSubtract: isFeeOnTop });
  if (amounts === "below_fee") return { problem: "The amount must be above the fee, which the recipient bears." };
  const available = parseAmount(option.available, option.decimals) ?? 0n;
  return {
    receive: formatAmount(amounts.amount, option.decimals),
    debit: formatAmount(amounts.debit, option.decimals),
    isShort: amounts.debit > available,
  };
}

/**
 * A manual payout: coin, network, address, amount (and memo where the network carries one). It is
 * created pending and goes out only when another user of the store approves it.
 */
export function NewPayoutForm({ options, isFeeOnTop }: { options: PayoutAssetOption[]; isFeeOnTop: boolean }) {
  const router = useRouter();
  const { run, isPending, dialog } = useCabinetAction();
  // First an asset the balance holds; a new coin keeps the network when it is carried there too,
  // else takes the first one holding some of it, or the first.
  const choice = useCoinNetwork(options, (candidate) => candidate.available !== "0");
  const { coin, network, option } = choice;
  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string | null>(null);
  const outcome = preview(option, amount, isFeeOnTop);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const input = {
      currency: coin,
      network,
      address: text("address"),
      amount: text("amount"),
      ...(option?.hasMemo && text("memo") ? { memo: text("memo") } : {}),
      ...(text("order_id") ? { order_id: text("order_id") } : {}),
    };
    const result = await run("payout.create", input);
    if (!result) return;
    if (!result.ok) {
      setError(result.message);
      return;
    }
    router.push(`/cabinet/payouts/${(result.result as { uuid: string }).uuid}?created=1`);
  };

  if (options.length === 0) {
    return <Alert tone="warn">No coin can be paid out on this service right now: every network is off or without an exchange rate.</Alert>;
  }

  return (
    <form onSubmit={submit} className="flex max-w-2xl flex-col gap-4" noValidate>
      {dialog}
      {error ? <Alert>{error}</Alert> : null}
      <CoinNetworkFields idPrefix="payout" choice={choice} />
      {option ? (
        <p className="text-sm" id="payout-available">
          Available to pay out: <Amount value={option.available} currency={option.currency} />
          <span className="text-(--ui-muted)"> on {option.networkName}</span>
        </p>
      ) : null}
      <Field id="payout-address" name="address" label="Address" required autoComplete="off" spellCheck={false} hint={`The recipient's ${coin} address on ${option?.networkName ?? network}.`} />
      <Field
        id="payout-amount"
        name="amount"
        label="Amount"
        required
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
        hint={`In ${coin}, at most ${option?.decimals ?? 0} decimals. ${isFeeOnTop ? "The fee is added on top: the recipient gets this amount." : "The fee is taken from it: your balance gives this amount."}`}
      />
      {option?.hasMemo ? <Field id="payout-memo" name="memo" label="Memo" maxLength={120} autoComplete="off" hint="The comment the recipient's exchange or wallet may require (optional)." /> : null}
      <Field id="payout-order-id" name="order_id" label="Order id" maxLength={128} autoComplete="off" hint="Your reference, unique among your payouts (optional; one is made when empty)." />

      <div className="rounded-lg border border-(--ui-border) bg-(--ui-subtle) p-3 text-sm" aria-live="polite">
        {option?.fee === null || !option ? (
          <p>The payout fee is quoted when the payout is created.</p>
        ) : (
          <>
            <p>
              Payout fee: <Amount value={option.fee} currency={option.currency} />
            </p>
            {outcome && "problem" in outcome ? (
              <p className="text-(--ui-danger)">{outcome.problem}</p>
            ) : outcome ? (
              <>
                <p>
                  Recipient receives: <Amount value={outcome.receive} currency={option.currency} />
                </p>
                <p>
                  Your balance gives: <Amount value={outcome.debit} currency={option.currency} />
                </p>
                {outcome.isShort ? <p className="text-(--ui-danger)">This is more than the available balance.</p> : null}
              </>
            ) : null}
          </>
        )}
      </div>

      <p className="text-sm text-(--ui-muted)">The payout waits for approval by another user of your store before anything is sent.</p>
      <div>
        <Button type="submit" disabled={isPending}>
          {isPending ? "Creating…" : "Create payout"}
        </Button>
      </div>
    </form>
  );
}
