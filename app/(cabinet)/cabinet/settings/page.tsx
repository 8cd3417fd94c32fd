import type { Metadata } from "next";
import { PageHeader, Panel } from "@/components/cabinet/page-kit";
import { AcceptedCurrenciesForm } from "@/components/cabinet/settings/accepted-currencies-form";
import { AllowlistSettings } from "@/components/cabinet/settings/allowlist-settings";
import { AutoWithdrawSettings } from "@/components/cabinet/settings/auto-withdraw-settings";
import { AutorefundForm, PayoutFeeForm, RefundFeeForm } from "@/components/cabinet/settings/fee-settings";
import { PersonalWalletList, PersonalWalletTransferForm } from "@/components/cabinet/settings/personal-wallets";
import { ReadOnlyNote } from "@/components/cabinet/settings/settings-form-kit";
import { SplitConfigForm, SplitRules } from "@/components/cabinet/settings/split-settings";
import { ThresholdSettings } from "@/components/cabinet/settings/threshold-settings";
import { FOCUS_RING } from "@/components/ui/theme";
import { getApiDeps } from "@/lib/api/deps";
import { findNetwork } from "@/lib/catalogue";
import { requireActorForPage } from "@/lib/cabinet/current-actor";
import { currentOrigin } from "@/lib/cabinet/request-origin";
import { roleAllows } from "@/lib/domain/cabinet/permissions";
import { listAcceptedMethods } from "@/lib/services/accepted/accepted-methods";
import { getAllowlist } from "@/lib/services/allowlist/manage-allowlist";
import { describeAutoWithdrawRules } from "@/lib/services/payouts/describe-auto-withdraw-rules";
import { describePlatformFee } from "@/lib/services/merchants/describe-platform-fee";
import { isAddressInAllowlist } from "@/lib/domain/net/allowlist-match";
import { listAssetOptions } from "@/lib/services/catalogue/list-asset-options";
import { listPersonalWalletRows } from "@/lib/services/payouts/list-personal-wallet-rows";
import { getRefundFeeConfig } from "@/lib/services/refunds/create-refund";
import { getPayoutFeeConfig } from "@/lib/services/payouts/manage-payouts";
import { listMoneyOutThresholds } from "@/lib/services/payouts/money-out-thresholds";
import { getAutorefund } from "@/lib/services/refunds/resolve-payment";
import { getSplitConfig, listSplitRules, MAX_REFUND_HOLD_HOURS } from "@/lib/services/splits/split-rules";

export const metadata: Metadata = { title: "Settings" };

const SECTIONS = [
  { id: "accepted", label: "Accepted currencies" },
  { id: "fees", label: "Fees" },
  { id: "thresholds", label: "Money-out thresholds" },
  { id: "auto-withdraw", label: "Auto-withdraw" },
  { id: "splits", label: "Split rules" },
  { id: "allowlist", label: "IP allow-list" },
  { id: "personal-wallets", label: "Personal wallets" },
] as const;

