import type { Metadata } from "next";
import Link from "next/link";
import { Amount, DataTable, EmptyState, PageHeader, Panel, ShortId, StatusBadge, Time, ListFailure, readListPage } from "@/components/cabinet/page-kit";
import { cursorPagerLinks, hrefOf, Pager, readCursorPosition } from "@/components/cabinet/pager";
import { ApprovalQueue } from "@/components/cabinet/payouts/payout-decision";
import { PayoutFilterForm } from "@/components/cabinet/payouts/payout-filter-form";
import { INTERNAL_STATUS_WORDS, KIND_WORDS, STATUS_CHIP_WORDS } from "@/components/cabinet/payouts/payout-words";
import { buttonClassName } from "@/components/ui/button";
import { FOCUS_RING, TEXT_LINK } from "@/components/ui/theme";
import { getApiDeps } from "@/lib/api/deps";
import { userActor } from "@/lib/cabinet/actions/payout-actions";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { roleAllows } from "@/lib/domain/cabinet/permissions";
import { countPayoutsAwaitingApproval, searchPayouts, type PayoutKind } from "@/lib/services/payouts/search-payouts";
import { hasFilters, readPayoutQuery, toQueryParams, toSearchFilters, type SearchParams } from "./payout-filters";
import type { CoarsePayoutStatus } from "@/lib/domain/payout/transition";

export const metadata: Metadata = { title: "Payouts" };

const PAGE_SIZE = 25;

type PageProps = { searchParams: Promise<SearchParams> };

function Tab({ href, isCurrent, children }: { href: string; isCurrent: boolean; children: React.ReactNode }) {
  return (
    <Link
      href={href}
      aria-current={isCurrent ? "page" : undefined}
      className={`rounded-md px-3 py-2 text-sm font-medium whitespace-nowrap ${FOCUS_RING} ${isCurrent ? "bg-(--ui-accent) text-(--ui-accent-fg)" : "hover:bg-(--ui-subtle)"}`}
    >
      {children}
    </Link>
  );
}

