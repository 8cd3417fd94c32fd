import type { Metadata } from "next";
import Link from "next/link";
import { DataTable, EmptyState, PageHeader, Panel, ShortId, Time, ListFailure, readListPage } from "@/components/cabinet/page-kit";
import { cursorPagerLinks, Pager, readCursorPosition } from "@/components/cabinet/pager";
import { ReadOnlyNote } from "@/components/cabinet/settings/settings-form-kit";
import { DeliveryFilterForm } from "@/components/cabinet/webhooks/delivery-filter-form";
import { EndpointSettings, type EndpointView } from "@/components/cabinet/webhooks/endpoint-settings";
import { ResendDeliveryButton } from "@/components/cabinet/webhooks/resend-delivery-button";
import { TestWebhookForm, type TestEventOption } from "@/components/cabinet/webhooks/test-webhook-form";
import { TEXT_LINK } from "@/components/ui/theme";
import { getApiDeps } from "@/lib/api/deps";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { roleAllows } from "@/lib/domain/cabinet/permissions";
import { isAppError } from "@/lib/errors";
import { isResendableEvent, searchWebhookDeliveries, WEBHOOK_EVENT_TYPES, type DeliveryRow } from "@/lib/services/webhooks/search-deliveries";
import { DEFAULT_SECRET_OVERLAP_HOURS, getWebhookEndpoint } from "@/lib/services/webhooks/manage-endpoint";
import { MAX_SECRET_OVERLAP_HOURS } from "@/lib/webhooks/signing-secrets";
import { PAYMENT_EVENT_BY_STATUS, PAYOUT_INTERNAL_STATUSES } from "@/lib/webhooks/payloads";
import { hasFilters, readDeliveryQuery, toDeliveryFilters, toQueryParams, type SearchParams } from "./delivery-filters";
import { DeliveryBadge } from "@/components/cabinet/webhooks/delivery-badge";

export const metadata: Metadata = { title: "Webhooks" };

const PAGE_SIZE = 25;

/** Every test event the test-webhook services can build, by family (spec: Events). */
const TEST_EVENTS: TestEventOption[] = [
  ...Object.entries(PAYMENT_EVENT_BY_STATUS).map(([status, eventType]) => ({ value: `payment:${status}`, label: eventType, family: "payment" as const, status })),
  { value: "wallet:paid", label: "wallet.paid", family: "wallet", status: "paid" },
  ...PAYOUT_INTERNAL_STATUSES.map((status) => ({ value: `payout:${status}`, label: `payout.${status}`, family: "payout" as const, status })),
];

async function findEndpoint(merchantId: string): Promise<EndpointView | null> {
  const deps = getApiDeps();
  try {
    const endpoint = await getWebhookEndpoint(deps, merchantId);
    return { url: endpoint.url ?? "", createdAt: endpoint.created_at, updatedAt: endpoint.updated_at, previousSecretExpiresAt: endpoint.previous_secret_expires_at };
  } catch (error) {
    if (isAppError(error) && error.code === "webhook.no_endpoint") return null;
    throw error;
  }
}

