import type { Metadata } from "next";
import { cookies } from "next/headers";
import Link from "next/link";
import type { ReactNode } from "react";
import { Amount, DataTable, EmptyState, PageHeader, Panel, ShortId, StatusBadge, Time } from "@/components/cabinet/page-kit";
import { VolumeChart } from "@/components/cabinet/volume-chart";
import { FiatSwitcher } from "@/components/cabinet/overview/fiat-switcher";
import { FOCUS_RING, TEXT_LINK } from "@/components/ui/theme";
import { getApiDeps } from "@/lib/api/deps";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { ESTIMATE_FIAT_COOKIE } from "@/lib/cabinet/estimate-fiat";
import { listEstimateFiats, toEstimateFiat } from "@/lib/services/overview/fiat-estimate";
import { loadOverview, type ActivityEvent, type OverviewFiat, type OverviewPeriod } from "@/lib/services/overview/load-overview";

export const metadata: Metadata = { title: "Overview" };

const PERIODS: { value: OverviewPeriod; label: string }[] = [
  { value: "24h", label: "24 hours" },
  { value: "7d", label: "7 days" },
  { value: "30d", label: "30 days" },
  { value: "90d", label: "90 days" },
];

function toPeriod(value: string | string[] | undefined): OverviewPeriod {
  return PERIODS.find((period) => period.value === value)?.value ?? "7d";
}

const ACTIVITY_WORDS: Record<ActivityEvent["kind"], string> = {
  invoice_created: "Invoice created",
  invoice_paid: "Invoice paid",
  payout_created: "Payout created",
  payout_sent: "Payout sent",
  payout_confirmed: "Payout confirmed",
  refund_created: "Refund created",
  refund_sent: "Refund sent",
  refund_confirmed: "Refund confirmed",
};

function ActivityLink({ event }: { event: ActivityEvent }) {
  const href = "payoutId" in event ? `/cabinet/payouts/${event.payoutId}` : `/cabinet/invoices/${event.invoiceId}`;
  return (
    <Link href={href} className={`${TEXT_LINK}`}>
      {ACTIVITY_WORDS[event.kind]}
    </Link>
  );
}

/** A fiat estimate, said to be one in words (not only by "≈"). */
function Estimate({ value, currency }: { value: string; currency: string }) {
  return (
    <span className="whitespace-nowrap">
      ≈ <Amount value={value} currency={currency} /> <span className="text-xs text-(--ui-muted)">estimate</span>
    </span>
  );
}

/** Where the estimates' rates come from, or why there are none. */
function RatesNote({ fiat }: { fiat: OverviewFiat }) {
  if (fiat.status === "unavailable") {
    return <p className="text-sm text-(--ui-warn)">No {fiat.fiat} estimate now: {fiat.reason}. The amounts in each coin above are exact.</p>;
  }
  return (
    <p className="text-sm text-(--ui-muted)">
      Estimates in {fiat.fiat} at today&apos;s rate ({fiat.isOffline ? "a fixed offline table, not market prices" : `from ${fiat.source}`}, as of <Time iso={fiat.asOf} />
      ): what the coins would be worth, not what a sale would fetch.
      {fiat.unpriced.length > 0 ? ` No rate for ${fiat.unpriced.join(", ")}: left out of the sums.` : ""}
    </p>
  );
}

