import type { Metadata } from "next";
import Link from "next/link";
import { Alert } from "@/components/cabinet/form-controls";
import { Amount, DataTable, EmptyState, PageHeader, Panel, StatusBadge, Time, ListFailure, readListPage } from "@/components/cabinet/page-kit";
import { QrCodeDisclosure } from "@/components/cabinet/links/qr-code";
import { CreateStaticWalletForm, StaticWalletActions } from "@/components/cabinet/links/static-wallet-forms";
import { cursorPagerLinks, Pager, readCursorPosition } from "@/components/cabinet/pager";
import { buttonClassName } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { FOCUS_RING } from "@/components/ui/theme";
import { getApiDeps } from "@/lib/api/deps";
import { toStaticWallet } from "@/lib/api/serialize/static-wallet";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { findNetwork } from "@/lib/catalogue";
import { roleAllows } from "@/lib/domain/cabinet/permissions";
import { listAssetChoices } from "@/lib/services/balances/list-asset-choices";
import { summarizeWalletDeposits } from "@/lib/services/static-wallets/summarize-wallet-deposits";
import { listStaticWallets } from "@/lib/services/static-wallets/static-wallets";
import { ListSearch, readSearchText } from "@/components/cabinet/search-box";

export const metadata: Metadata = { title: "Static wallets" };

const PAGE_SIZE = 20;

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function StaticWalletsPage({ searchParams }: PageProps) {
  const actor = await requireActorForPage();
  const deps = getApiDeps();
  const canCreate = roleAllows(actor.role, "links");
  const canRefund = roleAllows(actor.role, "money");
  const header = (
    <PageHeader
      title="Static wallets"
      description="Permanent deposit addresses, one per customer, coin and network: every confirmed deposit is credited to your balance."
      actions={
        canCreate && deps.config.staticWalletsEnabled ? (
          <a href="#new-wallet" className={buttonClassName("primary")}>
            New wallet
          </a>
        ) : null
      }
    />
  );
  if (!deps.config.staticWalletsEnabled) {
    return (
      <>
        {header}
        <Alert tone="warn">Static wallets are turned off on this service (the operator&apos;s GATEWAY_STATIC_WALLETS setting). Wallets cannot be created or listed until it is turned on.</Alert>
      </>
    );
  }

  const params = await searchParams;
  const position = readCursorPosition(params);
  const query = readSearchText(params);
  const { page, failure } = await readListPage(() => listStaticWallets(deps, actor.merchantId, { limit: PAGE_SIZE, cursor: position.cursor, query }));
  const rows = page?.items ?? [];
  const [wallets, totals, choices] = await Promise.all([
    Promise.all(rows.map(toStaticWallet)),
    summarizeWalletDeposits(deps.db, actor.merchantId, rows),
    canCreate ? listAssetChoices(deps, actor.merchantId, "payment") : Promise.resolve([]),
  ]);
  const pager = cursorPagerLinks("/cabinet/wallets", query ? { q: query } : {}, position, page?.nextCursor ?? null);

  return (
    <>
      {header}
      <Panel title="Wallets" id="wallets">
        <ListSearch
          path="/cabinet/wallets"
          id="wallet-search"
          label="Search static wallets"
          value={query}
          placeholder="Order id or address"
          hint="Finds wallets whose order id or address contains the text, in any case."
        />
        {failure ? (
          <ListFailure message={failure} firstPage={"/cabinet/wallets"} />
        ) : wallets.length === 0 && query !== "" ? (
          <EmptyState title="No wallet matches">No static wallet&apos;s order id or address contains “{query}”.</EmptyState>
        ) : wallets.length === 0 ? (
          <EmptyState title="No static wallet yet">{canCreate ? "Create one below, or with POST /v1/wallet from your store." : "Your store's static wallets appear here."}</EmptyState>
        ) : (
          <DataTable caption="Static wallets, newest first" headers={["Order id", "Coin", "Address", "Status", "Received", "Created", canCreate || canRefund ? "Actions" : ""]}>
            {wallets.map((wallet) => {
              const total = totals.get(wallet.uuid);
              return (
                <tr key={wallet.uuid}>
                  <td className="max-w-48 font-mono text-xs break-all">{wallet.order_id}</td>
                  <td className="whitespace-nowrap">
                    {wallet.currency}
                    <span className="block text-xs text-(--ui-muted)">on {findNetwork(wallet.network)?.displayName ?? wallet.network}</span>
                  </td>
                  <td className="min-w-64">
                    <span className="block font-mono text-xs break-all">{wallet.address}</span>
                    <div className="mt-2 flex flex-wrap items-start gap-3">
                      <CopyButton
                        value={wallet.address}
                        label="Copy"
                        accessibleName={`Copy the address of ${wallet.order_id}`}
                        copiedText="Copied"
                        announcement="Address copied"
                        failure="Select the address and copy it"
                        className="min-h-9 px-3 py-1"
                      />
                      <QrCodeDisclosure image={wallet.address_qr_code} alt={`QR code of the ${wallet.currency} address of ${wallet.order_id}`} context={`of ${wallet.order_id}`} />
                    </div>
                  </td>
                  <td>
                    <StatusBadge status={wallet.status} />
                    {wallet.blocked_at ? (
                      <span className="block text-xs text-(--ui-muted)">
                        since <Time iso={wallet.blocked_at} />
                      </span>
                    ) : null}
                  </td>
                  <td className="text-sm">
                    {total ? (
                      <>
                        <span className="block">
                          <Amount value={total.credited} currency={wallet.currency} /> <span className="text-xs text-(--ui-muted)">received</span>
                        </span>
                        {total.held !== "0" ? (
                          <span className="block">
                            <Amount value={total.held} currency={wallet.currency} /> <span className="text-xs text-(--ui-muted)">held for refund</span>
                          </span>
                        ) : null}
                        {total.refunded !== "0" ? (
                          <span className="block">
                            <Amount value={total.refunded} currency={wallet.currency} />{" "}
                            <Link href="/cabinet/payouts?kind=wallet_refund" className={`text-xs text-(--ui-link) underline ${FOCUS_RING}`}>
                              refunded
                            </Link>
                          </span>
                        ) : null}
                        <span className="block text-xs text-(--ui-muted)">
                          {total.count} deposit{total.count === 1 ? "" : "s"}
                          {total.confirming > 0 ? `, ${total.confirming} confirming` : ""}
                        </span>
                      </>
                    ) : null}
                  </td>
                  <td className="whitespace-nowrap">
                    <Time iso={wallet.created_at} />
                  </td>
                  <td>
                    <StaticWalletActions
                      uuid={wallet.uuid}
                      orderId={wallet.order_id}
                      status={wallet.status}
                      held={total?.held ?? "0"}
                      currency={wallet.currency}
                      canBlock={canCreate}
                      canRefund={canRefund}
                    />
                  </td>
                </tr>
              );
            })}
          </DataTable>
        )}
        <Pager label="Static wallet pages" {...pager} />
      </Panel>

      {canCreate ? (
        <Panel title="New wallet" id="new-wallet">
          <CreateStaticWalletForm options={choices.map((choice) => ({ currency: choice.currency, network: choice.network, networkName: choice.networkName }))} />
        </Panel>
      ) : (
        <p className="text-sm text-(--ui-muted)">Your role ({actor.role}) can see static wallets but not create or block them.</p>
      )}
    </>
  );
}