/** What a delivery's status cell says: the stored status, "retrying" for a pending one that already failed, and a later resend. */
function DeliveryStatus({ delivery }: { delivery: DeliveryRow }) {
  const shown = delivery.status === "pending" && delivery.attempts > 0 ? "retrying" : delivery.status;
  return (
    <>
      <DeliveryBadge status={shown} />
      {delivery.status === "delivered" && delivery.deliveredAt ? (
        <div className="text-xs text-(--ui-muted)">
          <Time iso={delivery.deliveredAt} />
        </div>
      ) : null}
      {delivery.resentAs ? (
        <div className="text-xs text-(--ui-muted)">
          Resent <Time iso={delivery.resentAs.createdAt} /> — now {delivery.resentAs.status}
        </div>
      ) : null}
    </>
  );
}

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const actor = await requireActorForPage();
  const deps = getApiDeps();
  const params = await searchParams;
  const query = readDeliveryQuery(params);
  const position = readCursorPosition(params);
  const filters = toQueryParams(query);
  const canEdit = roleAllows(actor.role, "settings");
  const canResend = roleAllows(actor.role, "money");

  const endpoint = await findEndpoint(actor.merchantId);
  const { page, failure } = await readListPage(() => searchWebhookDeliveries(deps.db, actor.merchantId, toDeliveryFilters(query), { limit: PAGE_SIZE, cursor: position.cursor }));
  const links = cursorPagerLinks("/cabinet/webhooks", filters, position, page?.nextCursor ?? null);
  const isFiltered = hasFilters(query);
  const hasOtherEvents = page?.items.some((delivery) => !isResendableEvent(delivery.eventType)) ?? false;

  return (
    <>
      <PageHeader title="Webhooks" description="Where your store's events go, the secret that signs them, and every delivery with its attempts." />

      <Panel title="Endpoint and signing secret" id="endpoint">
        {canEdit ? (
          <p className="mb-4 text-sm text-(--ui-muted)">Changing the URL or rotating the secret asks for a code from your authenticator app.</p>
        ) : (
          <div className="mb-4">
            <ReadOnlyNote role={actor.role} who="an owner or admin can" />
          </div>
        )}
        <EndpointSettings endpoint={endpoint} canEdit={canEdit} defaultOverlapHours={DEFAULT_SECRET_OVERLAP_HOURS} maxOverlapHours={MAX_SECRET_OVERLAP_HOURS} />
      </Panel>

      {canEdit ? (
        <Panel title="Test webhook" id="test">
          <p className="mb-4 text-sm text-(--ui-muted)">Sends one event now (marked is_test: true) and shows what your receiver answered. Nothing is recorded in the delivery log.</p>
          <TestWebhookForm events={TEST_EVENTS} hasEndpoint={endpoint !== null} />
        </Panel>
      ) : null}

      <Panel title="Deliveries" id="deliveries">
        <div className="mb-4">
          <DeliveryFilterForm key={JSON.stringify(filters)} status={query.status} event={query.event} object={query.object} eventTypes={WEBHOOK_EVENT_TYPES} />
        </div>
        <p className="mb-4 text-sm text-(--ui-muted)">
          Each event is tried up to 12 times, 10 seconds apart and doubling up to an hour (about 3.4 hours in all); then it is dead. A dead payment event can be resent: the payment&apos;s event
          of its current status is recorded again, to the endpoint and the payment&apos;s url_callback.
        </p>
        {failure ? (
          <ListFailure message={failure} firstPage={"/cabinet/webhooks#deliveries"} />
        ) : !page || page.items.length === 0 ? (
          <EmptyState title={isFiltered ? "No delivery matches these filters" : "No delivery yet"}>
            {isFiltered ? (
              <Link href="/cabinet/webhooks#deliveries" className="text-(--ui-link) underline">
                Clear the filters
              </Link>
            ) : endpoint ? (
              "Events are recorded here as payments, wallet deposits and payouts change."
            ) : (
              "Register an endpoint above; events are recorded here as payments, wallet deposits and payouts change."
            )}
          </EmptyState>
        ) : (
          <>
            <DataTable caption="Webhook deliveries, newest first" headers={["Created", "Event", "About", "To", "Status", "Attempts", "Last answer", "Next attempt", canResend ? "Actions" : ""]}>
              {page.items.map((delivery) => (
                <tr key={delivery.id}>
                  <td className="whitespace-nowrap">
                    <Time iso={delivery.createdAt} />
                  </td>
                  <td className="font-mono text-xs whitespace-nowrap">{delivery.eventType}</td>
                  <td>
                    {delivery.eventType.startsWith("invoice.") ? (
                      <Link href={`/cabinet/invoices/${delivery.objectId}`} className={`${TEXT_LINK}`}>
                        <ShortId value={delivery.objectId} />
                      </Link>
                    ) : delivery.eventType.startsWith("payout.") ? (
                      <Link href={`/cabinet/payouts/${delivery.objectId}`} className={`${TEXT_LINK}`}>
                        <ShortId value={delivery.objectId} />
                      </Link>
                    ) : (
                      <ShortId value={delivery.objectId} />
                    )}
                  </td>
                  <td className="max-w-64">
                    <span className="text-xs text-(--ui-muted)">{delivery.target === "callback" ? "url_callback" : "Endpoint"}</span>
                    <div className="font-mono text-xs break-all">{delivery.url}</div>
                  </td>
                  <td>
                    <DeliveryStatus delivery={delivery} />
                  </td>
                  <td className="whitespace-nowrap tabular-nums">
                    {delivery.attempts} of {delivery.maxAttempts}
                  </td>
                  <td className="max-w-64">
                    {delivery.lastStatusCode !== null ? <span className="font-mono">HTTP {delivery.lastStatusCode}</span> : delivery.attempts === 0 ? <span className="text-(--ui-muted)">—</span> : null}
                    {delivery.lastError ? <div className="text-xs break-words text-(--ui-danger)">{delivery.lastError}</div> : null}
                  </td>
                  <td className="whitespace-nowrap">{delivery.nextAttemptAt ? <Time iso={delivery.nextAttemptAt} /> : <span className="text-(--ui-muted)">—</span>}</td>
                  <td>{canResend && isResendableEvent(delivery.eventType) ? <ResendDeliveryButton deliveryId={delivery.id} eventType={delivery.eventType} /> : null}</td>
                </tr>
              ))}
            </DataTable>
            {canResend && hasOtherEvents ? (
              <p className="mt-3 text-sm text-(--ui-muted)">Wallet and payout events cannot be resent; your receiver can read the current state with the wallet or payout info operation.</p>
            ) : null}
          </>
        )}
        <Pager label="Delivery pages" {...links} />
      </Panel>
    </>
  );
}
