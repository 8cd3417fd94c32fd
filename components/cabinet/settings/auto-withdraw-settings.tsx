"use client";

import { type FormEvent } from "react";
import { Alert, Field } from "@/components/cabinet/form-controls";
import { Amount, DataTable, EmptyState, ShortId } from "@/components/cabinet/page-kit";
import { Button } from "@/components/ui/button";
import { AssetSelects, RowRemoveButton, useAssetChoice, useSettingsAction, type AssetChoiceOption } from "./settings-form-kit";

export interface AutoWithdrawRuleItem {
  currency: string;
  network: string;
  networkName: string;
  address: string;
  /** Threshold in the coin's units ("0": every credit). */
  min: string;
}

/**
 * Auto-withdraw (POST /v1/auto-withdraw/list, /set, /delete): one rule per coin and network;
 * each credit of at least the threshold is paid out to the rule's address, less the payout fee.
 */
export function AutoWithdrawSettings({ rules, options, canEdit }: { rules: AutoWithdrawRuleItem[]; options: AssetChoiceOption[]; canEdit: boolean }) {
  const removal = useSettingsAction();
  const save = useSettingsAction();
  const choice = useAssetChoice(options);

  const remove = (rule: AutoWithdrawRuleItem) => void removal.submit("settings.delete_auto_withdraw", { currency: rule.currency, network: rule.network }, `Deleted the rule for ${rule.currency} on ${rule.networkName}.`);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const result = await save.submit(
      "settings.set_auto_withdraw",
      { currency: choice.coin, network: choice.network, address: text("address"), min: text("min") || "0" },
      `Saved the rule for ${choice.coin} on ${choice.option?.networkName ?? choice.network}.`,
    );
    if (result?.ok) formElement.reset();
  };

  return (
    <div className="flex flex-col gap-6">
      {removal.dialog}
      {save.dialog}
      {rules.length === 0 ? (
        <EmptyState title="No auto-withdraw rule">{canEdit ? "Add one below to send credits of a coin to your own address as they mature." : "Credits stay on your balance until someone pays them out."}</EmptyState>
      ) : (
        <DataTable caption="Auto-withdraw rules" headers={["Coin", "Network", "Address", "Minimum credit", canEdit ? "Actions" : ""]}>
          {rules.map((rule) => (
            <tr key={`${rule.currency}:${rule.network}`}>
              <td className="font-medium">{rule.currency}</td>
              <td>{rule.networkName}</td>
              <td>
                <ShortId value={rule.address} />
              </td>
              <td>{rule.min === "0" ? <span className="text-(--ui-muted)">Every credit</span> : <Amount value={rule.min} currency={rule.currency} />}</td>
              <td>
                <RowRemoveButton canEdit={canEdit} pending={removal.isPending} onClick={() => remove(rule)} label="Delete" what={`auto-withdraw rule for ${rule.currency} on ${rule.networkName}`} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {removal.message}

      {canEdit ? (
        options.length === 0 ? (
          <Alert tone="warn">No coin can be paid out on this service right now, so no rule can be added.</Alert>
        ) : (
          <form onSubmit={submit} className="flex max-w-2xl flex-col gap-4" aria-labelledby="auto-withdraw-form-title" noValidate>
            <h3 id="auto-withdraw-form-title" className="font-semibold">
              Add or replace a rule
            </h3>
            <AssetSelects idPrefix="auto-withdraw" choice={choice} />
            <Field id="auto-withdraw-address" name="address" label="Address" required autoComplete="off" spellCheck={false} hint={`Your ${choice.coin} address on ${choice.option?.networkName ?? choice.network}. A rule for the same coin and network is replaced.`} />
            <Field
              id="auto-withdraw-min"
              name="min"
              label="Minimum credit"
              inputMode="decimal"
              autoComplete="off"
              placeholder="0"
              hint={`In ${choice.coin}, at most ${choice.option?.decimals ?? 0} decimals. Credits below it stay on the balance; 0 or empty sends every credit.`}
            />
            {save.message}
            <div>
              <Button type="submit" disabled={save.isPending}>
                {save.isPending ? "Saving…" : "Save auto-withdraw rule"}
              </Button>
            </div>
          </form>
        )
      ) : null}
    </div>
  );
}
