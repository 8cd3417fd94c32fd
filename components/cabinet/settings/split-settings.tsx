"use client";

import { useState, type FormEvent } from "react";
import { Field } from "@/components/cabinet/form-controls";
import { DataTable, EmptyState, ShortId } from "@/components/cabinet/page-kit";
import { Button } from "@/components/ui/button";
import { FOCUS_RING } from "@/components/ui/theme";
import { RowRemoveButton, SelectField, useSettingsAction } from "./settings-form-kit";

export interface SplitRuleItem {
  rule_id: string;
  percent: number;
  note: string;
  address?: string;
  network?: string;
  networkName?: string;
  merchant_id?: string;
  reversible: boolean;
}

/**
 * Split rules (POST /v1/split/rule, /list, /delete): a share of every incoming payment goes to a
 * partner — another merchant of this service (reversible on refunds) or an address (sent on chain,
 * final). The active rules add up to at most 100 %.
 */
export function SplitRules({ rules, networks, canEdit }: { rules: SplitRuleItem[]; networks: { id: string; name: string }[]; canEdit: boolean }) {
  const removal = useSettingsAction();
  const create = useSettingsAction();
  const [kind, setKind] = useState<"address" | "merchant">("address");
  const [network, setNetwork] = useState(networks.find((entry) => entry.id === "tron")?.id ?? networks[0]?.id ?? "");
  const total = rules.reduce((sum, rule) => sum + Math.round(rule.percent * 100), 0) / 100;

  const remove = (rule: SplitRuleItem) => void removal.submit("settings.delete_split_rule", { rule_id: rule.rule_id }, `Deleted the ${rule.percent} % rule. Shares already taken still go out.`);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const percentText = text("percent").replace(",", ".");
    const recipient = kind === "address" ? { address: text("address"), network } : { merchant_id: text("merchant_id") };
    const result = await create.submit(
      "settings.create_split_rule",
      // The API takes percent as a number; text that is not one is sent as is and refused with split.bad_percent.
      { percent: percentText !== "" && Number.isFinite(Number(percentText)) ? Number(percentText) : percentText, ...recipient, ...(text("note") ? { note: text("note") } : {}) },
      (rule) => `Added a ${(rule as { percent: number }).percent} % rule.`,
    );
    if (result?.ok) formElement.reset();
  };

  return (
    <div className="flex flex-col gap-6">
      {removal.dialog}
      {create.dialog}
      {rules.length === 0 ? (
        <EmptyState title="No split rule">{canEdit ? "Add one below to share each incoming payment with a partner." : "Each payment stays whole on your balance."}</EmptyState>
      ) : (
        <>
          <p className="text-sm">
            Active rules take <span className="font-mono tabular-nums">{total}</span> % of each payment.
          </p>
          <DataTable caption="Active split rules" headers={["Recipient", "Share", "Note", "On refund", canEdit ? "Actions" : ""]}>
            {rules.map((rule) => (
              <tr key={rule.rule_id}>
                <td>
                  {rule.merchant_id ? (
                    <>
                      Merchant <ShortId value={rule.merchant_id} />
                    </>
                  ) : (
                    <>
                      <ShortId value={rule.address ?? ""} />
                      <div className="text-xs text-(--ui-muted)">on {rule.networkName ?? rule.network}</div>
                    </>
                  )}
                </td>
                <td className="font-mono tabular-nums">{rule.percent} %</td>
                <td className="break-words">{rule.note || <span className="text-(--ui-muted)">—</span>}</td>
                <td className="text-sm">{rule.reversible ? "Clawed back" : "Final (sent on chain)"}</td>
                <td>
                  <RowRemoveButton canEdit={canEdit} pending={removal.isPending} onClick={() => remove(rule)} label="Delete" what={`split rule of ${rule.percent} %`} />
                </td>
              </tr>
            ))}
          </DataTable>
        </>
      )}
      {removal.message}

      {canEdit ? (
        <form onSubmit={submit} className="flex max-w-2xl flex-col gap-4" aria-labelledby="split-form-title" noValidate>
          <h3 id="split-form-title" className="font-semibold">
            Add a split rule
          </h3>
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 text-sm font-medium">Recipient</legend>
            <div className="flex flex-wrap gap-x-6 gap-y-2">
              {(
                [
                  ["address", "An address on a network"],
                  ["merchant", "Another merchant of this service"],
                ] as const
              ).map(([value, label]) => (
                <div key={value} className="flex items-center gap-2">
                  <input id={`split-kind-${value}`} type="radio" name="kind" value={value} checked={kind === value} onChange={() => setKind(value)} className={`size-5 accent-(--ui-accent) ${FOCUS_RING}`} />
                  <label htmlFor={`split-kind-${value}`} className="text-sm">
                    {label}
                  </label>
                </div>
              ))}
            </div>
          </fieldset>
          {kind === "address" ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField id="split-network" label="Network" value={network} onChange={setNetwork}>
                {networks.map((entry) => (
                  <option key={entry.id} value={entry.id}>
                    {entry.name}
                  </option>
                ))}
              </SelectField>
              <Field id="split-address" name="address" label="Address" required autoComplete="off" spellCheck={false} hint="The share is sent here in the payment's coin, and cannot be taken back." />
            </div>
          ) : (
            <Field id="split-merchant" name="merchant_id" label="Merchant id" required autoComplete="off" spellCheck={false} hint="The partner's merchant id on this service. Its share is taken back in proportion when you refund." />
          )}
          <Field id="split-percent" name="percent" label="Percent" required inputMode="decimal" autoComplete="off" hint="Above 0 and at most 100, in steps of 0.01." />
          <Field id="split-note" name="note" label="Note" maxLength={255} autoComplete="off" hint="For you (optional)." />
          {create.message}
          <div>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? "Adding…" : "Add split rule"}
            </Button>
          </div>
        </form>
      ) : null}
    </div>
  );
}

/** Split config: how long partners' shares wait for refunds after a payment settles. */
export function SplitConfigForm({ hours, maxHours, canEdit }: { hours: number; maxHours: number; canEdit: boolean }) {
  const { submit, isPending, dialog, message } = useSettingsAction();
  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget).get("hours") ?? "").trim();
    // Text that is not a whole number is sent as is: the API refuses it with split.bad_hold_hours.
    void submit("settings.set_split_config", { refund_hold_hours: /^\d+$/.test(text) ? Number(text) : text }, (result) => `Saved: shares wait ${(result as { refund_hold_hours: number }).refund_hold_hours} hours.`);
  };
  return (
    <>
      {dialog}
      <form onSubmit={save} className="flex max-w-2xl flex-col gap-4" aria-labelledby="split-config-title" noValidate>
        <h3 id="split-config-title" className="font-semibold">
          Refund hold
        </h3>
        <Field
          id="split-hold-hours"
          name="hours"
          label="Refund hold (hours)"
          type="number"
          min={0}
          max={maxHours}
          step={1}
          inputMode="numeric"
          defaultValue={hours}
          disabled={!canEdit}
          hint={`Partners' shares wait this long after a payment settles, so a refund can still reduce them (0 to ${maxHours}). Applies to payments settled from now on.`}
        />
        {message}
        {canEdit ? (
          <div>
            <Button type="submit" disabled={isPending}>
              {isPending ? "Saving…" : "Save refund hold"}
            </Button>
          </div>
        ) : null}
      </form>
    </>
  );
}