function Change({ percent }: { percent: string | null }): ReactNode {
  if (percent === null) return <span className="text-(--ui-muted)">nothing before</span>;
  const isDown = percent.startsWith("-");
  return <span className="whitespace-nowrap tabular-nums">{isDown ? `${percent} %` : `+${percent} %`}</span>;
}

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function OverviewPage({ searchParams }: PageProps) {
  const actor = await requireActorForPage();
  const period = toPeriod((await searchParams).period);
  const chosenFiat = toEstimateFiat((await cookies()).get(ESTIMATE_FIAT_COOKIE)?.value);
  const overview = await loadOverview(getApiDeps(), actor.merchantId, { period, fiat: chosenFiat });
  const { attention, volume, fiat } = overview;
  const periodLabel = PERIODS.find((option) => option.value === period)!.label;
  const needsAttention =
    attention.payoutsAwaitingApproval.count + attention.deadDeliveries.count + attention.invoicesInReview.count + attention.decisionsNeeded.count > 0 || attention.failingEndpoint !== null;
  return (
    <>
      <PageHeader title="Overview" description="Balances, paid volume and what needs you." />

      {needsAttention ? (
        <Panel title="Needs attention" id="attention">
          <ul className="flex flex-col gap-2 text-sm">
            {attention.payoutsAwaitingApproval.count > 0 ? (
              <li>
                <Link href="/cabinet/payouts?view=approval" className={`font-medium ${TEXT_LINK}`}>
                  {attention.payoutsAwaitingApproval.count} payout{attention.payoutsAwaitingApproval.count === 1 ? "" : "s"} awaiting approval
                </Link>
              </li>
            ) : null}
            {attention.decisionsNeeded.count > 0 ? (
              <li>
                {attention.decisionsNeeded.count} payment{attention.decisionsNeeded.count === 1 ? "" : "s"} underpaid or overpaid, waiting for your decision:{" "}
                {attention.decisionsNeeded.items.map((item, index) => (
                  <span key={item.invoiceId}>
                    {index > 0 ? ", " : ""}
                    <Link href={`/cabinet/invoices/${item.invoiceId}#decision`} className={TEXT_LINK}>
                      {item.orderId || item.invoiceId.slice(0, 8)}
                    </Link>
                  </span>
                ))}
              </li>
            ) : null}
            {attention.failingEndpoint ? (
              <li>
                <Link href="/cabinet/webhooks?status=retrying#deliveries" className={`font-medium ${TEXT_LINK}`}>
                  Your webhook endpoint has been failing since <Time iso={attention.failingEndpoint.since} />
                </Link>
                : {attention.failingEndpoint.retrying} deliver{attention.failingEndpoint.retrying === 1 ? "y" : "ies"} retrying
                {attention.failingEndpoint.lastStatusCode !== null ? `, last answer HTTP ${attention.failingEndpoint.lastStatusCode}` : attention.failingEndpoint.lastError ? `, last error: ${attention.failingEndpoint.lastError}` : ""}.
              </li>
            ) : null}
            {attention.deadDeliveries.count > 0 ? (
              <li>
                <Link href="/cabinet/webhooks?status=dead" className={`font-medium ${TEXT_LINK}`}>
                  {attention.deadDeliveries.count} webhook deliver{attention.deadDeliveries.count === 1 ? "y" : "ies"} gave up
                </Link>
              </li>
            ) : null}
            {attention.invoicesInReview.count > 0 ? (
              <li>
                {attention.invoicesInReview.count} invoice{attention.invoicesInReview.count === 1 ? "" : "s"} set aside for review:{" "}
                {attention.invoicesInReview.items.map((item, index) => (
                  <span key={item.invoiceId}>
                    {index > 0 ? ", " : ""}
                    <Link href={`/cabinet/invoices/${item.invoiceId}`} className={`${TEXT_LINK}`}>
                      {item.orderId}
                    </Link>
                  </span>
                ))}
              </li>
            ) : null}
          </ul>
        </Panel>
      ) : null}

      <Panel title="Balances" id="balances" actions={<FiatSwitcher value={chosenFiat} fiats={listEstimateFiats()} />}>
        {overview.balances.length === 0 ? (
          <EmptyState title="No balance yet">Paid invoices are credited here, per coin and network.</EmptyState>
        ) : (
          <>
            {fiat.status === "ready" ? (
              <p className="mb-3 flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="fiat-balances">
                <span>
                  Available <Estimate value={fiat.available} currency={fiat.fiat} />
                </span>
                <span>
                  All yours, including maturing, incoming and reserved for payouts, less debt <Estimate value={fiat.total} currency={fiat.fiat} />
                </span>
              </p>
            ) : null}
            <DataTable caption="Balances per asset" headers={["Asset", "Available", `Available in ${fiat.fiat} (estimate)`, "Maturing", "Held", "Debt", "Incoming"]}>
              {overview.balances.map((balance) => (
                <tr key={`${balance.currency}:${balance.network}`}>
                  <th scope="row" className="px-2 py-2 text-left font-medium whitespace-nowrap">
                    {balance.currency} <span className="text-(--ui-muted)">on {balance.network}</span>
                  </th>
                  <td>
                    <Amount value={balance.available} currency={balance.currency} />
                  </td>
                  <td>
                    {fiat.status === "ready" && fiat.balances[`${balance.currency}:${balance.network}`]?.available ? (
                      <Estimate value={fiat.balances[`${balance.currency}:${balance.network}`].available!} currency={fiat.fiat} />
                    ) : (
                      <span className="text-(--ui-muted)">no rate</span>
                    )}
                  </td>
                  <td>
                    <Amount value={balance.maturing} currency={balance.currency} />
                  </td>
                  <td>
                    <Amount value={balance.held} currency={balance.currency} />
                  </td>
                  <td>
                    <Amount value={balance.debt} currency={balance.currency} />
                  </td>
                  <td>
                    <Amount value={balance.incoming} currency={balance.currency} />
                  </td>
                </tr>
              ))}
            </DataTable>
          </>
        )}
        <div className="mt-3">
          <RatesNote fiat={fiat} />
        </div>
      </Panel>

      <Panel
        title="Paid volume"
        id="volume"
        actions={
          <nav aria-label="Period" className="flex gap-1 rounded-lg border border-(--ui-border) p-1">
            {PERIODS.map((option) => (
              <Link
                key={option.value}
                href={`/cabinet?period=${option.value}`}
                aria-current={option.value === period ? "true" : undefined}
                className={`rounded-md px-2 py-1 text-sm ${FOCUS_RING} ${option.value === period ? "bg-(--ui-accent) text-(--ui-accent-fg)" : "hover:bg-(--ui-subtle)"}`}
              >
                {option.label}
              </Link>
            ))}
          </nav>
        }
      >
        <p className="mb-4 text-sm" data-testid="volume-comparison">
          {volume.count} paid in the last {periodLabel}, against {volume.previous.count} in the {periodLabel} before
          {fiat.status === "ready" ? (
            <>
              : <Estimate value={fiat.volume.current} currency={fiat.fiat} /> against <Estimate value={fiat.volume.previous} currency={fiat.fiat} /> (
              <Change percent={fiat.volume.changePercent} />, both at today&apos;s rate)
            </>
          ) : (
            <> (no {fiat.fiat} estimate now: {fiat.reason})</>
          )}
          .
        </p>
        {volume.count === 0 && volume.currencies.length === 0 ? (
          <EmptyState title="No paid invoices in this period" />
        ) : (
          <div className="grid gap-6">
            <VolumeChart
              points={volume.buckets.map((bucket) => ({ start: bucket.start.toISOString(), count: bucket.count, amounts: bucket.amounts }))}
              currencies={volume.currencies.map((currency) => currency.currency)}
              granularity={volume.granularity}
            />
            <DataTable caption="Paid volume per currency, against the period before" headers={["Currency", "Paid", "Invoices", "Period before", "Change"]}>
              {volume.currencies.map((currency) => (
                <tr key={currency.currency}>
                  <th scope="row" className="px-2 py-2 text-left font-medium">
                    {currency.currency}
                  </th>
                  <td>
                    <Amount value={currency.total} currency={currency.currency} />
                  </td>
                  <td className="tabular-nums">{currency.count}</td>
                  <td>
                    <Amount value={currency.previousTotal} currency={currency.currency} />
                  </td>
                  <td>
                    <Change percent={currency.changePercent} />
                  </td>
                </tr>
              ))}
            </DataTable>
          </div>
        )}
      </Panel>

      <Panel title="Recent activity" id="activity">
        {overview.activity.length === 0 ? (
          <EmptyState title="Nothing has happened yet">
            Create an invoice with the API or a <Link href="/cabinet/payment-links" className="text-(--ui-link) underline">payment link</Link>.
          </EmptyState>
        ) : (
          <DataTable caption="Recent activity" headers={["What", "Reference", "Amount", "Status", "When"]}>
            {overview.activity.map((event) => (
              <tr key={`${event.kind}:${"payoutId" in event ? event.payoutId : event.invoiceId}`}>
                <td>
                  <ActivityLink event={event} />
                </td>
                <td>
                  <ShortId value={event.orderId} />
                </td>
                <td>
                  <Amount value={event.amount} currency={event.currency} />
                </td>
                <td>
                  <StatusBadge status={event.status} />
                </td>
                <td className="whitespace-nowrap">
                  <Time iso={event.at} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </Panel>
    </>
  );
}
