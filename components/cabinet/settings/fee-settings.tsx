"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { FOCUS_RING } from "@/components/ui/theme";
import { useSettingsAction } from "./settings-form-kit";

function Choice({ name, value, checked, onChange, disabled, children, hint }: { name: string; value: string; checked: boolean; onChange(): void; disabled: boolean; children: ReactNode; hint?: ReactNode }) {
  const id = `${name}-${value}`;
  return (
    <div className="flex items-start gap-2">
      <input id={id} type="radio" name={name} value={value} checked={checked} onChange={onChange} disabled={disabled} className={`mt-1 size-5 shrink-0 accent-(--ui-accent) ${FOCUS_RING}`} />
      <label htmlFor={id} className="text-sm">
        <span className="font-medium">{children}</span>
        {hint ? <span className="block text-(--ui-muted)">{hint}</span> : null}
      </label>
    </div>
  );
}

function Check({ id, checked, onChange, disabled, children, hint }: { id: string; checked: boolean; onChange(value: boolean): void; disabled: boolean; children: ReactNode; hint?: ReactNode }) {
  return (
    <div className="flex items-start gap-2">
      <input id={id} type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} disabled={disabled} className={`mt-1 size-5 shrink-0 accent-(--ui-accent) ${FOCUS_RING}`} />
      <label htmlFor={id} className="text-sm">
        <span className="font-medium">{children}</span>
        {hint ? <span className="block text-(--ui-muted)">{hint}</span> : null}
      </label>
    </div>
  );
}

const FORM_CLASS = "flex flex-col gap-3 rounded-lg border border-(--ui-border) p-4";

/** Payout fee-config (POST /v1/payout/fee-config/set): who bears the network fee of a payout that does not say. */
export function PayoutFeeForm({ isSubtract, canEdit }: { isSubtract: boolean; canEdit: boolean }) {
  const { submit, isPending, dialog, message } = useSettingsAction();
  const [value, setValue] = useState(isSubtract);
  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit("settings.set_payout_fee", { is_subtract: value });
  };
  return (
    <>
      {dialog}
      <form onSubmit={save} className={FORM_CLASS} aria-labelledby="payout-fee-legend">
        <fieldset className="flex flex-col gap-2">
          <legend id="payout-fee-legend" className="mb-1 font-semibold">
            Payout fee
          </legend>
          <p className="text-sm text-(--ui-muted)">For payouts that do not say who bears the fee themselves (API calls without it, auto-withdrawals, the cabinet).</p>
          <Choice name="payout-fee" value="recipient" checked={!value} onChange={() => setValue(false)} disabled={!canEdit} hint="Your balance gives the amount; the recipient gets it less the fee.">
            The recipient bears the fee
          </Choice>
          <Choice name="payout-fee" value="balance" checked={value} onChange={() => setValue(true)} disabled={!canEdit} hint="The recipient gets the amount; your balance gives the amount plus the fee.">
            Your balance pays the fee on top
          </Choice>
        </fieldset>
        {message}
        {canEdit ? (
          <div>
            <Button type="submit" disabled={isPending}>
              {isPending ? "Saving…" : "Save payout fee"}
            </Button>
          </div>
        ) : null}
      </form>
    </>
  );
}

/** Refund fee-config (POST /v1/refund/fee-config/set): who bears a refund's network fee. */
export function RefundFeeForm({ payer, canEdit }: { payer: string; canEdit: boolean }) {
  const { submit, isPending, dialog, message } = useSettingsAction();
  const [value, setValue] = useState(payer === "customer" ? "customer" : "merchant");
  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit("settings.set_refund_fee", { payer: value });
  };
  return (
    <>
      {dialog}
      <form onSubmit={save} className={FORM_CLASS} aria-labelledby="refund-fee-legend">
        <fieldset className="flex flex-col gap-2">
          <legend id="refund-fee-legend" className="mb-1 font-semibold">
            Refund fee
          </legend>
          <Choice name="refund-fee" value="merchant" checked={value === "merchant"} onChange={() => setValue("merchant")} disabled={!canEdit} hint="The buyer receives the full refund amount.">
            Your store bears the fee
          </Choice>
          <Choice name="refund-fee" value="customer" checked={value === "customer"} onChange={() => setValue("customer")} disabled={!canEdit} hint="The refund arrives less the network fee.">
            The buyer bears the fee
          </Choice>
        </fieldset>
        {message}
        {canEdit ? (
          <div>
            <Button type="submit" disabled={isPending}>
              {isPending ? "Saving…" : "Save refund fee"}
            </Button>
          </div>
        ) : null}
      </form>
    </>
  );
}

/** Autorefund (POST /v1/payment/autorefund/set): refund underpaid payments, and the excess of overpaid ones, without waiting for you. */
export function AutorefundForm({ underpaid, overpaid, canEdit }: { underpaid: boolean; overpaid: boolean; canEdit: boolean }) {
  const { submit, isPending, dialog, message } = useSettingsAction();
  const [isUnderpaid, setUnderpaid] = useState(underpaid);
  const [isOverpaid, setOverpaid] = useState(overpaid);
  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit("settings.set_autorefund", { underpaid: isUnderpaid, overpaid: isOverpaid });
  };
  return (
    <>
      {dialog}
      <form onSubmit={save} className={FORM_CLASS} aria-labelledby="autorefund-legend">
        <fieldset className="flex flex-col gap-2">
          <legend id="autorefund-legend" className="mb-1 font-semibold">
            Autorefund
          </legend>
          <p className="text-sm text-(--ui-muted)">Applies to payments that end under- or overpaid from now on; earlier ones wait for your decision on their invoice page.</p>
          <Check id="autorefund-underpaid" checked={isUnderpaid} onChange={setUnderpaid} disabled={!canEdit} hint="The buyer gets back what arrived (less the refund fee, if the buyer bears it).">
            Refund underpaid payments automatically
          </Check>
          <Check id="autorefund-overpaid" checked={isOverpaid} onChange={setOverpaid} disabled={!canEdit} hint="The invoice counts as paid; the buyer gets back what arrived beyond the price.">
            Refund the excess of overpaid payments automatically
          </Check>
        </fieldset>
        {message}
        {canEdit ? (
          <div>
            <Button type="submit" disabled={isPending}>
              {isPending ? "Saving…" : "Save autorefund"}
            </Button>
          </div>
        ) : null}
      </form>
    </>
  );
}
