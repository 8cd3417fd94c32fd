"use client";

import Link from "next/link";
import { useState, type FormEvent } from "react";
import { CoinNetworkFields } from "@/components/cabinet/coin-network-fields";
import { Alert, Field, Select } from "@/components/cabinet/form-controls";
import { useCabinetAction } from "@/components/cabinet/use-cabinet-action";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { TEXT_LINK } from "@/components/ui/theme";
import type { PinOption } from "@/components/cabinet/links/payment-link-forms";

/** How long a new invoice waits for payment, as the API's `lifetime` in seconds. */
const LIFETIMES = [
  { seconds: 3600, label: "1 hour" },
  { seconds: 6 * 3600, label: "6 hours" },
  { seconds: 12 * 3600, label: "12 hours (the longest)" },
];

interface CreatedInvoice {
  uuid: string;
  order_id: string | null;
  amount: string;
  currency: string;
  url: string;
  url_qr_code: string;
}

/**
 * An invoice made by hand (POST /v1/payment through the cabinet): a price in any pricing currency,
 * settled in one coin or in the buyer's choice; its payment page's URL and QR code are shown to
 * share. A repeated order id while its invoice lives answers that invoice, as over the API.
 */
export function NewInvoiceForm({ pricingCurrencies, coins }: { pricingCurrencies: string[]; coins: PinOption[] }) {
  const { run, isPending, dialog } = useCabinetAction();
  const [coin, setCoin] = useState("");
  const [network, setNetwork] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedInvoice | null>(null);
  const coinChoices = [...new Set(coins.map((option) => option.currency))];
  const networkChoices = coin ? coins.filter((option) => option.currency === coin) : [];
  const chooseCoin = (value: string) => {
    setCoin(value);
    const carried = coins.filter((option) => option.currency === value);
    setNetwork(carried.length === 1 ? carried[0].network : "");
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => String(form.get(name) ?? "").trim();
    const optional = (name: string) => (text(name) ? { [name]: text(name) } : {});
    if (coin && !network) {
      setError(`Choose the network ${coin} is paid on.`);
      return;
    }
    const input = {
      amount: text("amount"),
      currency: text("currency"),
      ...optional("order_id"),
      ...(coin ? { to_currency: coin, network } : {}),
      lifetime: Number(text("lifetime")),
      ...optional("payer_email"),
      ...optional("url_return"),
    };
    const result = await run("invoice.create", input);
    if (!result) return;
    if (!result.ok) {
      setError(result.message);
      return;
    }
    setCreated(result.result as CreatedInvoice);
    formElement.reset();
    chooseCoin("");
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate aria-label="New invoice">
      {dialog}
      {error ? <Alert>{error}</Alert> : null}
      {created ? (
        <div className="flex flex-col gap-3 rounded-lg border border-(--ui-success-border) bg-(--ui-success-bg) p-3 sm:flex-row">
          {/* eslint-disable-next-line @next/next/no-img-element -- a data URL made by the server */}
          <img src={created.url_qr_code} alt={`QR code of the payment page of ${created.order_id ?? created.uuid}`} width={160} height={160} className="size-40 shrink-0 rounded bg-white p-1" />
          <div className="flex min-w-0 flex-col gap-2">
            <p role="status" className="text-sm font-medium text-(--ui-success)">
              Invoice {created.order_id ?? created.uuid.slice(0, 8)} for {created.amount} {created.currency} created. Send the buyer its payment page:
            </p>
            <div className="flex flex-wrap items-center gap-2">
              <span className="min-w-0 flex-1 font-mono text-sm break-all" data-testid="new-invoice-url">
                {created.url}
              </span>
              <CopyButton value={created.url} label="Copy" accessibleName="Copy the payment page's URL" copiedText="Copied" announcement="URL copied" failure="Select the URL and copy it" />
            </div>
            <Link href={`/cabinet/invoices/${created.uuid}`} className={`text-sm ${TEXT_LINK}`}>
              Open the invoice
            </Link>
          </div>
        </div>
      ) : null}
      <div className="grid gap-4 md:grid-cols-2">
        <Field id="invoice-amount" name="amount" label="Amount" required inputMode="decimal" autoComplete="off" hint="The price, e.g. 49.90." />
        <Select id="invoice-currency" label="Price currency" name="currency" defaultValue={pricingCurrencies.includes("USD") ? "USD" : pricingCurrencies[0]} hint="The currency the price is written in; the buyer pays in crypto.">
          {pricingCurrencies.map((symbol) => (
            <option key={symbol} value={symbol}>
              {symbol}
            </option>
          ))}
        </Select>
      </div>
      <CoinNetworkFields
        className="grid gap-4 md:grid-cols-2"
        choice={{ coins: coinChoices, networks: networkChoices, coin, network, chooseCoin, setNetwork }}
        coinField={{ id: "invoice-coin", name: "to_currency", label: "Paid in", hint: "One coin, or the buyer picks among your accepted ones.", none: "Buyer chooses" }}
        networkField={{ id: "invoice-network", name: "network", label: "Network", none: coin ? "Choose a network" : "Buyer chooses" }}
      />
      <div className="grid gap-4 md:grid-cols-2">
        <Field id="invoice-order-id" name="order_id" label="Order id" maxLength={128} autoComplete="off" hint="Your reference (optional). While its invoice waits for payment, the same order id answers that invoice." />
        <Select id="invoice-lifetime" label="Time to pay" name="lifetime" defaultValue="3600">
          {LIFETIMES.map((lifetime) => (
            <option key={lifetime.seconds} value={lifetime.seconds}>
              {lifetime.label}
            </option>
          ))}
        </Select>
        <Field id="invoice-payer-email" name="payer_email" label="Buyer's e-mail" type="email" autoComplete="off" hint="Optional: a receipt is sent there after payment." />
        <Field id="invoice-url-return" name="url_return" label="Back-to-store link" type="url" autoComplete="off" hint="Optional: where the payment page's back link goes (http or https)." />
      </div>
      <div>
        <Button type="submit" disabled={isPending}>
          {isPending ? "Creating…" : "Create invoice"}
        </Button>
      </div>
    </form>
  );
}
