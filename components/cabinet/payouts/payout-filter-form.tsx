import Link from "next/link";
import { SearchBox } from "@/components/cabinet/search-box";
import { INPUT_CLASS } from "@/components/cabinet/form-controls";
import { buttonClassName } from "@/components/ui/button";
import { TEXT_LINK } from "@/components/ui/theme";
import { listNetworks, listSettlementSymbols } from "@/lib/catalogue";
import { COARSE_PAYOUT_STATUSES, PAYOUT_KINDS } from "@/lib/services/payouts/search-payouts";
import { KIND_WORDS, STATUS_WORDS } from "./payout-words";

function Select({ id, label, name, value, children }: { id: string; label: string; name: string; value: string; children: React.ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value} className={INPUT_CLASS}>
        {children}
      </select>
    </div>
  );
}

/**
 * The list's filters as a plain GET form: applying them is a navigation, so the filtered view is
 * a URL (shareable, and the export takes the same parameters). Works without JavaScript.
 */
export function PayoutFilterForm({
  view,
  status,
  coin,
  network,
  kind,
  q,
  clearHref,
}: {
  view: "all" | "approval";
  status: string;
  coin: string;
  network: string;
  kind: string;
  q: string;
  clearHref: string;
}) {
  return (
    <form method="get" action="/cabinet/payouts" role="search" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-end" aria-label="Search and filter payouts">
      {view === "approval" ? <input type="hidden" name="view" value="approval" /> : null}
      <div className="sm:col-span-2 lg:col-span-5">
        <SearchBox
          id="payout-search"
          value={q}
          placeholder="Order id, address, txid or payout uuid"
          hint="Finds payouts whose order id, destination address or transaction hash contains the text, in any case (or the payout with this uuid), within the filters below."
        />
      </div>
      {view === "all" ? (
        <Select id="filter-status" label="Status" name="status" value={status}>
          <option value="">Any status</option>
          {COARSE_PAYOUT_STATUSES.map((value) => (
            <option key={value} value={value}>
              {STATUS_WORDS[value]}
            </option>
          ))}
        </Select>
      ) : null}
      <Select id="filter-coin" label="Coin" name="coin" value={coin}>
        <option value="">Any coin</option>
        {listSettlementSymbols().map(({ symbol }) => (
          <option key={symbol} value={symbol}>
            {symbol}
          </option>
        ))}
      </Select>
      <Select id="filter-network" label="Network" name="network" value={network}>
        <option value="">Any network</option>
        {listNetworks().map((entry) => (
          <option key={entry.id} value={entry.id}>
            {entry.displayName}
          </option>
        ))}
      </Select>
      <Select id="filter-kind" label="Kind" name="kind" value={kind}>
        <option value="">Any kind</option>
        {PAYOUT_KINDS.map((value) => (
          <option key={value} value={value}>
            {KIND_WORDS[value]}
          </option>
        ))}
      </Select>
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2 lg:col-span-1">
        <button type="submit" className={buttonClassName("secondary")}>
          Apply filters
        </button>
        <Link href={clearHref} className={`text-sm ${TEXT_LINK}`}>
          Clear filters
        </Link>
      </div>
    </form>
  );
}
