"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { FOCUS_RING } from "@/components/ui/theme";
import { useSettingsAction } from "./settings-form-kit";

export interface AcceptedAssetOption {
  currency: string;
  network: string;
  networkName: string;
  /** Whether this service watches the network for deposits now. */
  canReceive: boolean;
}

const keyOf = (entry: { currency: string; network: string }) => `${entry.currency}:${entry.network}`;

/**
 * The coins and networks buyers may choose on a currency-agnostic invoice (POST
 * /v1/payment/accepted/set): the whole set is replaced on save, and an empty set accepts every
 * coin of the catalogue.
 */
export function AcceptedCurrenciesForm({ options, accepted, canEdit }: { options: AcceptedAssetOption[]; accepted: { currency: string; network: string }[]; canEdit: boolean }) {
  const { submit, isPending, dialog, message } = useSettingsAction();
  const [selected, setSelected] = useState(() => new Set(accepted.map(keyOf)));
  const coins = [...new Set(options.map((option) => option.currency))];

  const toggle = (key: string, isOn: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (isOn) next.add(key);
      else next.delete(key);
      return next;
    });

  const save = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const entries = options.filter((option) => selected.has(keyOf(option))).map(({ currency, network }) => ({ currency, network }));
    void submit("settings.set_accepted", { accepted: entries }, entries.length === 0 ? "Saved: every coin of the catalogue is accepted." : `Saved: ${entries.length} accepted.`);
  };

  return (
    <>
      {dialog}
      <form onSubmit={save} className="flex flex-col gap-4" aria-label="Accepted currencies">
        <p className="text-sm" aria-live="polite">
          {selected.size === 0 ? (
            <>Every coin and network of the catalogue is accepted (nothing is ticked).</>
          ) : (
            <>
              {selected.size} coin{selected.size === 1 ? "" : "s"} on a network ticked: buyers choose among these only.
            </>
          )}
        </p>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {coins.map((coin) => (
            <fieldset key={coin} className="min-w-0 rounded-lg border border-(--ui-border) p-3">
              <legend className="px-1 text-sm font-semibold">{coin}</legend>
              <ul className="flex flex-col gap-1">
                {options
                  .filter((option) => option.currency === coin)
                  .map((option) => {
                    const key = keyOf(option);
                    const id = `accepted-${option.currency}-${option.network}`;
                    return (
                      <li key={key} className="flex items-center gap-2">
                        <input
                          id={id}
                          type="checkbox"
                          checked={selected.has(key)}
                          disabled={!canEdit}
                          onChange={(event) => toggle(key, event.target.checked)}
                          className={`size-5 shrink-0 accent-(--ui-accent) ${FOCUS_RING}`}
                        />
                        <label htmlFor={id} className="min-w-0 py-1 text-sm">
                          {option.currency} on {option.networkName}
                          {option.canReceive ? null : <span className="text-(--ui-muted)"> (network off on this service)</span>}
                        </label>
                      </li>
                    );
                  })}
              </ul>
            </fieldset>
          ))}
        </div>
        {message}
        {canEdit ? (
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={isPending}>
              {isPending ? "Saving…" : "Save accepted currencies"}
            </Button>
            <Button variant="secondary" onClick={() => setSelected(new Set())} disabled={isPending || selected.size === 0}>
              Untick all
            </Button>
          </div>
        ) : null}
      </form>
    </>
  );
}
