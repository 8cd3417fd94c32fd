import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { InvoiceFilterForm } from "@/components/cabinet/invoices/invoice-filter-form";
import { cursorPagerLinks, hrefOf, Pager, readCursorPosition } from "@/components/cabinet/pager";
import { Amount, DataTable, EmptyState, PageHeader, Panel, ShortId, StatusBadge, Time, ListFailure, readListPage } from "@/components/cabinet/page-kit";
import { buttonClassName } from "@/components/ui/button";
import { TEXT_LINK } from "@/components/ui/theme";
import { getApiDeps } from "@/lib/api/deps";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { roleAllows } from "@/lib/domain/cabinet/permissions";
import { findNetwork } from "@/lib/catalogue";
import { formatDecimal } from "@/lib/i18n/format";
import { searchInvoices } from "@/lib/services/invoices/search-invoices";
import { FILTER_COINS, filterNetworks, hasFilters, PAYMENT_STATUS_WORDS, PAYMENT_STATUSES, readInvoiceQuery, toQueryParams, toSearchFilters, type SearchParams } from "./invoice-filters";
import type { PaymentStatus } from "@/lib/domain/invoice/status";

export const metadata: Metadata = { title: "Invoices" };

const PAGE_SIZE = 25;
const PATH = "/cabinet/invoices";
/** "Previous" remembers this many pages back ("First page" still works): URLs stay short. */
const MAX_TRAIL = 50;

type PageProps = { searchParams: Promise<SearchParams> };


export default async function InvoicesPage({ searchParams }: PageProps) {
  const actor = await requireActorForPage();
  const params = await searchParams;
  const query = readInvoiceQuery(params);
  const position = readCursorPosition(params, MAX_TRAIL);
  const filters = toQueryParams(query);

  // The GET form sends its empty fields too (`?status=&coin=`): one clean URL per view, to share.
  if (Object.values(params).some((value) => value === "" || (Array.isArray(value) && value.includes("")))) {
    redirect(hrefOf(PATH, { ...filters, cursor: position.cursor, trail: position.trail.length > 0 ? position.trail.join(".") : undefined }));
  }

  // A cursor that is not one of ours (edited by hand): say so and offer the first page.
  const { page, failure } = await readListPage(() => searchInvoices(getApiDeps(), actor.merchantId, toSearchFilters(query), { limit: PAGE_SIZE, cursor: position.cursor }));
  const links = cursorPagerLinks(PATH, filters, position, page?.nextCursor ?? null, MAX_TRAIL);
  const isFiltered = hasFilters(query);
  const rows = page?.items ?? [];

  return (
    <>
      <PageHeader
        title="Invoices"
        description="Every invoice of your store: what was asked, what arrived, and where it stands. Open one for its transfers, webhooks and refunds."
        actions={
          <>
            <a href={hrefOf(`${PATH}/export`, filters)} className={buttonClassName("secondary")} download>
              Export CSV
            </a>
            {roleAllows(actor.role, "links") ? (
              <Link href={`${PATH}/new`} className={buttonClassName("primary")}>
                New invoice
              </Link>
            ) : null}
          </>
        }
      />

      <Panel title="Search and filters" id="invoice-filters">
        <InvoiceFilterForm
          key={JSON.stringify(filters)}
          values={query}
          isFiltered={isFiltered}
          choices={{ statuses: PAYMENT_STATUSES.map((status) => ({ value: status, label: PAYMENT_STATUS_WORDS[status] })), coins: FILTER_COINS, networks: filterNetworks() }}
        />
      </Panel>

      <Panel title="Results" id="invoice-list">
        {failure ? (
          <ListFailure message={failure} firstPage={hrefOf(PATH, filters)} />
        ) : rows.length === 0 ? (
          position.cursor !== undefined ? (
            <EmptyState title="No more invoices">
              <Link href={hrefOf(PATH, filters)} className={TEXT_LINK}>
                Back to the first page
              </Link>
            </EmptyState>
          ) : isFiltered ? (
            <EmptyState title="No invoices match these filters">
              Check the search text (it must be a whole uuid, order id, address or txid) or{" "}
              <Link href={PATH} className={TEXT_LINK}>
                clear the filters
              </Link>
              .
            </EmptyState>
          ) : (
            <EmptyState title="No invoice yet">Invoices made through the API (POST /v1/payment) or by your payment links appear here.</EmptyState>
          )
        ) : (
          <>
            <p className="mb-3 text-sm text-(--ui-muted)">
              {rows.length === 1 ? "1 invoice shown" : `${rows.length} invoices shown`}, newest first
              {page?.nextCursor ? "; more on the next page." : position.cursor !== undefined ? "; this is the last page." : "."}
            </p>
            <DataTable caption="Invoices, newest first" headers={["Order id", "Status", "Amount", "Paid", "Created"]}>
              {rows.map((invoice) => (
                <tr key={invoice.uuid}>
                  <td className="max-w-64">
                    <Link href={`${PATH}/${invoice.uuid}`} className={`font-mono text-xs break-all ${TEXT_LINK}`}>
                      {invoice.order_id || `Invoice ${invoice.uuid.slice(0, 8)}`}
                    </Link>
                    <div className="text-(--ui-muted)">
                      <ShortId value={invoice.uuid} />
                    </div>
                  </td>
                  <td>
                    <StatusBadge status={invoice.payment_status} label={PAYMENT_STATUS_WORDS[invoice.payment_status as PaymentStatus]} />
                  </td>
                  <td>
                    <Amount value={invoice.amount} currency={invoice.currency} />
                  </td>
                  <td>
                    {invoice.payer_currency ? (
                      <>
                        <Amount value={invoice.amount_paid} currency={invoice.payer_currency} />
                        <div className="text-xs whitespace-nowrap text-(--ui-muted)">
                          of {formatDecimal("en", invoice.payer_amount)} on {findNetwork(invoice.network)?.displayName ?? invoice.network}
                        </div>
                      </>
                    ) : (
                      <span className="text-(--ui-muted)">No coin chosen yet</span>
                    )}
                  </td>
                  <td className="whitespace-nowrap">
                    <Time iso={invoice.created_at} />
                  </td>
                </tr>
              ))}
            </DataTable>
          </>
        )}
        <Pager label="Invoice pages" {...links} />
      </Panel>
    </>
  );
}
