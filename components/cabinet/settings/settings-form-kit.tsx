"use client";

import { useState, type ReactNode } from "react";
import { useCoinNetwork } from "@/components/cabinet/coin-network-fields";
import { Alert, INPUT_CLASS } from "@/components/cabinet/form-controls";
import { Button } from "@/components/ui/button";
import { useCabinetAction } from "@/components/cabinet/use-cabinet-action";
import type { CabinetActionResult } from "@/lib/cabinet/sensitive-actions";

type Outcome = { tone: "success" | "danger"; message: string } | null;

/**
 * One settings form's action runner and its own result line: "Saved." (or what the caller says)
 * after a success, the refusal's message after a failure. Each form keeps its own, so a result
 * shows beside the Save button that caused it.
 */
export function useSettingsAction() {
  const { run, isPending, dialog } = useCabinetAction();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const submit = async (name: string, input: unknown, success: string | ((result: unknown) => string) = "Saved."): Promise<CabinetActionResult | null> => {
    setOutcome(null);
    const result = await run(name, input);
    if (!result) return null; // the code dialog was cancelled: nothing happened
    if (result.ok) setOutcome({ tone: "success", message: typeof success === "function" ? success(result.result) : success });
    else setOutcome({ tone: "danger", message: result.message });
    return result;
  };
  const message = outcome ? <Alert tone={outcome.tone}>{outcome.message}</Alert> : null;
  return { submit, isPending, dialog, message, clear: () => setOutcome(null) };
}

/** A labelled select (the settings forms' coin and network choices). */
export function SelectField({
  id,
  label,
  value,
  onChange,
  children,
  hint,
  disabled,
  name,
}: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  children: ReactNode;
  hint?: ReactNode;
  disabled?: boolean;
  name?: string;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        name={name}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className={INPUT_CLASS}
      >
        {children}
      </select>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-(--ui-muted)">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A coin on a network, as the server hands it to the settings forms. */
export interface AssetChoiceOption {
  currency: string;
  network: string;
  networkName: string;
  decimals: number;
}

/** Coin and network picked together (see useCoinNetwork), `preferred` first when it is offered. */
export function useAssetChoice(options: AssetChoiceOption[], preferred = "USDT") {
  return useCoinNetwork(options, (option) => option.currency === preferred);
}

/** The coin and network selects of useAssetChoice, side by side on wider screens. */
export function AssetSelects({ idPrefix, choice, disabled }: { idPrefix: string; choice: ReturnType<typeof useAssetChoice>; disabled?: boolean }) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <SelectField id={`${idPrefix}-coin`} label="Coin" value={choice.coin} onChange={choice.chooseCoin} disabled={disabled}>
        {choice.coins.map((symbol) => (
          <option key={symbol} value={symbol}>
            {symbol}
          </option>
        ))}
      </SelectField>
      <SelectField id={`${idPrefix}-network`} label="Network" value={choice.network} onChange={choice.setNetwork} disabled={disabled}>
        {choice.networks.map((candidate) => (
          <option key={candidate.network} value={candidate.network}>
            {candidate.networkName}
          </option>
        ))}
      </SelectField>
    </div>
  );
}

/** Says why a form is read-only for this role, and who can change it ("an owner or admin can"). */
export function ReadOnlyNote({ role, who }: { role: string; who: string }) {
  return (
    <p className="text-sm text-(--ui-muted)">
      Your role ({role}) can see this but not change it: {who}.
    </p>
  );
}

/** A table row's remove button, shown to those who may edit; its accessible name says which row (`what`). */
export function RowRemoveButton({ canEdit, pending, onClick, label = "Remove", what }: { canEdit: boolean; pending: boolean; onClick(): void; label?: string; what: string }) {
  if (!canEdit) return null;
  return (
    <Button variant="secondary" size="small" disabled={pending} onClick={onClick}>
      {label}
      <span className="sr-only"> {what}</span>
    </Button>
  );
}
