"use client";

import { type FormEvent } from "react";
import { Alert, Field } from "@/components/cabinet/form-controls";
import { Amount, DataTable, EmptyState } from "@/components/cabinet/page-kit";
import { Button } from "@/components/ui/button";
import { AssetSelects, RowRemoveButton, useAssetChoice, useSettingsAction, type AssetChoiceOption } from "./settings-form-kit";

export interface ThresholdItem {
  currency: string;
  network: string;
  networkName: string;
  /** In the coin's units; null: no limit of that kind. */
  perPayout: string | null;
  perDay: string | null;
}

/**
 * The owner's money-out thresholds, one per coin and network: payouts, refunds to another address,
 * payout-link claims, wallet refunds, split shares and auto-withdrawals above them wait for a
 * second person's approval (or, with nobody else to approve, a waiting period). Raising or
 * removing one freezes money out for the freeze period; lowering applies at once.
 */
export function ThresholdSettings({ thresholds, options, canEdit, freezeHours, waitingHours }: { thresholds: ThresholdItem[]; options: AssetChoiceOption[]; canEdit: boolean; freezeHours: number; waitingHours: number }) {
  const removal = useSettingsAction();
  const save = useSettingsAction();
  const choice = useAssetChoice(options);
  const loosenedNote = (result: unknown) => ((result as { isLoosened?: boolean }).isLoosened && freezeHours > 0 ? ` Money out is frozen for ${freezeHours} h, as after any loosened control.` : "");

  const remove = (item: ThresholdItem) =>
    void removal.submit("settings.set_threshold", { currency: item.currency, network: item.network, per_payout: null, per_day: null }, (result) => `Removed the thresholds for ${item.currency} on ${item.networkName}.${loosenedNote(result)}`);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const result = await save.submit(
      "settings.set_threshold",
      { currency: choice.coin, network: choice.network, per_payout: text("per_payout") || null, per_day: text("per_day") || null },
      (answer) => `Saved the thresholds for ${choice.coin} on ${choice.option?.networkName ?? choice.network}.${loosenedNote(answer)}`,
    );
    if (result?.ok) formElement.reset();
  };

  return (
    <div className="flex flex-col gap-6">
      {removal.dialog}
      {save.dialog}
      {thresholds.length === 0 ? (
        <EmptyState title="No thresholds">
          {canEdit ? "Money out made with an API key goes out at once. Set a threshold below to have large amounts wait for a second person." : "Money out made with an API key goes out at once."}
        </EmptyState>
      ) : (
        <DataTable caption="Money-out thresholds" headers={["Coin", "Network", "Per payout", "Per 24 hours", canEdit ? "Actions" : ""]}>
          {thresholds.map((item) => (
            <tr key={`${item.currency}:${item.network}`}>
              <td className="font-medium">{item.currency}</td>
              <td>{item.networkName}</td>
              <td>{item.perPayout === null ? <span className="text-(--ui-muted)">No limit</span> : <Amount value={item.perPayout} currency={item.currency} />}</td>
              <td>{item.perDay === null ? <span className="text-(--ui-muted)">No limit</span> : <Amount value={item.perDay} currency={item.currency} />}</td>
              <td>
                <RowRemoveButton canEdit={canEdit} pending={removal.isPending} onClick={() => remove(item)} what={`thresholds for ${item.currency} on ${item.networkName}`} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {removal.message}

      {canEdit ? (
        options.length === 0 ? (
          <Alert tone="warn">No coin can be paid out on this service right now, so no threshold can be set.</Alert>
        ) : (
          <form onSubmit={submit} className="flex max-w-2xl flex-col gap-4" aria-labelledby="threshold-form-title" noValidate>
            <h3 id="threshold-form-title" className="font-semibold">
              Set or replace thresholds
            </h3>
            <AssetSelects idPrefix="threshold" choice={choice} />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field id="threshold-per-payout" name="per_payout" label="Per payout" inputMode="decimal" autoComplete="off" placeholder="No limit" hint={`In ${choice.coin}: one payout's debit above it waits.`} />
              <Field id="threshold-per-day" name="per_day" label="Per 24 hours" inputMode="decimal" autoComplete="off" placeholder="No limit" hint={`In ${choice.coin}: money out that takes the last 24 hours above it waits.`} />
            </div>
            <p className="text-sm text-(--ui-muted)">
              With nobody else who may approve (an owner, admin or finance user with two-factor sign-in), money out above a threshold waits {waitingHours} h and then goes out, unless it is cancelled.
            </p>
            {save.message}
            <div>
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? "Saving…" : "Save thresholds"}
              </Button>
            </div>
          </form>
        )
      ) : null}
    </div>
  );
}
