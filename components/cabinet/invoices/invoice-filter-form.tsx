import Link from "next/link";
import { SearchBox } from "@/components/cabinet/search-box";
import type { ReactNode } from "react";
import { INPUT_CLASS } from "@/components/cabinet/form-controls";
import { buttonClassName } from "@/components/ui/button";
import { TEXT_LINK } from "@/components/ui/theme";

function Labelled({ id, label, hint, children }: { id: string; label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-(--ui-muted)">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export interface InvoiceFilterValues {
  status: string;
  coin: string;
  network: string;
  from: string;
  to: string;
  q: string;
}

export interface InvoiceFilterChoices {
  statuses: { value: string; label: string }[];
  coins: { crypto: string[]; fiat: string[] };
  networks: { id: string; name: string }[];
}

/**
 * The search box and the filters as one plain GET form: applying them is a navigation, so the
 * filtered view is a URL (shareable, bookmarkable, and the CSV export takes the same query). Works
 * without JavaScript. Submitting starts again from the first page (the cursor is not carried).
 */
export function InvoiceFilterForm({ values, choices, isFiltered }: { values: InvoiceFilterValues; choices: InvoiceFilterChoices; isFiltered: boolean }) {
  return (
    <form method="get" action="/cabinet/invoices" role="search" aria-label="Search and filter invoices" className="flex flex-col gap-4">
      <SearchBox
        id="invoice-search"
        value={values.q}
        placeholder="Order id, address, e-mail, txid or invoice uuid"
        hint="Finds invoices whose order id, deposit address, payer e-mail or transaction hash contains the text, in any case (or the invoice with this uuid), within the filters below."
      />
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <Labelled id="filter-status" label="Status">
          <select id="filter-status" name="status" defaultValue={values.status} className={INPUT_CLASS}>
            <option value="">Any status</option>
            {choices.statuses.map((status) => (
              <option key={status.value} value={status.value}>
                {status.label} ({status.value})
              </option>
            ))}
          </select>
        </Labelled>
        <Labelled id="filter-coin" label="Coin" hint="The coin paid or the price currency.">
          <select id="filter-coin" name="coin" defaultValue={values.coin} aria-describedby="filter-coin-hint" className={INPUT_CLASS}>
            <option value="">Any coin</option>
            <optgroup label="Crypto">
              {choices.coins.crypto.map((symbol) => (
                <option key={symbol} value={symbol}>
                  {symbol}
                </option>
              ))}
            </optgroup>
            <optgroup label="Fiat (price)">
              {choices.coins.fiat.map((symbol) => (
                <option key={symbol} value={symbol}>
                  {symbol}
                </option>
              ))}
            </optgroup>
          </select>
        </Labelled>
        <Labelled id="filter-network" label="Network">
          <select id="filter-network" name="network" defaultValue={values.network} className={INPUT_CLASS}>
            <option value="">Any network</option>
            {choices.networks.map((network) => (
              <option key={network.id} value={network.id}>
                {network.name}
              </option>
            ))}
          </select>
        </Labelled>
        <Labelled id="filter-from" label="Created from" hint="UTC day, included.">
          <input id="filter-from" name="from" type="date" defaultValue={values.from} aria-describedby="filter-from-hint" className={INPUT_CLASS} />
        </Labelled>
        <Labelled id="filter-to" label="Created to" hint="UTC day, included.">
          <input id="filter-to" name="to" type="date" defaultValue={values.to} aria-describedby="filter-to-hint" className={INPUT_CLASS} />
        </Labelled>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className={buttonClassName("secondary")}>
          Apply filters
        </button>
        {isFiltered ? (
          <Link href="/cabinet/invoices" className={`text-sm ${TEXT_LINK}`}>
            Clear filters
          </Link>
        ) : null}
      </div>
    </form>
  );
}
