import type { Metadata } from "next";
import Link from "next/link";
import { Alert } from "@/components/cabinet/form-controls";
import { Amount, DataTable, EmptyState, PageHeader, Panel, ShortId, StatusBadge, Time } from "@/components/cabinet/page-kit";
import { CancelPayoutLinkButton, CreatePayoutLinkForm } from "@/components/cabinet/links/payout-link-forms";
import { hrefOf, Pager } from "@/components/cabinet/pager";
import { buttonClassName } from "@/components/ui/button";
import { TEXT_LINK } from "@/components/ui/theme";
import { getApiDeps } from "@/lib/api/deps";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { findNetwork } from "@/lib/catalogue";
import { roleAllows } from "@/lib/domain/cabinet/permissions";
import { listAssetChoices } from "@/lib/services/balances/list-asset-choices";
import { listPayoutLinks } from "@/lib/services/payout-links/list-payout-links";
import { toPayoutLinkObject } from "@/lib/api/serialize/payout-link";
import { ListSearch, readSearchText } from "@/components/cabinet/search-box";

export const metadata: Metadata = { title: "Payout links" };

const PAGE_SIZE = 25;
/** The list's deepest page; it keeps the offset a small number (the service clamps too). */
const MAX_OFFSET = 100_000;

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function readOffset(value: string | string[] | undefined): number {
  const text = Array.isArray(value) ? value[0] : value;
  const offset = Number(text);
  return Number.isInteger(offset) && offset > 0 ? Math.min(offset - (offset % PAGE_SIZE), MAX_OFFSET) : 0;
}

const STATUS_HINTS: Record<string, string> = {
  funded: "waiting for the recipient",
  claiming: "claimed, payout being made",
  claimed: "claimed",
  expired: "expired, reserve returned",
  cancelled: "cancelled, reserve returned",
};

export default async function PayoutLinksPage({ searchParams }: PageProps) {
  const actor = await requireActorForPage();
  const deps = getApiDeps();
  const canCreate = roleAllows(actor.role, "money");
  const header = (
    <PageHeader
      title="Payout links"
      description="Crypto checks: an amount reserved from your balance for whoever opens the claim URL and names an address."
      actions={
        canCreate && deps.config.payoutLinksEnabled ? (
          <a href="#new-payout-link" className={buttonClassName("primary")}>
            New payout link
          </a>
        ) : null
      }
    />
  );
  if (!deps.config.payoutLinksEnabled) {
    return (
      <>
        {header}
        <Alert tone="warn">Payout links are turned off on this service (the operator&apos;s GATEWAY_PAYOUT_LINKS setting). Links cannot be created or claimed until it is turned on.</Alert>
      </>
    );
  }

  const params = await searchParams;
  const offset = readOffset(params.offset);
  const query = readSearchText(params);
  // One more than a page tells whether a next page exists.
  const rows = await listPayoutLinks(deps, actor.merchantId, { limit: PAGE_SIZE + 1, offset, query });
  const now = deps.now();
  const links = rows.slice(0, PAGE_SIZE).map((row) => toPayoutLinkObject(row, { publicBaseUrl: deps.config.publicBaseUrl, now }));
  const choices = canCreate ? await listAssetChoices(deps, actor.merchantId, "payout") : [];
  const at = (value: number) => hrefOf("/cabinet/payout-links", { q: query || undefined, offset: value > 0 ? String(value) : undefined });

  return (
    <>
      {header}
      <Panel title="Links" id="payout-links">
        <ListSearch
          path="/cabinet/payout-links"
          id="payout-link-search"
          label="Search payout links"
          value={query}
          placeholder="Title, reference, e-mail, claim address or link id"
          hint="Finds links whose title, reference, recipient e-mail or claim address contains the text, in any case (or the link with this id)."
        />
        {links.length === 0 && query !== "" && offset === 0 ? (
          <EmptyState title="No link matches">No payout link&apos;s title, reference, e-mail or claim address contains “{query}”.</EmptyState>
        ) : links.length === 0 ? (
          offset > 0 ? (
            <EmptyState title="No more payout links">
              <Link href="/cabinet/payout-links" className="text-(--ui-link) underline">
                Back to the first page
              </Link>
            </EmptyState>
          ) : (
            <EmptyState title="No payout link yet">{canCreate ? "Create one below: its claim URL is shown once, to copy or show as a QR code." : "Your team's payout links appear here."}</EmptyState>
          )
        ) : (
          <DataTable caption="Payout links, newest first" headers={["Title", "Amount", "Status", "Recipient", "Expires", "Created", canCreate ? "Actions" : ""]}>
            {links.map((link) => {
              const name = link.title || link.reference || link.link_id;
              return (
                <tr key={link.link_id}>
                  <td className="max-w-64">
                    <span className="font-medium break-words">{link.title || <span className="text-(--ui-muted)">Untitled</span>}</span>
                    {link.reference ? <span className="block text-xs break-all text-(--ui-muted)">Reference {link.reference}</span> : null}
                    <span className="block text-xs text-(--ui-muted)">
                      <ShortId value={link.link_id} />
                    </span>
                  </td>
                  <td>
                    <Amount value={link.amount} currency={link.currency} />
                    <span className="block text-xs text-(--ui-muted)">on {findNetwork(link.network)?.displayName ?? link.network}</span>
                  </td>
                  <td>
                    <StatusBadge status={link.status} />
                    <span className="block text-xs text-(--ui-muted)">{STATUS_HINTS[link.status] ?? ""}</span>
                  </td>
                  <td className="max-w-56">
                    {link.email ? <span className="block text-xs break-all">{link.email}</span> : null}
                    {link.payout_id ? (
                      <>
                        <span className="block text-xs">
                          to <ShortId value={link.claim_address ?? ""} />
                        </span>
                        <Link href={`/cabinet/payouts/${link.payout_id}`} className={`text-xs ${TEXT_LINK}`}>
                          View its payout<span className="sr-only"> of payout link {name}</span>
                        </Link>
                      </>
                    ) : link.email ? null : (
                      <span className="text-(--ui-muted)">—</span>
                    )}
                  </td>
                  <td className="whitespace-nowrap">
                    <Time iso={link.expires_at} />
                  </td>
                  <td className="whitespace-nowrap">
                    <Time iso={link.created_at} />
                  </td>
                  <td>{canCreate && link.status === "funded" ? <CancelPayoutLinkButton linkId={link.link_id} name={name} /> : null}</td>
                </tr>
              );
            })}
          </DataTable>
        )}
        <p className="mt-3 text-sm text-(--ui-muted)">A claim URL is shown once, when its link is created: only a hash of its token is stored, so it cannot be shown again.</p>
        <Pager label="Payout link pages" first={offset > 0 ? at(0) : null} previous={offset > 0 ? at(offset - PAGE_SIZE) : null} next={rows.length > PAGE_SIZE && offset + PAGE_SIZE <= MAX_OFFSET ? at(offset + PAGE_SIZE) : null} />
      </Panel>

      {canCreate ? (
        <Panel title="New payout link" id="new-payout-link">
          <CreatePayoutLinkForm
            options={choices.map((choice) => ({ currency: choice.currency, network: choice.network, networkName: choice.networkName, fee: choice.payoutFee, available: choice.available }))}
          />
        </Panel>
      ) : (
        <p className="text-sm text-(--ui-muted)">Your role ({actor.role}) can see payout links but not create or cancel them: they move money.</p>
      )}
    </>
  );
}