export default async function PayoutsPage({ searchParams }: PageProps) {
  const actor = await requireActorForPage();
  const deps = getApiDeps();
  const params = await searchParams;
  const query = readPayoutQuery(params);
  const position = readCursorPosition(params);
  const filters = toQueryParams(query);
  const isApproval = query.view === "approval";
  const canMoveMoney = roleAllows(actor.role, "money");

  const { page, failure } = await readListPage(() => searchPayouts(deps, actor.merchantId, toSearchFilters(query), { limit: PAGE_SIZE, cursor: position.cursor }));
  const awaiting = await countPayoutsAwaitingApproval(deps.db, actor.merchantId);
  const links = cursorPagerLinks("/cabinet/payouts", filters, position, page?.nextCursor ?? null);
  const me = userActor(actor.userId);
  const isFiltered = hasFilters(query);

  return (
    <>
      <PageHeader
        title="Payouts"
        description="Money leaving your balances: payouts, refunds, split shares and blocked-wallet refunds. Manual payouts wait for a second user's approval."
        actions={
          <>
            {canMoveMoney ? (
              <Link href="/cabinet/payouts/new" className={buttonClassName("primary")}>
                New payout
              </Link>
            ) : null}
            <a href={hrefOf("/cabinet/payouts/export", filters)} className={buttonClassName("secondary")} download>
              Export CSV
            </a>
          </>
        }
      />

      <nav aria-label="Payout views" className="mb-4 flex w-fit max-w-full gap-1 overflow-x-auto rounded-lg border border-(--ui-border) p-1">
        <Tab href={hrefOf("/cabinet/payouts", toQueryParams(query, { view: "all" }))} isCurrent={!isApproval}>
          All payouts
        </Tab>
        <Tab href={hrefOf("/cabinet/payouts", toQueryParams(query, { view: "approval" }))} isCurrent={isApproval}>
          Awaiting approval ({awaiting})
        </Tab>
      </nav>

      <Panel title="Search and filters" id="payout-filters">
        <PayoutFilterForm
          key={JSON.stringify(filters)}
          view={query.view}
          status={query.status}
          coin={query.coin}
          network={query.network}
          kind={query.kind}
          q={query.q}
          clearHref={isApproval ? "/cabinet/payouts?view=approval" : "/cabinet/payouts"}
        />
      </Panel>

      <Panel title={isApproval ? "Awaiting approval" : "All payouts"} id="payout-list">
        {failure ? (
          <ListFailure message={failure} firstPage={hrefOf("/cabinet/payouts", filters)} />
        ) : isApproval ? (
          <>
            {!canMoveMoney ? <p className="mb-3 text-sm text-(--ui-muted)">Your role ({actor.role}) can see this queue but not approve, reject or cancel payouts.</p> : null}
            <ApprovalQueue
              canDecide={canMoveMoney}
              empty={
                <EmptyState title={isFiltered ? "No payout awaiting approval matches these filters" : "No payout is awaiting approval"}>
                  Manual payouts made in the cabinet wait here until another user approves them.
                </EmptyState>
              }
              rows={(page?.items ?? []).map(({ payout, createdBy }) => ({
                uuid: payout.uuid,
                orderId: payout.order_id,
                amount: payout.amount,
                receiveAmount: payout.receive_amount,
                debitAmount: payout.debit_amount,
                currency: payout.currency,
                network: payout.network,
                address: payout.address,
                memo: payout.memo,
                createdAt: payout.created_at,
                createdBy: createdBy.label,
                isOwn: createdBy.actor === me,
              }))}
            />
          </>
        ) : !page || page.items.length === 0 ? (
          <EmptyState title={isFiltered ? "No payout matches these filters" : "No payout yet"}>
            {isFiltered ? (
              <Link href="/cabinet/payouts" className="text-(--ui-link) underline">
                Clear the filters
              </Link>
            ) : canMoveMoney ? (
              <>
                Send one with{" "}
                <Link href="/cabinet/payouts/new" className="text-(--ui-link) underline">
                  New payout
                </Link>{" "}
                or through the API (POST /v1/payout).
              </>
            ) : (
              "Payouts made through the API or by your team appear here."
            )}
          </EmptyState>
        ) : (
          <DataTable caption="Payouts, newest first" headers={["Created", "Order id", "Kind", "Amount", "Fee", "To address", "Status", "Transaction"]}>
            {page.items.map(({ payout }) => (
              <tr key={payout.uuid}>
                <td className="whitespace-nowrap">
                  <Time iso={payout.created_at} />
                </td>
                <td>
                  <Link href={`/cabinet/payouts/${payout.uuid}`} className={`font-mono text-xs break-all ${TEXT_LINK}`}>
                    {payout.order_id}
                  </Link>
                </td>
                <td className="whitespace-nowrap">{KIND_WORDS[payout.kind as PayoutKind] ?? payout.kind}</td>
                <td>
                  <Amount value={payout.amount} currency={payout.currency} />
                  <div className="text-xs text-(--ui-muted)">on {payout.network}</div>
                </td>
                <td>
                  <Amount value={payout.commission} currency={payout.currency} />
                </td>
                <td>
                  <ShortId value={payout.address} />
                </td>
                <td>
                  <StatusBadge status={payout.status} label={STATUS_CHIP_WORDS[payout.status as CoarsePayoutStatus]} />
                  <div className="text-xs text-(--ui-muted)">{INTERNAL_STATUS_WORDS[payout.internal_status] ?? payout.internal_status}</div>
                </td>
                <td>{payout.txid ? <ShortId value={payout.txid} /> : <span className="text-(--ui-muted)">—</span>}</td>
              </tr>
            ))}
          </DataTable>
        )}
        <Pager label="Payout pages" {...links} />
      </Panel>
    </>
  );
}
