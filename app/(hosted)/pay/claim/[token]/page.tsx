import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { ClaimPage } from "@/components/hosted/claim-page";
import { nameNetwork } from "@/components/hosted/network-label";
import type { HostedClaimPageData, PublicClaimCard } from "@/lib/services/hosted/page-data";
import { getApiDeps } from "@/lib/api/deps";
import { findSettlementAsset } from "@/lib/catalogue";
import { addressChainOf } from "@/lib/chains/registry";
import { isAppError } from "@/lib/errors";
import { formatDecimal } from "@/lib/i18n/format";
import { getRequestLocale } from "@/lib/i18n/request-locale";
import { createTranslator } from "@/lib/i18n/translator";
import { describeHostedNetworks } from "@/lib/services/hosted/hosted-networks";
import { readStoreName } from "@/lib/services/hosted/store-name";
import { estimateClaimReceipt, readClaimCard } from "@/lib/services/payout-links/read-claim-card";
import { toClaimCard, type ClaimCardFacts } from "@/lib/api/serialize/payout-link";
import { toMinor } from "@/lib/domain/invoice/invoice-amounts";
import { formatAmount } from "@/lib/domain/money/amount";

export const dynamic = "force-dynamic";

/** The card the token opens, or null for a token that opens none (or links switched off). */
const loadClaimData = cache(async (token: string): Promise<HostedClaimPageData | null> => {
  const deps = getApiDeps();
  let facts: ClaimCardFacts;
  try {
    facts = await readClaimCard(deps, token);
  } catch (error) {
    if (isAppError(error) && (error.code === "payoutlink.not_found" || error.code === "payoutlink.disabled")) return null;
    throw error;
  }
  const card: PublicClaimCard = toClaimCard(facts);
  const asset = findSettlementAsset(card.currency, card.network);
  const estimate = facts.payout || !card.claimable ? null : await estimateClaimReceipt(deps, { currency: card.currency, network: card.network, amountMinor: toMinor(facts.link.amountMinor) });
  return {
    token,
    card,
    storeName: await readStoreName(deps, facts.link.merchantId),
    estimate: estimate && asset ? { receive: formatAmount(estimate.receiveMinor, asset.decimals), fee: formatAmount(estimate.feeMinor, asset.decimals) } : null,
    networkName: nameNetwork(describeHostedNetworks(deps.config).networks, card.network, asset?.kind ?? null),
    addressChain: addressChainOf(deps.config, card.network),
    renderedAtMs: deps.now().getTime(),
  };
});

type PageProps = { params: Promise<{ token: string }> };

export async function generateMetadata({ params }: PageProps): Promise<Metadata> {
  const { token } = await params;
  const [data, locale] = await Promise.all([loadClaimData(token), getRequestLocale()]);
  const t = createTranslator(locale);
  // The URL holds the claim token: no referrer leaves this page (the hosted layout says so too).
  if (!data) return { title: t("claim.notFoundTitle") };
  return { title: t("claim.pageTitle", { amount: formatDecimal(locale, data.card.amount), currency: data.card.currency }) };
}

export default async function PayoutLinkClaimPage({ params }: PageProps) {
  const { token } = await params;
  const data = await loadClaimData(token);
  if (!data) notFound();
  return <ClaimPage data={data} />;
}
