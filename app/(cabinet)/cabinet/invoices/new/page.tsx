import type { Metadata } from "next";
import Link from "next/link";
import { Alert } from "@/components/cabinet/form-controls";
import { NewInvoiceForm } from "@/components/cabinet/invoices/new-invoice-form";
import { PageHeader, Panel } from "@/components/cabinet/page-kit";
import { buttonClassName } from "@/components/ui/button";
import { getApiDeps } from "@/lib/api/deps";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { listPricingCurrencies } from "@/lib/catalogue";
import { roleAllows } from "@/lib/domain/cabinet/permissions";
import { listAssetChoices } from "@/lib/services/balances/list-asset-choices";

export const metadata: Metadata = { title: "New invoice" };

export default async function NewInvoicePage() {
  const actor = await requireActorForPage();
  const deps = getApiDeps();
  const back = (
    <Link href="/cabinet/invoices" className={buttonClassName("secondary")}>
      Back to invoices
    </Link>
  );
  if (!roleAllows(actor.role, "links")) {
    return (
      <>
        <PageHeader title="New invoice" actions={back} />
        <Alert tone="warn">Your role ({actor.role}) cannot create invoices. An owner, admin or finance user can.</Alert>
      </>
    );
  }
  const coins = await listAssetChoices(deps, actor.merchantId, "payment");
  return (
    <>
      <PageHeader title="New invoice" description="An invoice made by hand, for a sale outside your store's checkout: share its payment page's link or QR code with the buyer." actions={back} />
      <Panel title="Invoice" id="new-invoice">
        <NewInvoiceForm
          pricingCurrencies={listPricingCurrencies().map((currency) => currency.symbol)}
          coins={coins.map((choice) => ({ currency: choice.currency, network: choice.network, networkName: choice.networkName }))}
        />
      </Panel>
    </>
  );
}
