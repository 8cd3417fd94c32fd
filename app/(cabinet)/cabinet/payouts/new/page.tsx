import type { Metadata } from "next";
import Link from "next/link";
import { Alert } from "@/components/cabinet/form-controls";
import { PageHeader, Panel } from "@/components/cabinet/page-kit";
import { NewPayoutForm } from "@/components/cabinet/payouts/new-payout-form";
import { buttonClassName } from "@/components/ui/button";
import { getApiDeps } from "@/lib/api/deps";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { roleAllows } from "@/lib/domain/cabinet/permissions";
import { listAssetChoices } from "@/lib/services/balances/list-asset-choices";
import { getPayoutFeeConfig } from "@/lib/services/payouts/manage-payouts";

export const metadata: Metadata = { title: "New payout" };

export default async function NewPayoutPage() {
  const actor = await requireActorForPage();
  const deps = getApiDeps();
  const canCreate = roleAllows(actor.role, "money");
  const back = (
    <Link href="/cabinet/payouts" className={buttonClassName("secondary")}>
      Back to payouts
    </Link>
  );
  if (!canCreate) {
    return (
      <>
        <PageHeader title="New payout" actions={back} />
        <Alert tone="warn">Your role ({actor.role}) cannot create payouts. An owner, admin or finance user can.</Alert>
      </>
    );
  }
  const [choices, feeConfig] = await Promise.all([listAssetChoices(deps, actor.merchantId, "payout"), getPayoutFeeConfig(deps.db, actor.merchantId)]);
  return (
    <>
      <PageHeader title="New payout" description="Send from your available balance to an address. Another user of your store approves it before it goes out." actions={back} />
      <Panel title="Payout" id="new-payout">
        <NewPayoutForm
          isFeeOnTop={feeConfig.is_subtract}
          options={choices.map((choice) => ({
            currency: choice.currency,
            network: choice.network,
            networkName: choice.networkName,
            decimals: choice.decimals,
            hasMemo: choice.hasMemo,
            fee: choice.payoutFee,
            available: choice.available,
          }))}
        />
      </Panel>
    </>
  );
}
