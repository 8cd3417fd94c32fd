"use client";

import { useState, type FormEvent } from "react";
import { CoinNetworkFields } from "@/components/cabinet/coin-network-fields";
import { Alert, Field, INPUT_CLASS, Select } from "@/components/cabinet/form-controls";
import { useCabinetAction } from "@/components/cabinet/use-cabinet-action";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";

/** A coin on a network a link may pin (plain data from the server). */
export interface PinOption {
  currency: string;
  network: string;
  networkName: string;
}

type AmountMode = "fixed" | "open" | "range";

const MODE_WORDS: Record<AmountMode, { label: string; hint: string }> = {
  fixed: { label: "Fixed amount", hint: "Every buyer pays the same amount." },
  open: { label: "Buyer chooses", hint: "Any amount; limits optional." },
  range: { label: "Buyer chooses within limits", hint: "A minimum, a maximum or both." },
};

/**
 * A new payment link, with the fields of POST /v1/payment/link: title, description, the amount
 * (fixed, open or within limits) in a price currency, an optional pinned coin and network, an
 * optional expiry and the URLs its invoices carry.
 */
export function CreatePaymentLinkForm({ pricingCurrencies, pins }: { pricingCurrencies: string[]; pins: PinOption[] }) {
  const { run, isPending, dialog } = useCabinetAction();
  const [mode, setMode] = useState<AmountMode>("fixed");
  const [pinnedCurrency, setPinnedCurrency] = useState("");
  const [pinnedNetwork, setPinnedNetwork] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<{ url: string; title: string } | null>(null);
  const pinCoins = [...new Set(pins.map((pin) => pin.currency))];
  const pinNetworks = pinnedCurrency
    ? pins.filter((pin) => pin.currency === pinnedCurrency)
    : [...new Map(pins.map((pin) => [pin.network, pin])).values()];
  // A new pinned coin (or none) sets the network back to "Any network".
  const choosePinnedCurrency = (value: string) => {
    setPinnedCurrency(value);
    setPinnedNetwork("");
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setCreated(null);
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const optional = (name: string) => (text(name) ? { [name]: text(name) } : {});
    const expiresLocal = text("expires_at");
    const expiresAt = expiresLocal ? new Date(expiresLocal) : null;
    const input = {
      title: text("title"),
      ...optional("description"),
      amount_mode: mode,
      currency: text("currency"),
      ...(mode === "fixed" ? optional("amount") : { ...optional("amount_min"), ...optional("amount_max") }),
      ...optional("pinned_currency"),
      ...optional("pinned_network"),
      // datetime-local is the user's wall clock; the API takes an RFC 3339 instant.
      ...(expiresAt ? { expires_at: Number.isNaN(expiresAt.getTime()) ? expiresLocal : expiresAt.toISOString() } : {}),
      ...optional("url_callback"),
      ...optional("url_return"),
      ...optional("url_success"),
    };
    const result = await run("payment_link.create", input);
    if (!result) return;
    if (!result.ok) {
      setError(result.message);
      return;
    }
    const link = result.result as { url: string; title: string };
    setCreated({ url: link.url, title: link.title });
    formElement.reset();
    setMode("fixed");
    choosePinnedCurrency("");
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      {dialog}
      {error ? <Alert>{error}</Alert> : null}
      {created ? (
        <div className="flex flex-col gap-2 rounded-lg border border-(--ui-success-border) bg-(--ui-success-bg) p-3">
          <p role="status" className="text-sm font-medium text-(--ui-success)">
            Payment link “{created.title}” created. Share its URL:
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <span className="min-w-0 flex-1 font-mono text-sm break-all">{created.url}</span>
            <CopyButton value={created.url} label="Copy" accessibleName="Copy the new link's URL" copiedText="Copied" announcement="URL copied" failure="Select the URL and copy it" />
          </div>
        </div>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        <Field id="link-title" name="title" label="Title" required maxLength={200} hint="What the buyer sees, e.g. “Donation” or “Annual plan”." />
        <Select id="link-currency" label="Price currency" name="currency" defaultValue={pricingCurrencies.includes("USD") ? "USD" : pricingCurrencies[0]} hint="The currency the amount is written in; buyers pay in crypto.">
          {pricingCurrencies.map((symbol) => (
            <option key={symbol} value={symbol}>
              {symbol}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="link-description" className="text-sm font-medium">
          Description
        </label>
        <textarea id="link-description" name="description" rows={2} maxLength={2000} className={INPUT_CLASS} />
      </div>
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">Amount mode</legend>
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-4">
          {(Object.keys(MODE_WORDS) as AmountMode[]).map((value) => (
            <label key={value} className="flex min-h-11 items-start gap-2 text-sm">
              <input type="radio" name="amount_mode" value={value} checked={mode === value} onChange={() => setMode(value)} className="mt-1 size-4 accent-(--ui-accent)" />
              <span>
                <span className="font-medium">{MODE_WORDS[value].label}</span>
                <span className="block text-(--ui-muted)">{MODE_WORDS[value].hint}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {mode === "fixed" ? (
        <Field id="link-amount" name="amount" label="Amount" required inputMode="decimal" autoComplete="off" />
      ) : (
        <div className="grid gap-4 md:grid-cols-2">
          <Field id="link-amount-min" name="amount_min" label="Minimum amount" inputMode="decimal" autoComplete="off" hint={mode === "open" ? "Optional." : "A minimum, a maximum or both."} />
          <Field id="link-amount-max" name="amount_max" label="Maximum amount" inputMode="decimal" autoComplete="off" hint="Optional." />
        </div>
      )}
      <CoinNetworkFields
        className="grid gap-4 md:grid-cols-2"
        choice={{ coins: pinCoins, networks: pinNetworks, coin: pinnedCurrency, network: pinnedNetwork, chooseCoin: choosePinnedCurrency, setNetwork: setPinnedNetwork }}
        coinField={{ id: "link-pinned-currency", name: "pinned_currency", label: "Pinned coin", hint: "Leave it to the buyer, or make every checkout pay in one coin.", none: "Buyer chooses" }}
        networkField={{ id: "link-pinned-network", name: "pinned_network", label: "Pinned network", hint: "Optional: the network every checkout uses.", none: "Any network" }}
      />
      <Field id="link-expires" name="expires_at" type="datetime-local" label="Expires at" hint="Optional, in your time zone. After it the link stops taking checkouts." />
      <details className="rounded-lg border border-(--ui-border) p-3">
        <summary className="cursor-pointer text-sm font-medium">Callback and return URLs</summary>
        <div className="mt-3 grid gap-4">
          <Field id="link-callback" name="url_callback" type="url" label="Callback URL" hint="Webhooks of the link's invoices also go here (optional)." />
          <Field id="link-return" name="url_return" type="url" label="Return URL" hint="Where the buyer goes back to from the payment page (optional)." />
          <Field id="link-success" name="url_success" type="url" label="Success URL" hint="Where the buyer goes after paying (optional)." />
        </div>
      </details>
      <div>
        <Button type="submit" disabled={isPending}>
          {isPending ? "Creating…" : "Create payment link"}
        </Button>
      </div>
    </form>
  );
}

/** Turns a link off (its URL stops taking checkouts; invoices made stay payable) or on again. */
export function PaymentLinkToggle({ linkId, title, isActive }: { linkId: string; title: string; isActive: boolean }) {
  const { run, isPending, dialog } = useCabinetAction();
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    setError(null);
    const result = await run("payment_link.toggle", { link_id: linkId, is_active: !isActive });
    if (result && !result.ok) setError(result.message);
  };
  return (
    <div className="flex flex-col gap-1">
      {dialog}
      <Button variant="secondary" size="small" disabled={isPending} onClick={() => void toggle()}>
        {isPending ? "Saving…" : isActive ? "Disable" : "Enable"}
        <span className="sr-only"> payment link {title}</span>
      </Button>
      {error ? <Alert>{error}</Alert> : null}
    </div>
  );
}