export default async function SettingsPage() {
  const actor = await requireActorForPage();
  const deps = getApiDeps();
  const { merchantId } = actor;
  const canEdit = roleAllows(actor.role, "settings");
  const canMoveMoney = roleAllows(actor.role, "money");
  const isSplitsEnabled = deps.config.splitsEnabled;

  const isOwner = roleAllows(actor.role, "team");
  const [accepted, payoutFee, refundFee, autorefund, platformFee, autoWithdraw, allowlist, wallets, origin, splits, thresholds] = await Promise.all([
    listAcceptedMethods(deps.db, merchantId),
    getPayoutFeeConfig(deps.db, merchantId),
    getRefundFeeConfig(deps.db, merchantId),
    getAutorefund(deps.db, merchantId),
    describePlatformFee(deps.db, merchantId),
    describeAutoWithdrawRules(deps.db, merchantId),
    getAllowlist(deps.db, merchantId),
    listPersonalWalletRows(deps, merchantId),
    currentOrigin(),
    isSplitsEnabled ? Promise.all([listSplitRules(deps, merchantId, {}), getSplitConfig(deps, merchantId)]) : null,
    listMoneyOutThresholds(deps.db, merchantId),
  ]);
  const assets = listAssetOptions(deps.config);
  const payoutAssets = assets.filter((asset) => asset.canSend).map(({ currency, network, networkName, decimals }) => ({ currency, network, networkName, decimals }));
  const payoutNetworks = [...new Map(assets.filter((asset) => asset.canSend).map((asset) => [asset.network, { id: asset.network, name: asset.networkName }])).values()];
  const readOnly = canEdit ? null : <ReadOnlyNote role={actor.role} who="an owner or admin can" />;
  const sections = SECTIONS.filter((section) => section.id !== "splits" || isSplitsEnabled);

  return (
    <>
      <PageHeader title="Settings" description="How your store takes payments, pays fees and sends money out, and who may call the API. Each section saves on its own." />

      <nav aria-label="Settings sections" className="mb-6">
        <ul className="flex flex-wrap gap-2">
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`} className={`inline-flex min-h-11 items-center rounded-lg border border-(--ui-border) px-3 py-2 text-sm hover:bg-(--ui-subtle) ${FOCUS_RING}`}>
                {section.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <Panel title="Accepted currencies" id="accepted">
        <p className="mb-4 text-sm text-(--ui-muted)">The coins and networks a buyer may pick on an invoice that does not name one (and on payment links).</p>
        {readOnly}
        <AcceptedCurrenciesForm
          canEdit={canEdit}
          accepted={accepted}
          options={assets.map(({ currency, network, networkName, canReceive }) => ({ currency, network, networkName, canReceive }))}
        />
      </Panel>

      <Panel title="Fees" id="fees">
        <dl className="mb-4 grid gap-1 rounded-lg bg-(--ui-subtle) p-4 text-sm sm:grid-cols-[12rem_1fr]">
          <dt className="font-medium">Platform fee per payment</dt>
          <dd>
            <span className="font-mono tabular-nums">{platformFee.percent} %</span> + <span className="font-mono tabular-nums">{platformFee.fixedUsd}</span> USD{" "}
            <span className="text-(--ui-muted)">
              ({platformFee.isPercentOverride || platformFee.isFixedOverride ? "agreed for your store" : "the service default"}; set by the operator, taken from each payment in its coin)
            </span>
          </dd>
        </dl>
        {readOnly}
        <div className="grid gap-4 lg:grid-cols-3">
          <PayoutFeeForm isSubtract={payoutFee.is_subtract} canEdit={canEdit} />
          <RefundFeeForm payer={refundFee.payer} canEdit={canEdit} />
          <AutorefundForm underpaid={autorefund.underpaid} overpaid={autorefund.overpaid} canEdit={canEdit} />
        </div>
      </Panel>

      <Panel title="Money-out thresholds" id="thresholds">
        <p className="mb-4 text-sm text-(--ui-muted)">
          Amounts per coin above which payouts, refunds to another address than the payer&apos;s, payout-link claims, wallet refunds, split shares and auto-withdrawals wait for a second
          person&apos;s approval. Each change asks for a code from your authenticator app.
        </p>
        {isOwner ? null : <ReadOnlyNote role={actor.role} who="the owner sets them" />}
        <ThresholdSettings
          canEdit={isOwner}
          options={payoutAssets}
          freezeHours={Math.round(deps.config.payoutFreezeSeconds / 3600)}
          waitingHours={Math.round(deps.config.payoutWaitingSeconds / 3600)}
          thresholds={thresholds.map((item) => ({ currency: item.currency, network: item.network, networkName: findNetwork(item.network)?.displayName ?? item.network, perPayout: item.per_payout, perDay: item.per_day }))}
        />
      </Panel>

      <Panel title="Auto-withdraw" id="auto-withdraw">
        <p className="mb-4 text-sm text-(--ui-muted)">
          Each credit of a coin that reaches the minimum is paid out to your address once it matures, less the payout fee. Refunds owed back by autorefund stay on the balance.
        </p>
        {readOnly}
        <AutoWithdrawSettings
          canEdit={canEdit}
          options={payoutAssets}
          rules={autoWithdraw.map((rule) => ({ currency: rule.currency, network: rule.network, networkName: rule.networkName, address: rule.address, min: rule.min }))}
        />
      </Panel>

      {splits ? (
        <Panel title="Split rules" id="splits">
          <p className="mb-4 text-sm text-(--ui-muted)">A percentage of every incoming payment goes to a partner, in the payment&apos;s coin, after the refund hold.</p>
          {readOnly}
          <SplitRules
            canEdit={canEdit}
            networks={payoutNetworks}
            rules={splits[0].items.map((rule) => ({ ...rule, networkName: rule.network ? (findNetwork(rule.network)?.displayName ?? rule.network) : undefined }))}
          />
          <div className="mt-6 border-t border-(--ui-border) pt-6">
            <SplitConfigForm hours={splits[1].refund_hold_hours} maxHours={MAX_REFUND_HOLD_HOURS} canEdit={canEdit} />
          </div>
        </Panel>
      ) : null}

      <Panel title="IP allow-list" id="allowlist">
        <p className="mb-4 text-sm text-(--ui-muted)">Limits where your API keys may be used from. Each change asks for a code from your authenticator app.</p>
        {readOnly}
        <AllowlistSettings
          canEdit={canEdit}
          entries={allowlist.entries}
          isEnabled={allowlist.enabled}
          currentAddress={origin.ipAddress}
          isCurrentIncluded={isAddressInAllowlist(allowlist.entries, origin.ipAddress)}
        />
      </Panel>

      <Panel title="Personal wallets" id="personal-wallets">
        <p className="mb-4 text-sm text-(--ui-muted)">
          Your own addresses, one per coin and network, and transfers of your balance to them. Registering a wallet and transferring each ask for a code from your authenticator app; a transfer
          waits for another user&apos;s approval like any manual payout.
        </p>
        {canEdit ? null : <ReadOnlyNote role={actor.role} who="an owner or admin registers and removes them" />}
        <PersonalWalletList canEdit={canEdit} options={payoutAssets} wallets={wallets} />
        <div className="mt-6 border-t border-(--ui-border) pt-6">
          {canMoveMoney ? (
            <PersonalWalletTransferForm wallets={wallets} />
          ) : (
            <p className="text-sm text-(--ui-muted)">Your role ({actor.role}) cannot transfer money; an owner, admin or finance user can.</p>
          )}
        </div>
      </Panel>
    </>
  );
}
