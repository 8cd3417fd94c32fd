import type { Metadata } from "next";
import { Alert } from "@/components/cabinet/form-controls";
import { Amount, DataTable, EmptyState, PageHeader, Panel, StatusBadge, Time, ListFailure, readListPage } from "@/components/cabinet/page-kit";
import { CreatePaymentLinkForm, PaymentLinkToggle } from "@/components/cabinet/links/payment-link-forms";
import { QrCodeDisclosure } from "@/components/cabinet/links/qr-code";
import { cursorPagerLinks, Pager, readCursorPosition } from "@/components/cabinet/pager";
import { buttonClassName } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { TEXT_LINK } from "@/components/ui/theme";
import { getApiDeps } from "@/lib/api/deps";
import { qrCodeOf } from "@/lib/api/serialize/payment";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { findNetwork, listPricingCurrencies } from "@/lib/catalogue";
import { roleAllows } from "@/lib/domain/cabinet/permissions";
import { listAssetChoices } from "@/lib/services/balances/list-asset-choices";
import { listPaymentLinks } from "@/lib/services/payment-links/payment-links";
import { toPaymentLinkObject } from "@/lib/api/serialize/payment-link";
import { ListSearch, readSearchText } from "@/components/cabinet/search-box";

export const metadata: Metadata = { title: "Payment links" };

const PAGE_SIZE = 20;

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };
type PaymentLinkObject = ReturnType<typeof toPaymentLinkObject>;

function LinkAmount({ link }: { link: PaymentLinkObject }) {
  if (link.amount_mode === "fixed" && link.amount_fixed) return <Amount value={link.amount_fixed} currency={link.currency} />;
  if (link.amount_min && link.amount_max) {
    return (
      <span className="whitespace-nowrap">
        <Amount value={link.amount_min} currency={link.currency} /> to <Amount value={link.amount_max} currency={link.currency} />
      </span>
    );
  }
  if (link.amount_min) return <span className="whitespace-nowrap">From <Amount value={link.amount_min} currency={link.currency} /></span>;
  if (link.amount_max) return <span className="whitespace-nowrap">Up to <Amount value={link.amount_max} currency={link.currency} /></span>;
  return <span>Any amount in {link.currency}</span>;
}

function statusOf(link: PaymentLinkObject): string {
  if (link.is_expired) return "expired";
  return link.is_active ? "active" : "disabled";
}

export default async function PaymentLinksPage({ searchParams }: PageProps) {
  const actor = await requireActorForPage();
  const deps = getApiDeps();
  const canManage = roleAllows(actor.role, "links");
  const header = (
    <PageHeader
      title="Payment links"
      description="Reusable checkout pages: each visit makes a new invoice for the amount of the link or the buyer's."
      actions={
        canManage && deps.config.paymentLinksEnabled ? (
          <a href="#new-payment-link" className={buttonClassName("primary")}>
            New payment link
          </a>
        ) : null
      }
    />
  );
  if (!deps.config.paymentLinksEnabled) {
    return (
      <>
        {header}
        <Alert tone="warn">Payment links are turned off on this service (the operator's GATEWAY_PAYMENT_LINKS setting). Links cannot be created or opened until it is turned on.</Alert>
      </>
    );
  }

  const params = await searchParams;
  const position = readCursorPosition(params);
  const query = readSearchText(params);
  const { page, failure } = await readListPage(() => listPaymentLinks(deps, actor.merchantId, { limit: PAGE_SIZE, cursor: position.cursor, query }));
  const now = deps.now();
  const links = await Promise.all(
    (page?.items ?? []).map(async (row) => {
      const link = toPaymentLinkObject(row, deps.config.publicBaseUrl, now);
      return { link, qr: await qrCodeOf(link.url) };
    }),
  );
  const pins = canManage ? await listAssetChoices(deps, actor.merchantId, "payment") : [];
  const pager = cursorPagerLinks("/cabinet/payment-links", query ? { q: query } : {}, position, page?.nextCursor ?? null);

  return (
    <>
      {header}
      <Panel title="Links" id="payment-links">
        <ListSearch
          path="/cabinet/payment-links"
          id="payment-link-search"
          label="Search payment links"
          value={query}
          placeholder="Title, description or link id"
          hint="Finds links whose title or description contains the text, in any case (or the link with this id)."
        />
        {failure ? (
          <ListFailure message={failure} firstPage={"/cabinet/payment-links"} />
        ) : links.length === 0 && query !== "" ? (
          <EmptyState title="No link matches">No payment link&apos;s title or description contains “{query}”.</EmptyState>
        ) : links.length === 0 ? (
          <EmptyState title="No payment link yet">{canManage ? "Create one below and share its URL or QR code." : "Your team's payment links appear here."}</EmptyState>
        ) : (
          <DataTable caption="Payment links, newest first" headers={["Title", "Amount", "Coin and network", "Status", "Created", "Link", canManage ? "Actions" : ""]}>
            {links.map(({ link, qr }) => (
              <tr key={link.link_id}>
                <td className="max-w-64">
                  <span className="font-medium break-words">{link.title}</span>
                  {link.description ? <span className="block text-xs break-words text-(--ui-muted)">{link.description}</span> : null}
                </td>
                <td>
                  <LinkAmount link={link} />
                </td>
                <td className="whitespace-nowrap">
                  {link.pinned_currency ?? "Buyer chooses"}
                  <span className="block text-xs text-(--ui-muted)">{link.pinned_network ? `on ${findNetwork(link.pinned_network)?.displayName ?? link.pinned_network}` : "any network"}</span>
                </td>
                <td>
                  <StatusBadge status={statusOf(link)} />
                  {link.expires_at ? (
                    <span className="block text-xs text-(--ui-muted)">
                      {link.is_expired ? "Expired" : "Expires"} <Time iso={link.expires_at} />
                    </span>
                  ) : null}
                </td>
                <td className="whitespace-nowrap">
                  <Time iso={link.created_at} />
                </td>
                <td className="min-w-64">
                  <a href={link.url} target="_blank" rel="noreferrer" className={`block font-mono text-xs break-all ${TEXT_LINK}`}>
                    {link.url}
                  </a>
                  <div className="mt-2 flex flex-wrap items-start gap-3">
                    <CopyButton
                      value={link.url}
                      label="Copy"
                      accessibleName={`Copy the URL of ${link.title}`}
                      copiedText="Copied"
                      announcement="URL copied"
                      failure="Select the URL and copy it"
                      className="min-h-9 px-3 py-1"
                    />
                    <QrCodeDisclosure image={qr} alt={`QR code of the payment link ${link.title}`} context={`of ${link.title}`} />
                  </div>
                </td>
                <td>{canManage ? <PaymentLinkToggle linkId={link.link_id} title={link.title} isActive={link.is_active} /> : null}</td>
              </tr>
            ))}
          </DataTable>
        )}
        <Pager label="Payment link pages" {...pager} />
      </Panel>

      {canManage ? (
        <Panel title="New payment link" id="new-payment-link">
          <CreatePaymentLinkForm
            pricingCurrencies={listPricingCurrencies().map((currency) => currency.symbol)}
            pins={pins.map((pin) => ({ currency: pin.currency, network: pin.network, networkName: pin.networkName }))}
          />
        </Panel>
      ) : (
        <p className="text-sm text-(--ui-muted)">Your role ({actor.role}) can see payment links but not create or change them.</p>
      )}
    </>
  );
}
